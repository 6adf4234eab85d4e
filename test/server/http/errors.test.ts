import { expect } from "chai";
import { Type } from "typebox";
import { HttpError } from "../../../server/http/http-error";
import { startTestApp, type TestApp } from "../../helpers/app";

describe("error answers ({error, message} with the right status)", function () {
  let t: TestApp;

  before(async function () {
    t = await startTestApp({
      env: { BODY_LIMIT: "2048" },
      configure(app) {
        app.post("/test/echo", { schema: { body: Type.Object({ name: Type.String({ maxLength: 10 }) }) } }, async (request) => request.body);
        app.get("/test/boom", async () => {
          throw new Error("secret internal detail at /srv/app.ts:42");
        });
        app.get("/test/teapot", async () => {
          throw new HttpError(409, "replayed", "That body was superseded", { "retry-after": "1" });
        });
        // A NUL that reached the database some way the input guard does not see.
        app.get("/test/nul-in-sql", async () => app.db.query("SELECT $1::text AS t", ["a\u0000b"]));
        app.get("/test/node-down", async () => {
          throw Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:8545"), { code: "ECONNREFUSED" });
        });
      },
    });
  });
  after(async () => t?.close());

  async function call(path: string, init: RequestInit = {}) {
    const response = await fetch(`${t.url}${path}`, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
  }
  const json = (body: string, contentType = "application/json") => ({ method: "POST", headers: { "content-type": contentType }, body });

  it("an unknown route is a 404 naming it", async function () {
    const r = await call("/no/such/route?x=1");
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ error: "not_found", message: "Route GET /no/such/route not found" });
  });

  it("text the database refuses to store (NUL) is a 400 invalid_request, not a 500", async function () {
    const r = await call("/test/nul-in-sql");
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ error: "invalid_request", message: "A field holds characters that cannot be stored (e.g. NUL)" });
  });

  it("malformed JSON is a 400 malformed_json", async function () {
    const r = await call("/test/echo", json('{"name": '));
    expect(r.status).to.equal(400);
    expect(r.body.error).to.equal("malformed_json");
  });

  it("an empty JSON body is a 400 malformed_json", async function () {
    const r = await call("/test/echo", json(""));
    expect(r.status).to.equal(400);
    expect(r.body.error).to.equal("malformed_json");
  });

  it("a body that fails the schema is a 400 invalid_request naming the field", async function () {
    const r = await call("/test/echo", json('{"name": 12345678901234}'));
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ error: "invalid_request", message: "body/name must NOT have more than 10 characters" });
  });

  it("a wrong content type is a 415", async function () {
    for (const type of ["text/plain", "application/xml", "application/x-www-form-urlencoded"]) {
      const r = await call("/test/echo", json('{"name":"a"}', type));
      expect(r.status, type).to.equal(415);
      expect(r.body.error).to.equal("unsupported_media_type");
    }
  });

  it("a body over the limit is a 413", async function () {
    const r = await call("/test/echo", json(JSON.stringify({ name: "x".repeat(4096) })));
    expect(r.status).to.equal(413);
    expect(r.body.error).to.equal("payload_too_large");
  });

  it("our own fault is a bare 500: no message, no stack", async function () {
    const r = await call("/test/boom");
    expect(r.status).to.equal(500);
    expect(r.body).to.deep.equal({ error: "internal_error", message: "Internal server error" });
    expect(r.text).not.to.match(/secret|srv|\.ts|stack/);
  });

  it("an HttpError keeps its status, code, message and headers", async function () {
    const r = await call("/test/teapot");
    expect(r.status).to.equal(409);
    expect(r.body).to.deep.equal({ error: "replayed", message: "That body was superseded" });
    expect(r.headers.get("retry-after")).to.equal("1");
  });

  it("a node failure that escaped a route is a 502, without the node's address", async function () {
    const r = await call("/test/node-down");
    expect(r.status).to.equal(502);
    expect(r.body.error).to.equal("upstream_error");
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
