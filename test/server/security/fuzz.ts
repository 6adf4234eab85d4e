import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { id, Wallet } from "ethers";
import type { FastifyInstance, InjectOptions } from "fastify";
import { AliceNFT__factory } from "../../../typechain-types";
import type { Queryable } from "../../../server/db/database";
import { boundText, encodeMetadata, type Target } from "../../../server/signed-metadata/signed-text";
import { startTestApp, type TestApp } from "../../helpers/app";
import { providerFor, sharedNode } from "../../helpers/chain";
import { indexedTo } from "../../helpers/index-check";
import { pollUntil } from "../../helpers/waiters";
import { parseRawAnswer, rawRequest } from "../../helpers/raw-http";
import { jsonAnswerProblem, statementReadPaths, unreadableAnswers, type StatementTargets } from "../../helpers/statement-reads";
import { registerClient, startLoginApp } from "../auth/helpers";

/**
 * A property-based fuzz of the whole HTTP surface: every route of the OpenAPI document (read from the running app,
 * so routes added later are fuzzed too) and every oidc-provider endpoint named by discovery get generated malformed
 * paths, query strings, headers and bodies. Every answer must be a non-5xx in the endpoint's documented shape, and
 * nothing stored before the run may change.
 */

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** Called with each failure's description before the run stops. */
  log?: (line: string) => void;
}

export interface FuzzResult {
  requests: number;
  /** Requests the injector could not even build (not sent). */
  unsendable: number;
  endpoints: number;
  statuses: Record<string, number>;
}

interface Endpoint {
  method: string;
  /** OpenAPI form: `/metadata/{network}/{contract}/{id}`. */
  path: string;
  params: string[];
  query: string[];
  body: string[];
  dialect: "api" | "oauth" | "page";
}

/**
 * Answers allowed with a 5xx status: documented states of the service, whatever the input (a network without an RPC
 * URL, an index not started yet, /ready reporting a node that did not answer its probe).
 */
const DOCUMENTED_5XX = new Set(["network_unavailable", "not_indexed", "not_ready"]);

/** Strings an attacker tries: NUL and other controls, bidi, broken encodings, overlong and wrongly typed values. */
function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      "\u0000",
      "a\u0000b",
      "%00",
      "%",
      "%zz",
      "%C3%28",
      "%E0%A4%A",
      "%ED%A0%80",
      "%FF%FE",
      "\u202e\u2066",
      "\u0085",
      "\ud800",
      "\r\nSet-Cookie: x=1",
      "../../etc/passwd",
      "' OR 1=1 --",
      "0x",
      "0x123",
      "zz",
      `0x${"ab".repeat(65)}`,
      `0x${"00".repeat(20)}`,
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "-1",
      "1e309",
      "115792089237316195423570985008687907853269984665640564039457584007913129639936",
      "localhost",
      "mainnet",
      "openid",
      "code",
      "S256",
      "null",
      "[]",
      "{}",
      "",
    ),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.string({ unit: fc.constantFrom("\u0000", "\u0001", "\u001f", "\u007f", "\u009f", "a", "%", "\u2028", "\u200b"), maxLength: 20 }),
    fc.integer({ min: 1, max: 5 }).map((n) => "A".repeat(10 ** n)),
  );
}

/** Every UTF-8 byte but the unreserved ones as %XX (a lone surrogate becomes U+FFFD, as any client would send it). */
const percentEncode = (value: string) =>
  [...Buffer.from(value, "utf8")]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

/** A value as sent in a URL: percent-encoded, or spliced in as is (broken escapes, raw controls). */
const urlPart = () => fc.tuple(hostileString(), fc.boolean()).map(([value, raw]) => (raw ? value : percentEncode(value)));

/** A JSON value of the wrong type (or the right one). */
const jsonValue = () =>
  fc.oneof(
    hostileString(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(hostileString(), { maxLength: 3 }),
    fc.dictionary(hostileString(), hostileString(), { maxKeys: 3 }),
  );

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "application/x-www-form-urlencoded",
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "application/\u0000json",
  "",
];

interface Generated {
  endpoint: Endpoint;
  method: string;
  pathParts: string[];
  query: [string, string][];
  headers: Record<string, string>;
  body?: { type: string; payload: string };
}

