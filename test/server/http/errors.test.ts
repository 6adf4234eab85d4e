import { expect } from "chai";
import { Type } from "typebox";
import { rpc } from "../../../server/chain/networks";
import { HttpError } from "../../../server/http/http-error";
import { STATUS_OF_KIND } from "../../../server/http/errors";
import { DomainError, type ErrorKind } from "../../../server/lib/domain-error";
import { startTestApp, type TestApp } from "../../helpers/app";
import { startHangingServer, type HangingServer } from "../../helpers/hanging-server";
import { expectRefusal } from "../../helpers/refusal";

describe("error answers ({error, message} with the right status)", function () {
  let t: TestApp;
  let hanging: HangingServer;

  before(async function () {
    hanging = await startHangingServer();
    // sepolia's node refuses connections, holesky's never answers.
    const nodes = { RPC_URL_SEPOLIA: "http://127.0.0.1:1", RPC_URL_HOLESKY: hanging.url };
    t = await startTestApp({
      env: { BODY_LIMIT: "2048", ...nodes, RPC_TIMEOUT_MS: "300", INDEXER: "false" },
      configure(app) {
        app.post(
          "/test/echo",
          { schema: { body: Type.Object({ name: Type.String({ maxLength: 10 }) }) } },
          async (request) => request.body,
        );
        app.post(
          "/test/three",
          {
            schema: {
              body: Type.Object({ a: Type.String(), b: Type.Optional(Type.String()), c: Type.String(), d: Type.Array(Type.String()) }),
              querystring: Type.Object({ x: Type.String(), y: Type.String() }),
            },
          },
          async (request) => request.body,
        );
        app.route({ method: ["PUT", "DELETE"], url: "/test/item/:id", handler: async () => ({}) });
        // A route that matched but has nothing at the path.
        app.get("/test/empty/:id", async (_request, reply) => reply.callNotFound());
        app.get("/test/boom", async () => {
          throw new Error("secret internal detail at /srv/app.ts:42");
        });
        app.get("/test/teapot", async () => {
          throw new HttpError(409, "replayed", "That body was superseded", { "retry-after": "1" });
        });
        // A NUL that reached the database some way the input guard does not see.
        app.get("/test/nul-in-sql", async () => app.db.query("SELECT $1::text AS t", ["a\u0000b"]));
        app.get<{ Params: { kind: ErrorKind } }>("/test/domain/:kind", async (request) => {
          throw new DomainError(
            request.params.kind,
            `some_${request.params.kind}`,
            `A ${request.params.kind} refusal`,
            request.params.kind === "too_many" ? 60 : undefined,
          );
        });
        app.get<{ Params: { network: string } }>("/test/node/:network", async (request) => {
          const { network } = request.params;
          return rpc(network, app.networks.provider(network).getBlockNumber());
        });
        // What the chain layer would have let through untranslated: an ethers-style error, code and all.
        app.get("/test/raw-node-error", async () => {
          throw Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:8545"), { code: "ECONNREFUSED" });
        });
      },
    });
  });
  after(async () => {
    await t?.close();
    await hanging?.close();
  });

  async function call(path: string, init: RequestInit = {}) {
    const response = await t.fetch(path, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
  }
  const json = (body: string, contentType = "application/json") => ({ method: "POST", headers: { "content-type": contentType }, body });

  it("an unknown route is a 404 naming it and pointing to /docs", async function () {
    const r = await call("/no/such/route?x=1");
    await expectRefusal(r, 404, "not_found", { message: "Route GET /no/such/route not found; the API is described at /docs" });
    const post = await call("/no/such/route", json("{}"));
    await expectRefusal(post, 404, "not_found", { message: "Route POST /no/such/route not found; the API is described at /docs" });
    expect(post.headers.get("allow")).to.equal(null);
    const empty = await call("/test/empty/1");
    await expectRefusal(empty, 404, "not_found", { message: "Route GET /test/empty/1 not found; the API is described at /docs" });
  });

  it("a known path with a method it does not have is a 405 whose Allow lists the path's methods", async function () {
    const login = await call("/api/login?x=1");
    await expectRefusal(login, 405, "method_not_allowed", { message: "/api/login takes POST, not GET", headers: { allow: "POST" } });
    // Fastify answers HEAD wherever it answers GET.
    const health = await call("/health", json("{}"));
    await expectRefusal(health, 405, "method_not_allowed", {
      message: "/health takes GET or HEAD, not POST",
      headers: { allow: "GET, HEAD" },
    });
    // A plugin's root route, served at its prefix with and without a trailing slash.
    for (const path of ["/docs", "/docs/"]) {
      const docs = await call(path, json("{}"));
      await expectRefusal(docs, 405, "method_not_allowed", {
        message: `${path} takes GET or HEAD, not POST`,
        headers: { allow: "GET, HEAD" },
      });
    }
    // A path with parameters, matched as the router matches it.
    const item = await call("/test/item/7", { method: "PATCH" });
    await expectRefusal(item, 405, "method_not_allowed", {
      message: "/test/item/7 takes PUT or DELETE, not PATCH",
      headers: { allow: "PUT, DELETE" },
    });
    const head = await t.app.inject({ method: "HEAD", url: "/api/login" });
    expect(head.statusCode).to.equal(405); // not a refusal of the service with a body: a HEAD answer carries none
    expect(head.headers.allow).to.equal("POST");
  });

  it("CORS preflights are answered on every path as before, the 405's paths included", async function () {
    for (const path of ["/api/login", "/health", "/no/such/route"]) {
      const r = await t.fetch(path, {
        method: "OPTIONS",
        headers: { origin: "https://dapp.example", "access-control-request-method": "POST" },
      });
      expect(r.status, path).to.equal(204);
      expect(r.headers.get("access-control-allow-origin"), path).to.equal("*");
    }
  });

  it("a page of another origin may read the headers of paging, the index and retries", async function () {
    const r = await t.fetch("/health", { headers: { origin: "https://dapp.example" } });
    expect(r.headers.get("access-control-allow-origin")).to.equal("*");
    const exposed = r.headers
      .get("access-control-expose-headers")!
      .split(/,\s*/)
      .map((name) => name.toLowerCase());
    expect(exposed).to.include.members(["link", "retry-after", "x-request-id", "x-indexed-block", "x-snapshot-block", "x-index-complete"]);
  });

  it("text the database refuses to store (NUL) is a 400 invalid_request, not a 500", async function () {
    const r = await call("/test/nul-in-sql");
    await expectRefusal(r, 400, "invalid_request", { message: "A field holds characters that cannot be stored (e.g. NUL)" });
  });

  it("a domain error answers its code and message with the status of its kind, and Retry-After on every 429 and 503", async function () {
    const expected: Record<ErrorKind, number> = {
      invalid: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      too_large: 413,
      too_many: 429,
      unavailable: 503,
      upstream: 502,
      upstream_timeout: 504,
    };
    expect(STATUS_OF_KIND).to.deep.equal(expected);
    for (const [kind, status] of Object.entries(expected)) {
      const r = await call(`/test/domain/${kind}`);
      await expectRefusal(r, status, `some_${kind}`, { label: kind, message: `A ${kind} refusal` });
      // Its own time when it has one; a 503 whose cause gives none is told to come back after 1 s.
      expect(r.headers.get("retry-after"), kind).to.equal(kind === "too_many" ? "60" : kind === "unavailable" ? "1" : null);
    }
  });

  it("malformed JSON is a 400 malformed_json", async function () {
    const r = await call("/test/echo", json('{"name": '));
    await expectRefusal(r, 400, "malformed_json");
  });

  it("an empty JSON body is a 400 malformed_json", async function () {
    const r = await call("/test/echo", json(""));
    await expectRefusal(r, 400, "malformed_json");
  });

  it("a body that fails the schema is a 400 invalid_request naming the field", async function () {
    const r = await call("/test/echo", json('{"name": 12345678901234}'));
    await expectRefusal(r, 400, "invalid_request", { message: "body/name must NOT have more than 10 characters" });
  });

  it("a wrong content type is a 415 naming the types the route takes", async function () {
    for (const type of ["text/plain", "application/xml", "application/x-www-form-urlencoded"]) {
      const r = await call("/test/echo", json('{"name":"a"}', `${type}; charset=utf-8`));
      await expectRefusal(r, 415, "unsupported_media_type", {
        label: type,
        message: `Content-Type ${type} is not accepted here; send application/json`,
      });
    }
    // The login routes take forms as well (the predecessor's clients).
    const login = await call("/api/login", json("a=b", "text/plain"));
    await expectRefusal(login, 415, "unsupported_media_type", {
      message: "Content-Type text/plain is not accepted here; send application/json or application/x-www-form-urlencoded",
    });
  });

  it("a body missing several required properties names them all, in the schema's order", async function () {
    const none = await call("/test/three?x=1&y=2", json("{}"));
    await expectRefusal(none, 400, "invalid_request", { message: 'body must have the properties "a", "c", "d"' });
    const login = await call("/api/login", json("{}"));
    await expectRefusal(login, 400, "invalid_request", { message: 'body must have the properties "address", "signature", "client_id"' });
    const one = await call("/test/three?x=1&y=2", json('{"a":"1","d":[]}'));
    await expectRefusal(one, 400, "invalid_request", { message: 'body must have the property "c"' });
    const query = await call("/test/three", json('{"a":"1","c":"2","d":[]}'));
    await expectRefusal(query, 400, "invalid_request", { message: 'querystring must have the properties "x", "y"' });
    // A deeper error is Ajv's first, as before.
    const deep = await call("/test/three?x=1&y=2", json('{"a":"1","c":"2","d":[{}]}'));
    await expectRefusal(deep, 400, "invalid_request", { message: "body/d/0 must be string" });
  });

  it("a body over the limit is a 413", async function () {
    const r = await call("/test/echo", json(JSON.stringify({ name: "x".repeat(4096) })));
    await expectRefusal(r, 413, "payload_too_large");
  });

  it("our own fault is a bare 500: no message, no stack", async function () {
    const r = await call("/test/boom");
    await expectRefusal(r, 500, "internal_error", { message: "Internal server error" });
    expect(r.text).not.to.match(/secret|srv|\.ts|stack/);
  });

  it("an HttpError keeps its status, code, message and headers", async function () {
    const r = await call("/test/teapot");
    await expectRefusal(r, 409, "replayed", { message: "That body was superseded" });
    expect(r.headers.get("retry-after")).to.equal("1");
  });

  it("a node failure inside a route is a 502 or a 504 through the chain's errors, without the node's address", async function () {
    const down = await call("/test/node/sepolia");
    await expectRefusal(down, 502, "upstream_error", { message: "The sepolia node failed to answer" });
    expect(down.text).not.to.contain("127.0.0.1");
    const slow = await call("/test/node/holesky");
    await expectRefusal(slow, 504, "upstream_timeout", { message: "The holesky node did not answer in time" });
  });

  it("the HTTP layer reads no ethers error codes: a node error the chain layer did not translate is our fault, a bare 500", async function () {
    const r = await call("/test/raw-node-error");
    await expectRefusal(r, 500, "internal_error", { message: "Internal server error" });
    expect(r.text).not.to.contain("10.0.0.1");
  });

  it("every answer carries a request id; a sane one sent by the client is kept", async function () {
    const fresh = await call("/test/boom");
    expect(fresh.headers.get("x-request-id")).to.match(/^[0-9a-f-]{36}$/);
    const kept = await call("/nope", { headers: { "x-request-id": "trace-123.abc" } });
    expect(kept.headers.get("x-request-id")).to.equal("trace-123.abc");
    const replaced = await call("/nope", { headers: { "x-request-id": "bad id with spaces <script>" } });
    expect(replaced.headers.get("x-request-id")).to.match(/^[0-9a-f-]{36}$/);
  });
});
