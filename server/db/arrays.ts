/** A value an array literal carries as it is: a number, or hex or decimal text. */
export type PlainValue = number | bigint | string | null | undefined;

// Hex (0x and digits of either case) or a decimal integer: characters an array literal never quotes, and never the
// unquoted word NULL.
const PLAIN = /^(0x[0-9a-fA-F]*|-?[0-9]+)$/;

/**
 * A PostgreSQL array literal (`{1,0xab,NULL}`) for a `$n::type[]` parameter, built by one join. node-postgres makes
 * the same text from a JS array, but quotes and escapes each element with two regular expressions and grows it by
 * concatenation: on the indexer's ranges of thousands of rows that was a tenth of its CPU with the garbage it leaves.
 * null and undefined are NULL. Throws on text that is neither hex nor a decimal integer, which the literal would
 * have to quote (a comma or a brace in it would change the array).
 */
export function arrayLiteral(values: readonly PlainValue[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) parts[i] = "NULL";
    else if (typeof value === "string") {
      if (!PLAIN.test(value)) throw new TypeError(`arrayLiteral: ${JSON.stringify(value.slice(0, 80))} is neither hex nor an integer`);
      parts[i] = value;
    } else parts[i] = String(value);
  }
  return `{${parts.join(",")}}`;
}

/**
 * One array literal per field of `rows`, in the order `fields` names them: the parameters of an
 * `unnest($2::type[], $3::type[], …)` that reads a batch of rows.
 */
export function columnLiterals<Field extends string>(
  rows: ReadonlyArray<Record<NoInfer<Field>, PlainValue>>,
  fields: readonly Field[],
): string[] {
  return fields.map((field) => arrayLiteral(rows.map((row) => row[field])));
}