function requestArb(endpoints: Endpoint[]): fc.Arbitrary<Generated> {
  return fc.constantFrom(...endpoints).chain((endpoint) =>
    fc.record({
      endpoint: fc.constant(endpoint),
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(endpoint.method) },
        { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD") },
      ),
      pathParts: fc.array(urlPart(), { minLength: endpoint.params.length, maxLength: endpoint.params.length }),
      query: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...endpoint.query, "x"), urlPart()), urlPart()), { maxLength: 6 }),
      headers: fc.dictionary(
        fc.constantFrom(
          "host",
          "x-forwarded-for",
          "x-forwarded-host",
          "authorization",
          "cookie",
          "accept-language",
          "x-request-id",
          "origin",
          "content-length",
        ),
        fc.oneof(
          fc.constantFrom(
            "evil.example",
            "Basic Og==",
            "Basic %%%",
            `Basic ${Buffer.from("a%00:b").toString("base64")}`,
            "Bearer \u00ff",
            "1.2.3.4, ::1",
            "ja;q=x",
            "-1",
            "99999999999",
            "null",
          ),
          fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
        ),
        { maxKeys: 3 },
      ),
      body: fc.option(
        fc.record({
          type: fc.constantFrom(...CONTENT_TYPES),
          payload: fc.oneof(
            fc
              .dictionary(fc.oneof(fc.constantFrom(...endpoint.body, "data"), hostileString()), jsonValue(), { maxKeys: 6 })
              .map((o) => JSON.stringify(o)),
            fc
              .array(fc.tuple(fc.oneof(fc.constantFrom(...endpoint.body, "grant_type"), urlPart()), urlPart()), { maxLength: 6 })
              .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join("&")),
            hostileString(),
            jsonValue().map((v) => JSON.stringify(v) ?? "null"),
          ),
        }),
        { nil: undefined },
      ),
    }),
  );
}

function toInject(request: Generated): InjectOptions {
  let i = 0;
  const path = request.endpoint.path.replace(/\{[^}]+\}/g, () => request.pathParts[i++] ?? "");
  const query = request.query.map(([k, v]) => `${k}=${v}`).join("&");
  const headers: Record<string, string> = { ...request.headers };
  if (request.body && request.body.type) headers["content-type"] = request.body.type;
  return {
    method: request.method as InjectOptions["method"],
    url: query ? `${path}?${query}` : path,
    headers,
    ...(request.body ? { payload: request.body.payload } : {}),
  };
}

/** Why `response` is not an acceptable answer to `request` (undefined when it is). */
/** An answer as far as the fuzz reads it. */
interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  bytes: Buffer;
  /** False when the answer was cut off (a stream, or an answer larger than what is read). */
  complete: boolean;
}

/** How much of an answer is read, and for how long: a stream (server-sent events) is cut off there. */
const READ_BYTES = 256 * 1024;
const READ_MS = 2_000;

/**
 * Injects the request and reads its answer from the headers on, so that a route answering with a stream that stays
 * open (server-sent events) is read for a while and then let go instead of holding the run up.
 */
async function send(app: FastifyInstance, options: InjectOptions): Promise<Answer> {
  const response = await app.inject({ ...options, payloadAsStream: true });
  const stream = response.stream();
  const chunks: Buffer[] = [];
  let size = 0;
  let complete = false;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      stream.destroy();
      done();
    }, READ_MS);
    stream.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= READ_BYTES) {
        stream.destroy();
        done();
      }
    });
    stream.on("end", () => {
      complete = true;
      done();
    });
    stream.on("error", done);
  });
  const bytes = Buffer.concat(chunks);
  return { statusCode: response.statusCode, headers: response.headers, body: bytes.toString("utf8"), bytes, complete };
}

function problemWith(endpoints: Endpoint[], request: Generated, response: Answer): string | undefined {
  const status = response.statusCode;
  const contentType = String(response.headers["content-type"] ?? "");
  let json: Record<string, unknown> | undefined;
  if (contentType.startsWith("application/json") && response.body && response.complete) {
    const problem = jsonAnswerProblem(response.bytes);
    if (problem) return `a JSON content type with a body that is not JSON every reader takes (${problem})`;
    json = JSON.parse(response.body);
  }
  if (status >= 500 && !(status === 503 && typeof json?.error === "string" && DOCUMENTED_5XX.has(json.error))) return `status ${status}`;
  if (status < 400 || request.method === "HEAD") return undefined;
  // A method the path does not take is a 405 of the API, whatever the path's own dialect.
  const routed =
    endpoints.some((e) => e.path === request.endpoint.path && e.method === request.method) ||
    (request.endpoint.dialect === "page" && request.method === "POST");
  const dialect = routed ? request.endpoint.dialect : "api";
  if (dialect === "page" && contentType.startsWith("text/html"))
    return /Sign-in error|role="alert"/.test(response.body) ? undefined : "an HTML error that is not an error page";
  if (!json) return `a ${status} without a JSON body (${contentType})`;
  if (typeof json.error !== "string" || !/^[a-z0-9_]+$/.test(json.error)) return "error is not a snake_case string";
  const detail = dialect === "oauth" ? "error_description" : "message";
  if (typeof json[detail] !== "string") {
    // oidc-provider's own endpoints answer in RFC 6749 form; our routes in {error, message}. Both are documented.
    const other = dialect === "oauth" ? "message" : "error_description";
    if (!(dialect !== "api" && typeof json[other] === "string")) return `no string ${detail}`;
  }
  return undefined;
}

