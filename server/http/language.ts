import { weightedEntries } from "./negotiation";

/** Most `requested` tags looked at. */
const MAX_ENTRIES = 16;

/**
 * The language of a page, one of `supported` (the first is the default): the first language of `requested` the page
 * speaks (the request's own choice: OIDC's space-separated `ui_locales`, or a `?lang=`), else the browser's most
 * preferred one it speaks (Accept-Language, by q-value). Only the primary subtag counts: `ja-JP` is `ja`.
 */
export function negotiateLanguage<L extends string>(
  supported: readonly [L, ...L[]],
  requested: unknown,
  acceptLanguage: string | undefined,
): L {
  const speaks = (tag: string): L | undefined => {
    const primary = tag.trim().split("-")[0].toLowerCase();
    return supported.find((lang) => lang === primary);
  };
  if (typeof requested === "string") {
    for (const tag of requested.split(/[\s,]+/).slice(0, MAX_ENTRIES)) {
      const lang = speaks(tag);
      if (lang) return lang;
    }
  }
  const preferred = weightedEntries(acceptLanguage)
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { value: tag } of preferred) {
    const lang = speaks(tag);
    if (lang) return lang;
  }
  return supported[0];
}
