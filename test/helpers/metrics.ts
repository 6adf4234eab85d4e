/** The value of the sample `name{labels}` (labels matched exactly, in any order); undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(",");
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have =
      (match[2] ?? "")
        .match(/\w+="(?:[^"\\]|\\.)*"/g)
        ?.sort()
        .join(",") ?? "";
    if (have === wanted) return Number(match[3]);
  }
  return undefined;
}