/** Routes of the OpenAPI document, and oidc-provider's endpoints from discovery. */
async function endpointsOf(app: FastifyInstance): Promise<Endpoint[]> {
  const spec = (await app.inject({ url: "/openapi.json" })).json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string }[];
          requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
        }
      >
    >;
  };
  const endpoints: Endpoint[] = [];
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const params = operation.parameters ?? [];
      const schema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
      endpoints.push({
        method: method.toUpperCase(),
        path,
        params: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        query: params.filter((p) => p.in === "query").map((p) => p.name),
        body: Object.keys(schema?.properties ?? {}),
        dialect: path.startsWith("/api/token") || path === "/token" || path === "/register" ? "oauth" : "api",
      });
    }
  }
  const discovery = (await app.inject({ url: "/.well-known/openid-configuration" })).json() as Record<string, unknown>;
  const oidcQuery = [
    "client_id",
    "redirect_uri",
    "response_type",
    "scope",
    "state",
    "nonce",
    "code_challenge",
    "code_challenge_method",
    "prompt",
    "acr_values",
    "ui_locales",
    "claims",
    "request",
    "max_age",
    "id_token_hint",
    "access_token",
    "post_logout_redirect_uri",
    "logout_hint",
  ];
  const oidcBody = [
    "grant_type",
    "code",
    "redirect_uri",
    "client_id",
    "client_secret",
    "code_verifier",
    "refresh_token",
    "token",
    "token_type_hint",
    "scope",
    // registration (RFC 7591) and logout
    "redirect_uris",
    "post_logout_redirect_uris",
    "client_name",
    "token_endpoint_auth_method",
    "grant_types",
    "response_types",
    "subject_type",
    "id_token_hint",
    "post_logout_redirect_uri",
    "logout",
    "xsrf",
  ];
  const oidc: [string, string, Endpoint["dialect"]][] = [
    ["authorization_endpoint", "GET", "page"],
    ["token_endpoint", "POST", "oauth"],
    ["userinfo_endpoint", "GET", "oauth"],
    ["userinfo_endpoint", "POST", "oauth"],
    ["revocation_endpoint", "POST", "oauth"],
    ["introspection_endpoint", "POST", "oauth"],
    ["registration_endpoint", "POST", "oauth"],
    ["end_session_endpoint", "GET", "page"],
    ["end_session_endpoint", "POST", "page"],
    ["jwks_uri", "GET", "oauth"],
  ];
  for (const [key, method, dialect] of oidc) {
    if (typeof discovery[key] !== "string") throw new Error(`discovery names no ${key}`);
    const path = new URL(discovery[key] as string).pathname;
    if (!endpoints.some((e) => e.path === path && e.method === method))
      endpoints.push({ method, path, params: [], query: oidcQuery, body: oidcBody, dialect });
  }
  endpoints.push({ method: "GET", path: "/.well-known/openid-configuration", params: [], query: [], body: [], dialect: "oauth" });
  endpoints.push({ method: "GET", path: "/interaction/{uid}", params: ["uid"], query: [], body: [], dialect: "page" });
  return endpoints;
}

/**
 * What must not change: row count and checksum of every table, except the transient ones a valid request may add to
 * (sign-in messages, oidc-provider's interactions and sessions of /authorize, and the rate limits' counts).
 */
export async function storedState(db: Queryable): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const state: Record<string, string> = {};
  for (const { table_name: table } of tables) {
    if (table === "login_challenges" || table === "request_windows") continue;
    const where = table === "oidc_payloads" ? "WHERE kind NOT IN ('Interaction', 'Session')" : "";
    const { rows } = await db.query<{ n: string; sum: string | null }>(
      `SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS sum FROM "${table}" t ${where}`,
    );
    state[table] = `${rows[0].n} rows, ${rows[0].sum ?? "-"}`;
  }
  return state;
}

