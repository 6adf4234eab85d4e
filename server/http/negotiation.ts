/** Most entries of a preference header (Accept, Accept-Language) looked at: a preference list says it all in its first entries. */
const MAX_ENTRIES = 16;

/** The entries of a preference header as given, each with its q-value (1 when it names none) and its place. */
export function weightedEntries(header: string | undefined): Array<{ value: string; q: number; order: number }> {
  return (header ?? "")
    .split(",")
    .slice(0, MAX_ENTRIES)
    .map((entry, order) => {
      const [value, ...params] = entry.split(";");
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { value: value.trim(), q: q === undefined ? 1 : Number(q), order };
    });
}

/**
 * Whether a request's Accept header ranks `application/json` above `text/html`, each at the q-value of the most
 * specific range that matches it (exact, then `type/*`, then `*\/*`). A tie, or no header, is the page.
 */
export function prefersJson(accept: string | undefined): boolean {
  const ranges = weightedEntries(accept).map((entry) => ({ ...entry, value: entry.value.toLowerCase() }));
  const quality = (type: string) => {
    const candidates = [type, `${type.split("/")[0]}/*`, "*/*"];
    for (const candidate of candidates) {
      const found = ranges.find((range) => range.value === candidate);
      if (found) return found.q;
    }
    return 0;
  };
  return quality("application/json") > quality("text/html");
}
