import { expect } from "chai";

/**
 * The dialects a refusal is written in (docs/reference/api.md, docs/reference/login.md#errors):
 * - `api`: `{"error", "message"}`, every route of ours (server/http/errors.ts), the predecessor's paths included;
 * - `oauth`: RFC 6749's `{"error", "error_description"}`, the token, revocation and userinfo endpoints, discovery and
 *   `/jwks` (ours and oidc-provider's own);
 * - `html`: the page the authorization endpoint or the hosted sign-in page shows a browser, which names the code.
 */
export type RefusalDialect = "api" | "oauth" | "html";

export interface RefusalExpectation {
  /** `api` unless said. */
  dialect?: RefusalDialect;
  /** The message (`message`, or `error_description` in the OAuth dialect): equal to a string, or matching a RegExp. */
  message?: string | RegExp;
  /** Headers the refusal must carry: a value, a RegExp it matches, or `true` for any value (e.g. `Retry-After`). */
  headers?: Record<string, string | RegExp | true>;
  /** Keys the body may carry besides the dialect's two (oidc-provider adds some to a few errors). */
  extraKeys?: string[];
  /** Named in every failure, e.g. the case of a loop. */
  label?: string;
}

type HeaderBag = Headers | Record<string, string | string[] | number | undefined>;

/**
 * Every shape in which a test holds an answer: a fetch `Response` (also what `t.fetch` answers through inject), a
 * light-my-request answer (`app.inject`), an answer already read by a test helper (`{status, headers, body | text}`), or the
 * bytes a raw socket read (test/helpers/raw-http.ts).
 */
export type Answer =
  | Response
  | { statusCode: number; headers: Record<string, string | string[] | number | undefined>; body: string }
  | { status: number; headers?: HeaderBag; body?: unknown; text?: string }
  | Buffer;

export interface Refusal {
  status: number;
  headers: Headers;
  /** The parsed body (the page's text for the HTML dialect). */
  body: { error: string; message?: string; error_description?: string; [key: string]: unknown };
}

/**
 * Asserts that `answer` is a refusal with `status` and the documented `code`, in the dialect's content type and with
 * exactly the dialect's keys. Resolves with the refusal read, for a test that checks more.
 */
export async function expectRefusal(answer: Answer, status: number, code: string, extra: RefusalExpectation = {}): Promise<Refusal> {
  const dialect = extra.dialect ?? "api";
  const read = await readAnswer(answer);
  const label = `${extra.label ? `${extra.label}: ` : ""}${read.status} ${typeof read.body === "string" ? read.body.slice(0, 500) : JSON.stringify(read.body)}`;
  expect(read.status, label).to.equal(status);
  if (read.headers) {
    const type = read.headers.get("content-type") ?? "";
    expect(type, `${label} (content-type)`).to.match(dialect === "html" ? /^text\/html\b/ : /^application\/json\b/);
    for (const [name, want] of Object.entries(extra.headers ?? {})) {
      const value = read.headers.get(name);
      expect(value, `${label} (header ${name})`).to.be.a("string");
      if (want instanceof RegExp) expect(value, `${label} (header ${name})`).to.match(want);
      else if (want !== true) expect(value, `${label} (header ${name})`).to.equal(want);
    }
  } else {
    expect(extra.headers ?? {}, `${label}: this answer carries no headers to check`).to.deep.equal({});
  }

  if (dialect === "html") {
    expect(read.body, label).to.be.a("string");
    const page = read.body as string;
    expect(page, label).to.match(/^<!doctype html>/i);
    // oidc-provider's error page says "code: description"; the hosted sign-in page names it in data-error.
    expect(page.includes(`${code}:`) || page.includes(` data-error="${code}"`), `${label} (names ${code})`).to.equal(true);
    if (extra.message !== undefined) matchText(page, extra.message, label);
    return { status: read.status, headers: read.headers ?? new Headers(), body: { error: code, message: page } };
  }

  let body = read.body;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      expect.fail(`${label}: the body is not JSON`);
    }
  }
  expect(body, label).to.be.an("object").and.not.an("array");
  const object = body as Refusal["body"];
  const textKey = dialect === "oauth" ? "error_description" : "message";
  const keys = Object.keys(object).filter((key) => !(extra.extraKeys ?? []).includes(key));
  expect(keys.sort(), `${label} (keys)`).to.deep.equal(["error", textKey].sort());
  expect(object.error, label).to.equal(code);
  const text = object[textKey];
  expect(text, `${label} (${textKey})`).to.be.a("string").and.have.length.above(0);
  if (extra.message !== undefined) matchText(text as string, extra.message, label);
  return { status: read.status, headers: read.headers ?? new Headers(), body: object };
}

function matchText(text: string, want: string | RegExp, label: string) {
  if (want instanceof RegExp) expect(text, label).to.match(want);
  else expect(text, label).to.equal(want);
}

async function readAnswer(answer: Answer): Promise<{ status: number; headers?: Headers; body: unknown }> {
  // A clone, so that the test may still read the body.
  if (answer instanceof Response) return { status: answer.status, headers: answer.headers, body: await answer.clone().text() };
  if (Buffer.isBuffer(answer)) return parseRawHttp(answer);
  if ("statusCode" in answer) return { status: answer.statusCode, headers: toHeaders(answer.headers), body: answer.body };
  const body = answer.body !== undefined ? answer.body : answer.text;
  return { status: answer.status, headers: answer.headers ? toHeaders(answer.headers) : undefined, body };
}

function toHeaders(bag: HeaderBag): Headers {
  if (bag instanceof Headers) return bag;
  const headers = new Headers();
  for (const [name, value] of Object.entries(bag)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(name, String(one));
  }
  return headers;
}

/** The first answer in bytes read off a socket: status line, headers, and the body after them. */
function parseRawHttp(bytes: Buffer): { status: number; headers: Headers; body: string } {
  const end = bytes.indexOf("\r\n\r\n");
  expect(end, `no complete HTTP head in ${JSON.stringify(bytes.toString("latin1").slice(0, 200))}`).to.be.greaterThan(0);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  expect(match, `not an HTTP status line: ${statusLine}`).to.not.equal(null);
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let body = bytes.subarray(end + 4);
  const length = headers.get("content-length");
  if (length !== null) body = body.subarray(0, Number(length));
  return { status: Number(match![1]), headers, body: body.toString("utf8") };
}