export interface FuzzTarget {
  t: TestApp;
  /** An indexed token and an account, each with a statement of the seed's issuer (the bystander of hostile posts). */
  statements: StatementTargets;
  close(): Promise<void>;
}

/**
 * The service over a real node and database, with something stored in every table the fuzz must not change: a
 * client, a completed login (grant, code, tokens), signed metadata statements and an index of minted tokens.
 */
export async function startFuzzTarget(): Promise<FuzzTarget> {
  const node = await sharedNode();
  const provider = providerFor(node.url);
  const deployer = await provider.getSigner(0);
  const nft = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
  await (await nft.mintRange(await deployer.getAddress(), 1, 3)).wait();
  const t = await startLoginApp(node.url, {
    env: {
      LOGIN_RATE_LIMIT: "1000000",
      DATA_RATE_LIMIT: "1000000",
      CONVERTER_RATE_LIMIT: "1000000",
      METADATA_POST_RATE_LIMIT: "1000000",
      INDEXER_POLL_MS: "200",
      SPAM_CLASSIFY_INTERVAL_MS: "50",
      INDEXER_CONTRACTS_LOCALHOST: await nft.getAddress(),
      // On, behind a token the fuzz does not know: what an attacker reaches.
      LOGIN_REGISTRATION_ACCESS_TOKEN: randomBytes(24).toString("hex"),
    },
  });
  let statements: StatementTargets;
  try {
    await indexedTo(t.app.db, "localhost", provider);
    // The spam classifier writes a verdict per indexed collection in the background: made before the fuzz starts,
    // so that the fuzz's check that nothing stored changed sees only what requests did.
    await pollUntil("every indexed collection classified", async () => {
      const { rows } = await t.app.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM nft_contract_summaries s
         LEFT JOIN nft_spam_flags f ON f.network_id = s.network_id AND f.contract = s.contract
         WHERE f.contract IS NULL OR f.classified_transfers <> s.transfers`,
      );
      return rows[0].n === "0";
    });
    const client = await registerClient(t);
    const user = Wallet.createRandom();
    const query = new URLSearchParams({
      client_id: client.id,
      redirect_uri: client.redirectUri,
      response_type: "code",
      scope: "openid offline_access",
      address: user.address,
    });
    const { message } = (await t.app.inject({ url: `/api/authorize?${query}` })).json();
    const { code } = (
      await t.app.inject({
        method: "POST",
        url: "/api/login",
        payload: { address: user.address, signature: await user.signMessage(message), client_id: client.id },
      })
    ).json();
    const tokens = await t.app.inject({
      method: "POST",
      url: "/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: client.redirectUri,
        client_id: client.id,
        client_secret: client.secret!,
      }).toString(),
    });
    if (tokens.statusCode !== 200) throw new Error(`seed login failed: ${tokens.body}`);
    const contract = (await nft.getAddress()).toLowerCase();
    const account = Wallet.createRandom().address.toLowerCase();
    statements = { network: "localhost", contract, id: 1n, owner: await deployer.getAddress(), account, issuers: [user.address] };
    const targets: Target[] = [
      { kind: "nft", network: "localhost", contract, tokenId: 1n },
      { kind: "account", network: "localhost", account },
    ];
    for (const target of targets) {
      const metadata = encodeMetadata({ name: "Seed" });
      const posted = await t.app.inject({
        method: "POST",
        url: metadataPath(target),
        payload: { iss: user.address, sig: await user.signMessage(boundText(target, metadata)), metadata },
      });
      if (posted.statusCode !== 200) throw new Error(`seed metadata failed: ${posted.body}`);
    }
  } catch (error) {
    await t.close();
    throw error;
  } finally {
    provider.destroy();
  }
  return { t, statements, close: () => t.close() };
}

const metadataPath = (target: Target) =>
  target.kind === "nft"
    ? `/metadata/${target.network}/${target.contract}/${target.tokenId}`
    : `/metadata/ethereum/${target.network}/${target.account}`;

/** Runs `runs` generated requests against `app`; throws (with the seed and the shrunk request) on the first bad answer. */
export async function fuzz(app: FastifyInstance, db: Queryable, options: FuzzOptions): Promise<FuzzResult> {
  const endpoints = await endpointsOf(app);
  const before = await storedState(db);
  const result: FuzzResult = { requests: 0, unsendable: 0, endpoints: endpoints.length, statuses: {} };
  await fc.assert(
    fc.asyncProperty(requestArb(endpoints), async (request) => {
      let response: Answer;
      const options = toInject(request);
      try {
        response = await send(app, options);
      } catch {
        result.unsendable++;
        return;
      }
      result.requests++;
      result.statuses[response.statusCode] = (result.statuses[response.statusCode] ?? 0) + 1;
      const problem = problemWith(endpoints, request, response);
      if (problem) {
        const line = `${problem}: ${JSON.stringify({ method: options.method, url: options.url, headers: options.headers, payload: options.payload })} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
        throw new Error(line);
      }
    }),
    { seed: options.seed, numRuns: options.runs, endOnFailure: false, verbose: 0 },
  );
  const after = await storedState(db);
  for (const table of Object.keys(before)) {
    if (before[table] !== after[table]) throw new Error(`the fuzz changed ${table}: ${before[table]} -> ${after[table]}`);
  }
  return result;
}

