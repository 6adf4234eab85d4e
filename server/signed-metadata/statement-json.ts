import { invalidMetadata } from "./errors";

/**
 * The rules a statement's JSON keeps, so that it can be served as it was signed, byte for byte, inside every answer
 * that embeds it, and every JSON reader takes the answer (docs/reference/metadata.md; SECURITY.md).
 */

/** Deepest nesting of objects and arrays: some readers refuse deep documents, and answers add levels around it. */
export const MAX_DEPTH = 32;

// ignoreBOM: a byte-order mark stays in the text, so it is seen and refused instead of silently dropped (the text
// is served as signed, where the mark would break every answer that embeds it).
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const BOM = "\ufeff";
/** Unicode Cc but tab and line breaks, as every body string of the service (server/http/input-guard.ts). */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** With the u flag a surrogate pair is one code point: only a lone half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * The JSON text of a statement's decoded bytes, or a refusal (`invalid_metadata`) naming the first rule it breaks:
 * well-formed UTF-8 with no leading byte-order mark; one JSON text (RFC 8259) whose top level is an object; at
 * most {@link MAX_DEPTH} levels deep; no key twice in one object (readers disagree on which one wins); strings that
 * are Unicode text (no lone surrogate, even escaped) without control characters other than tab and line breaks;
 * numbers within a double's range (larger integers are fine: their digits are kept, never rounded).
 */
export function statementJson(bytes: Uint8Array): string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalidMetadata("metadata must be the Base64 of well-formed UTF-8 (no invalid, overlong or surrogate byte sequences)");
  }
  if (text.startsWith(BOM)) throw invalidMetadata("metadata must not begin with a byte-order mark (U+FEFF)");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidMetadata("metadata must be the Base64 of UTF-8 JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidMetadata("metadata must be the Base64 of a JSON object");
  const broken = brokenRule(text);
  if (broken) throw invalidMetadata(broken);
  return text;
}

/**
 * The first rule beyond the grammar that `text`, a valid JSON text, breaks. One pass with a stack of the open
 * containers (the keys seen so far for an object); strings are decoded by JSON.parse, so escapes count as what they
 * stand for (`"\u0061"` repeats `"a"`).
 */
function brokenRule(text: string): string | undefined {
  const open: (Set<string> | null)[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const raw = text.slice(i + 1, end - 1);
      // Text as it was decoded holds no lone surrogate (the decoder is fatal): only escapes can spell one.
      const escaped = raw.includes("\\");
      const value = escaped ? (JSON.parse(text.slice(i, end)) as string) : raw;
      if (escaped && LONE_SURROGATE.test(value))
        return `metadata must not contain a lone surrogate (\\ud800–\\udfff without its other half), at character ${i}`;
      if (CONTROL_IN_TEXT.test(value))
        return `metadata strings must not contain control characters other than tab and line breaks, at character ${i}`;
      const keys = open[open.length - 1];
      if (keys && nextIsColon(text, end)) {
        if (keys.has(value)) return `metadata must not repeat a key within one object, at character ${i}`;
        keys.add(value);
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      open.push(c === 0x7b ? new Set() : null);
      if (open.length > MAX_DEPTH) return `metadata must not nest arrays and objects more than ${MAX_DEPTH} deep`;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      let exponent = false;
      for (; end < text.length && isNumberCharacter(text.charCodeAt(end)); end++) exponent ||= (text.charCodeAt(end) | 0x20) === 0x65;
      // Without an exponent, fewer than 309 characters cannot reach 1.8e308: only the others are converted.
      if ((exponent || end - i > 308) && !Number.isFinite(Number(text.slice(i, end))))
        return `metadata numbers must be within the range of a double (magnitude below 1.8e308), at character ${i}`;
      i = end;
    } else {
      i++;
    }
  }
  return undefined;
}

/** Digits, `.`, `e`, `E`, `+` and `-`: what a JSON number is written with. */
function isNumberCharacter(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/** The index just past the string starting at `start` (its opening quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    i += c === BACKSLASH ? 2 : 1;
  }
}

/** Whether the next character after `from` that is not JSON whitespace is a colon (the string was a key). */
function nextIsColon(text: string, from: number): boolean {
  let i = from;
  while (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r") i++;
  return text.charCodeAt(i) === COLON;
}
