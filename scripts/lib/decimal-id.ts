/** A token id as the converter's scripts take it: decimal digits, no sign, no exponent, no leading zeros beyond "0". */
const DECIMAL_ID = /^(0|[1-9]\d*)$/;

/**
 * `text` as a token id, or an error (of class `Refusal`) saying "<what> is not a decimal uint256". Values that are
 * not strings are refused the same way (a pairs file may hold anything).
 */
export function parseDecimalId(text: unknown, what: string, Refusal: new (message: string) => Error = Error): bigint {
  if (typeof text !== "string" || !DECIMAL_ID.test(text)) throw new Refusal(`${what} is not a decimal uint256`);
  return BigInt(text);
}