/** Byte sequences that are not UTF-8: overlong forms, surrogates, code points past U+10FFFF, stray and cut-off bytes. */
const NOT_UTF8 = [
  [0xc0, 0xaf],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0xaf],
  [0xf0, 0x80, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xfe],
  [0xff],
  [0x80],
  [0xe2, 0x82],
];
const BOM = [0xef, 0xbb, 0xbf];

/** A piece of a body: text (written as UTF-8) or raw bytes. */
type Piece = string | number[];

/** JSON string tokens, quotes included: escapes of every kind, raw text of any code point, bytes that are not UTF-8. */
const stringToken = (): fc.Arbitrary<Piece[]> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .constantFrom(
          '"a"',
          '"\\u0061"',
          '"\\ud800"',
          '"x\\udc00"',
          '"\\ud83d\\ude00"',
          '"\\ude00\\ud83d"',
          '"\\u0000"',
          '"\\u001b"',
          '"\\u007f"',
          '"\\u0085"',
          '"\\u2028\\u2029"',
          '"\u2028\u2029"',
          '"\ufeff"',
          '"\\ufeff"',
          '"\ufffe\uffff"',
          '"😀"',
          '"\\t\\n\\r"',
        )
        .map((token) => [token]),
    },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }).map((text) => [JSON.stringify(text)]) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }).map((text) => [`"${text}"`]) },
    { weight: 1, arbitrary: fc.constantFrom(...NOT_UTF8).map((bytes): Piece[] => ['"x', bytes, 'y"']) },
  );

/** JSON number tokens, from tiny to past a double's range, and integers of up to 400 digits. */
const numberToken = (): fc.Arbitrary<Piece[]> =>
  fc
    .oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          "-0",
          "1e309",
          "-1E400",
          "1e-400",
          "1.7976931348623157e308",
          "1.7976931348623159e308",
          "12345678901234567890",
        ),
      },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 400 }).map((digits) => `9${"0".repeat(digits - 1)}`) },
      { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String) },
    )
    .map((token) => [token]);

/** Arrays nested around a value, shallow or about as deep as the rule allows (32 levels, the object's included). */
const nestedValue = (): fc.Arbitrary<Piece[]> =>
  fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 29, max: 40 })).map((depth) => ["[".repeat(depth), "1", "]".repeat(depth)]);

const valueToken = (): fc.Arbitrary<Piece[]> =>
  fc.oneof(
    { weight: 4, arbitrary: stringToken() },
    { weight: 2, arbitrary: numberToken() },
    { weight: 2, arbitrary: nestedValue() },
    { weight: 1, arbitrary: fc.constantFrom<Piece[]>(["true"], ["null"], ["{}"], ['{"a":1,"a":2}']) },
  );

/** Members of an ordinary object (`"key":value`, keys distinct, printable ASCII): what most bodies are made of. */
const ordinaryMembers = (): fc.Arbitrary<Piece[][]> =>
  fc
    .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
    .map((object) => Object.entries(object).map(([key, value]) => [`${JSON.stringify(key)}:${JSON.stringify(value)}`]));

/** A member with something hostile in it: its value, its key, or a key twice (also spelled with an escape). */
const hostileMember = (): fc.Arbitrary<Piece[]> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.nat(), valueToken()).map(([n, value]): Piece[] => [`"hostile ${n}":`, ...value]) },
    { weight: 2, arbitrary: stringToken().map((key): Piece[] => [...key, ":1"]) },
    { weight: 1, arbitrary: fc.constantFrom<Piece[]>(['"d":1,"d":2'], ['"d":1,"\\u0064":1']) },
  );

