/**
 * Query parameters whose values are credentials somewhere in OAuth, OpenID Connect or our own API (codes, tokens,
 * secrets, PKCE verifiers, assertions) or could be: any name mentioning one of these words.
 */
const SECRET_NAME = /code|token|secret|password|passwd|verifier|assertion|key|sig|session|auth|cookie|jwt|otp/i;

/**
 * `url` as it may go into a log line: the path as is, and every query value whose name looks like a credential
 * replaced by `[redacted]` (names are kept, so the line still says what was sent). Values that do not decode are
 * redacted too: what they hold cannot be judged.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf("?");
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      if (eq < 0) return part;
      let name: string;
      try {
        name = decodeURIComponent(part.slice(0, eq).replace(/\+/g, " "));
      } catch {
        return `${part.slice(0, eq)}=[redacted]`;
      }
      return SECRET_NAME.test(name) ? `${part.slice(0, eq)}=[redacted]` : part;
    })
    .join("&");
  return `${url.slice(0, start)}?${query}`;
}

/** Headers and body fields never written to a log (pino `redact` paths), should anything log a request. */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "body.client_secret",
  "body.code",
  "body.code_verifier",
  "body.refresh_token",
  "body.token",
  "body.signature",
];
