import { Type } from "typebox";
import { encodeCursor } from "./paging";

/**
 * `limit` and `cursor` of a paged list. The cursor's example is the one that names the list's start (`first`: the key
 * a page continues from), so that the document's example asks for the first page.
 */
export const paging = (first: string[]) =>
  Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: "Items per page (1–1000)", examples: [10] })),
    cursor: Type.Optional(
      Type.String({
        maxLength: 512,
        description: 'From the Link rel="next" of the previous page (opaque; the example starts at the first item)',
        examples: [encodeCursor(first)],
      }),
    ),
  });

/** Paging of a list in address order (holders, contracts of an owner). */
export const AddressPaging = paging(["0x0000000000000000000000000000000000000000"]);
/** Paging of a list in token id order (an owner's tokens of a contract). */
export const IdPaging = paging(["0"]);

/** What every list read from the index says about paging and freshness (for the operations' descriptions). */
export const PAGED_FROM_INDEX =
  "Read from our own index, not the node: `X-Indexed-Block` says how fresh (the block the index is complete to), " +
  '`X-Index-Complete: false` that the contract has ranges the index did not expand. Pages with `limit` (default 100) and `cursor`; the next page is in `Link: <...>; rel="next"` ' +
  "(absent on the last page), and the body stays a plain array.";