/**
 * Metadata bodies an attacker signs: an ordinary object with up to two hostile members (hostile strings, keys,
 * numbers, nesting, repeated keys); now and then a byte-order mark, whitespace or garbage before or after it, a
 * byte-order mark or a sequence that is not UTF-8 spliced in anywhere, or instead another top-level value, random
 * bytes, or a body over SIGNED_METADATA_MAX_BYTES (64 KiB). Most bodies break one rule at most, so each rule is met alone.
 */
function metadataBody(): fc.Arbitrary<Buffer> {
  const bytes = (pieces: Piece[]) => Buffer.concat(pieces.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));
  const object = fc.tuple(ordinaryMembers(), fc.array(hostileMember(), { maxLength: 2 }), fc.nat()).map(([members, hostile, at]) => {
    const all = [...members];
    all.splice(at % (all.length + 1), 0, ...hostile);
    return ["{", ...all.flatMap((member, i) => (i > 0 ? [",", ...member] : member)), "}"];
  });
  return fc
    .record({
      before: fc.oneof(
        { weight: 12, arbitrary: fc.constant<Piece[]>([]) },
        { weight: 2, arbitrary: fc.constant<Piece[]>([BOM]) },
        { weight: 2, arbitrary: fc.constantFrom<Piece[]>([BOM, BOM], [" \r\n\t"], [[0xef, 0xbb]], ["x"], [[0]]) },
      ),
      core: fc.oneof(
        { weight: 20, arbitrary: object },
        { weight: 1, arbitrary: valueToken() },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((random) => [[...random]]) },
        { weight: 1, arbitrary: fc.constant<Piece[]>([`{"blob":"${"x".repeat(70 * 1024)}"}`]) },
      ),
      after: fc.oneof(
        { weight: 12, arbitrary: fc.constant<Piece[]>([]) },
        { weight: 3, arbitrary: fc.constantFrom<Piece[]>(["\n"], [BOM], ["x"], ["{}"], [[0]]) },
        { weight: 1, arbitrary: fc.constantFrom(...NOT_UTF8).map((b): Piece[] => [b]) },
      ),
      splice: fc.oneof(
        { weight: 12, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.tuple(fc.nat(), fc.constantFrom(BOM, ...NOT_UTF8)) },
      ),
    })
    .map(({ before, core, after, splice }) => {
      const body = bytes([...before, ...core, ...after]);
      if (!splice) return body;
      const at = splice[0] % (body.length + 1);
      return Buffer.concat([body.subarray(0, at), Buffer.from(splice[1]), body.subarray(at)]);
    });
}

export interface BodiesResult {
  posts: number;
  accepted: number;
  /** Refusals by error code and message (positions left out), with how many there were of each. */
  refused: Record<string, number>;
}

/**
 * Posts generated hostile metadata bodies about the target's token and account, each validly signed over the
 * target's text by one of a few EOA issuers (so it passes the signature check and reaches the rules and storage).
 * Each post must be accepted ("ok", and then served byte for byte) or refused with a documented 4xx; after each,
 * every read that embeds statements must answer JSON every reader takes, the bystander's included. Nothing but the
 * statements (and the token's cached tokenURI metadata) may change.
 */
