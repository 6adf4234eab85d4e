/** The least and the greatest of `ids` (at least one): the bounds of a scan that reads them in key order. */
export function idSpan(ids: readonly bigint[]): { first: bigint; last: bigint } {
  let first = ids[0];
  let last = ids[0];
  for (const id of ids) {
    if (id < first) first = id;
    if (id > last) last = id;
  }
  return { first, last };
}
