import { Type } from "typebox";

export const Paging = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: "Items per page (1–1000)" })),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'From the Link rel="next" of the previous page' })),
});
