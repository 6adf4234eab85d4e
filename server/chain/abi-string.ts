import type { Interface } from "ethers";

const WORD = 32;
// Fatal: malformed UTF-8 is refused, not replaced; ignoreBOM: a leading BOM is kept, as ethers keeps it.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The string an `eth_call` of a function returning one `string` answered, as ethers'
 * `Interface.decodeFunctionResult` reads it, refusing what it refuses (a `TypeError` here): a length that is not a
 * whole number of words, an offset or length outside the data or past 2^53, and malformed UTF-8.
 * ethers copies the data at each offset and decodes UTF-8 code point by code point: for a megabyte `tokenURI` that
 * held the event loop for about half a second, and a metadata page of 32 of them for many seconds, long enough for
 * every other request of the instance waiting for a database connection to be refused 503. Here it is one hex read and
 * one native UTF-8 decode.
 */
export function decodeAbiString(data: string): string {
  // Buffer.from stops at the first character that is not hex (or at an odd last one): all of it was read, or it is not hex.
  const bytes = Buffer.from(data.slice(2), "hex");
  if (!/^0[xX]/.test(data) || bytes.length * 2 !== data.length - 2) throw new TypeError("the result is not hex");
  if (bytes.length % WORD !== 0) throw new TypeError("the result is not a whole number of words");
  const offset = wordAt(bytes, 0);
  const length = wordAt(bytes, offset);
  const start = offset + WORD;
  if (start + Math.ceil(length / WORD) * WORD > bytes.length) throw new TypeError("the string runs past the result");
  try {
    return UTF8.decode(bytes.subarray(start, start + length));
  } catch {
    throw new TypeError("the string is not UTF-8");
  }
}

/** The word at `at` as a number, which ethers reads offsets and lengths as (at most 2^53 − 1). */
function wordAt(bytes: Buffer, at: number): number {
  if (at + WORD > bytes.length) throw new TypeError("a word runs past the result");
  const value = BigInt(`0x${bytes.toString("hex", at, at + WORD)}`);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new TypeError("an offset or length is past 2^53");
  return Number(value);
}

/**
 * The first value `fn` of `iface` answered in `data`. A function that returns one `string` is read by `decodeAbiString`
 * (its text is whatever the contract answers, up to what a call's gas allows); anything else by ethers. Either way a
 * malformed answer throws.
 */
export function decodeResult(iface: Interface, fn: string, data: string): unknown {
  const outputs = iface.getFunction(fn)?.outputs ?? [];
  if (outputs.length === 1 && outputs[0].type === "string") return decodeAbiString(data);
  return iface.decodeFunctionResult(fn, data)[0];
}
