/**
 * Unicode Cc (controls, NUL included), Cf (format: bidi overrides and isolates, zero-width characters), Zl and Zp:
 * a bidi override can make a name render reversed, a zero-width character make two names look alike, a line break
 * forge a line of whatever shows the text.
 */
const INVISIBLE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * A text a contract or a document chose (a collection's name, symbol or description) as it may be shown: invisible
 * outer whitespace goes, invisible characters become U+FFFD, and it is cut to `max` code points (a trailing "…" says so).
 * Null for text that is empty once cleaned.
 */
export function displayText(text: string, max: number): string | null {
  const cleaned = text.trim().replace(INVISIBLE_ALL, "\uFFFD");
  if (cleaned === "") return null;
  const points = Array.from(cleaned);
  return points.length <= max ? cleaned : `${points.slice(0, max - 1).join("")}…`;
}
