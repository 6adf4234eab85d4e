/**
 * Text made safe to put in HTML, in element content and in double- or single-quoted attribute values: the five
 * characters that could end either are written as character references.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
