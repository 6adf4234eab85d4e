import { Type } from "typebox";

/** The body of every refusal of the JSON API (docs/api.md); oidc-provider's endpoints answer RFC 6749's instead. */
export const ErrorBody = Type.Object({
  error: Type.String({ description: "snake_case code, stable: what programs compare" }),
  message: Type.String({ description: "What was wrong, for people" }),
});