export async function fuzzMetadataBodies(target: FuzzTarget, options: FuzzOptions): Promise<BodiesResult> {
  const { app } = target.t;
  const { statements } = target;
  const { db } = app;
  const issuers = [0, 1, 2].map((i) => new Wallet(id(`fuzz issuer ${options.seed} ${i}`)));
  const targets: Target[] = [
    { kind: "nft", network: statements.network, contract: statements.contract, tokenId: statements.id },
    { kind: "account", network: statements.network, account: statements.account },
  ];
  // The statements change, and the token route's reads cache the token's tokenURI metadata; nothing else may.
  const unchanged = async () => {
    const { metadata_posts: _, token_metadata: __, ...state } = await storedState(db);
    return state;
  };
  const before = await unchanged();
  const result: BodiesResult = { posts: 0, accepted: 0, refused: {} };
  const get = async (path: string) => {
    const answer = await send(app, { url: path });
    return { status: answer.statusCode, contentType: String(answer.headers["content-type"] ?? ""), bytes: answer.bytes };
  };
  await fc.assert(
    fc.asyncProperty(metadataBody(), fc.nat(issuers.length - 1), fc.nat(targets.length - 1), async (body, who, which) => {
      const issuer = issuers[who];
      const about = targets[which];
      const metadata = body.toString("base64");
      const posted = await send(app, {
        method: "POST",
        url: metadataPath(about),
        payload: { iss: issuer.address, sig: await issuer.signMessage(boundText(about, metadata)), metadata },
      });
      result.posts++;
      const describe = () =>
        `${metadataPath(about)} with ${JSON.stringify(metadata.slice(0, 200))} -> ${posted.statusCode} ${posted.body.slice(0, 200)}`;
      const notJson = jsonAnswerProblem(posted.bytes);
      if (notJson) throw new Error(`an answer that is ${notJson}: ${describe()}`);
      const answer = JSON.parse(posted.body) as { error?: string; message?: string } | string;
      if (posted.statusCode === 200) {
        if (answer !== "ok") throw new Error(`a 200 that is not "ok": ${describe()}`);
        result.accepted++;
        const served = await get(`${metadataPath(about)}?iss=${issuer.address}`);
        if (!served.bytes.equals(body)) throw new Error(`accepted, but not served byte for byte: ${describe()}`);
      } else {
        // An empty body is an empty `metadata`, which is missing (400 invalid_request, as for any missing field).
        const invalid = body.length === 0 ? "invalid_request" : "invalid_metadata";
        const documented = { 400: invalid, 409: "replayed", 413: "payload_too_large" }[posted.statusCode];
        if (typeof answer !== "object" || answer.error !== documented || typeof answer.message !== "string")
          throw new Error(`not a documented refusal: ${describe()}`);
        const kind = `${answer.error}: ${answer.message.replace(/, at character \d+$/, "")}`;
        result.refused[kind] = (result.refused[kind] ?? 0) + 1;
      }
      const unreadable = await unreadableAnswers(
        statementReadPaths({ ...statements, issuers: [...statements.issuers, issuer.address] }),
        get,
      );
      if (unreadable.length > 0) throw new Error(`after ${describe()}: ${unreadable.join("; ")}`);
    }),
    { seed: options.seed, numRuns: options.runs, endOnFailure: true, verbose: 0 },
  );
  const after = await unchanged();
  for (const table of Object.keys(before)) {
    if (before[table] !== after[table]) throw new Error(`posting metadata changed ${table}: ${before[table]} -> ${after[table]}`);
  }
  return result;
}

export interface StreamsResult {
  /** Event-stream requests sent. */
  requests: number;
  /** Of them, answered with a stream (then read, or read a little and left stalled). */
  streams: number;
  /** Streams whose client read a few bytes, stalled, and went away. */
  stalled: number;
  /** Refusals by status and error code, with how many there were of each. */
  refused: Record<string, number>;
}

/**
 * Last-Event-ID values an attacker resumes with: negative, past 2^63 − 1 and 2^64, zero-padded, signed, in other
 * scripts' digits, not numbers at all, controls and bidi, very long.
 */
function lastEventId(): fc.Arbitrary<string> {
  return fc.oneof(
    // Ids the service could have given, so that streams are met too.
    { weight: 3, arbitrary: fc.oneof(fc.nat({ max: 10 }), fc.bigInt({ min: 0n, max: 2n ** 63n - 1n })).map(String) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "-1",
        "-0",
        "+1",
        " 1",
        "1 ",
        "01",
        "00000000000000000001",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "1e3",
        "0x10",
        "1.5",
        "NaN",
        "Infinity",
        "١٢٣",
        "１２３",
        "\u202e1",
        "1\u200b",
        "\ufeff1",
        "😀",
        "",
      ),
    },
    { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 8_000 }).map((n) => "9".repeat(n)) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
    { weight: 2, arbitrary: hostileString() },
  );
}

/**
 * The live event stream over real sockets (`GET /events/{network}` of a listening instance on the target's database),
 * resumed with generated Last-Event-ID values: one header or many, or the `lastEventId` query, over a filter or none;
 * the client reads the answer, or reads a few bytes of it, stalls and goes away. Each answer must be a 4xx
 * `{error, message}` or a 200 event stream beginning as the service begins streams, never a 5xx; afterwards the
 * instance still answers and holds no socket open.
 */
