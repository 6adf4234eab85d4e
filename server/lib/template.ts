/**
 * `template` with each `{name}` replaced by `values[name]` (a name without a value is kept as it is). The values go in
 * through a replacer function: in a replacement string, `$'`, `` $` ``, `$&`, `$1` or `$$` in a value (a client's
 * name) would be read as a pattern and garble the text.
 */
export function fillText(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}