export async function fuzzEventStreams(target: FuzzTarget, options: FuzzOptions): Promise<StreamsResult> {
  const node = await sharedNode();
  const reader = await startTestApp({
    listen: true,
    database: target.t.database,
    // The rate limits count once for all instances: the target's requests of the same minute count against this one.
    env: { RPC_URL_LOCALHOST: node.url, INDEXER: "false", EVENTS_STALL_MS: "200", DATA_RATE_LIMIT: "1000000" },
  });
  const result: StreamsResult = { requests: 0, streams: 0, stalled: 0, refused: {} };
  const headerEnd = (bytes: Buffer) => bytes.indexOf("\r\n\r\n");
  /** Read: the whole error body (its length is given), or a stream up to its first comment. */
  const complete = (bytes: Buffer) => {
    const end = headerEnd(bytes);
    if (end < 0) return false;
    const answer = parseRawAnswer(bytes);
    return answer.length !== undefined ? answer.complete : answer.body.includes(": connected\n");
  };
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          values: fc.oneof(
            { weight: 4, arbitrary: fc.array(lastEventId(), { minLength: 1, maxLength: 1 }) },
            {
              weight: 1,
              arbitrary: fc.array(lastEventId(), { minLength: 2, maxLength: 200 }),
            },
          ),
          byQuery: fc.boolean(),
          owner: fc.boolean(),
          stallAfter: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
        }),
        async ({ values, byQuery, owner, stallAfter }) => {
          const query = [
            ...(owner ? [`owner=${target.statements.owner}`] : []),
            ...(byQuery ? values.map((v) => `lastEventId=${percentEncode(v)}`) : []),
          ].join("&");
          const path = `/events/${target.statements.network}${query ? `?${query}` : ""}`;
          const headers: Array<[string, Buffer]> = byQuery ? [] : values.map((v) => ["Last-Event-ID", Buffer.from(v, "utf8")]);
          const client = await rawRequest(reader.url, path, headers);
          const describe = (what: string, bytes: Buffer) =>
            `${what}: ${path} with ${JSON.stringify(values.map((v) => v.slice(0, 40)).slice(0, 5))} (${values.length}) -> ${bytes.subarray(0, 300).toString("latin1")}`;
          try {
            result.requests++;
            const bytes = await client.readUntil((b) => (stallAfter !== undefined && b.length >= stallAfter) || complete(b), 5_000);
            const end = headerEnd(bytes);
            if (end < 0 && stallAfter !== undefined && bytes.length >= stallAfter) {
              if (/^HTTP\/1\.1 5/.test(bytes.toString("latin1"))) throw new Error(describe("a 5xx", bytes));
              // Stalled inside the headers: the stream goes on without the client reading, until it goes.
              await new Promise((resolve) => setTimeout(resolve, 300));
              result.stalled++;
              return;
            }
            const answer = parseRawAnswer(bytes);
            if (Number.isNaN(answer.status)) throw new Error(describe("no HTTP answer", bytes));
            if (answer.status === 200) {
              if (!/\r\ncontent-type: text\/event-stream/i.test(answer.headers))
                throw new Error(describe("a 200 that is not a stream", bytes));
              result.streams++;
              if (stallAfter !== undefined) {
                await new Promise((resolve) => setTimeout(resolve, 300));
                result.stalled++;
              } else if (!answer.body.includes("retry: 2000\n")) {
                throw new Error(describe("a stream that does not begin as streams begin", bytes));
              }
              return;
            }
            if (answer.status < 400 || answer.status >= 500) throw new Error(describe(`status ${answer.status}`, bytes));
            if (stallAfter !== undefined && !complete(bytes)) {
              result.refused[answer.status] = (result.refused[answer.status] ?? 0) + 1;
              return;
            }
            const problem = jsonAnswerProblem(answer.body);
            if (problem) throw new Error(describe(`a refusal that is not JSON (${problem})`, bytes));
            const json = JSON.parse(answer.body.toString("utf8")) as { error?: unknown; message?: unknown };
            if (typeof json.error !== "string" || !/^[a-z0-9_]+$/.test(json.error) || typeof json.message !== "string")
              throw new Error(describe("a refusal not in {error, message}", bytes));
            const kind = `${answer.status} ${json.error}`;
            result.refused[kind] = (result.refused[kind] ?? 0) + 1;
          } finally {
            client.destroy();
          }
        },
      ),
      { seed: options.seed, numRuns: options.runs, endOnFailure: true, verbose: 0 },
    );
    // Still up, and every stream let go: the stalled ones by the client or by the server.
    const health = await reader.fetch("/health");
    if (health.status !== 200) throw new Error(`after the event streams /health answers ${health.status}`);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const open = await new Promise<number>((resolve, reject) =>
        reader.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
      );
      // The /health fetch may keep its connection alive.
      if (open <= 1) break;
      if (Date.now() > deadline) throw new Error(`after the event streams ${open} connections are still open`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await reader.close();
  }
  return result;
}
