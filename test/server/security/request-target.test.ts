import net from "node:net";
import { expect } from "chai";
import { addClient } from "../../../server/auth/clients";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";
import { startLoginApp } from "../auth/helpers";

interface RawAnswer {
  status: number;
  head: string;
  body: string;
  bytes: Buffer;
}

/**
 * One request written on a socket as given (fetch and app.inject both send origin-form only), the whole answer read
 * until the server closes (Connection: close).
 */
function rawRequest(url: string, requestLine: string, headers: Record<string, string> = { host: "localhost" }): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const lines = [requestLine, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), "connection: close", "", ""];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(lines.join("\r\n")));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const text = bytes.toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const head = text.slice(0, split);
      resolve({ status: Number(head.split(" ")[1]), head, body: text.slice(split + 4), bytes });
    });
  });
}

/** Every absolute http(s) URL in an answer (head and body), as origins. */
function originsIn(answer: RawAnswer): string[] {
  return [...`${answer.head}\n${answer.body}`.matchAll(/https?:\/\/[^\s"'<>\\]+/g)].map((match) => new URL(match[0]).origin);
}

describe("request targets: every URL we publish is on ISSUER's origin whatever form the request line takes", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const t = chain.closesWith(await startLoginApp(chain.url, { listen: true }));
    const { client } = await addClient(t.app.db, { name: "RP", redirectUris: ["https://rp.example/cb"], public: false });
    const authorizeQuery = new URLSearchParams({
      client_id: client.id,
      redirect_uri: "https://rp.example/cb",
      response_type: "code",
      scope: "openid",
    }).toString();
    return { t, issuer: t.config.issuer, authorizeQuery };
  });

  const paths = () => ["/.well-known/openid-configuration", "/jwks", `/authorize?${suite().authorizeQuery}`, "/openapi.json"];

  it("refuses an absolute-form target on another origin with 400 invalid_request, naming no other origin", async function () {
    const { t } = suite();
    for (const path of paths()) {
      const answer = await rawRequest(t.url, `GET http://evil.example${path} HTTP/1.1`);
      await expectRefusal(answer.bytes, 400, "invalid_request", {
        label: path,
        message: "The request target must be a path, or an absolute URL on this service's origin",
      });
      expect(answer.head + answer.body, path).to.not.include("evil.example");
      expect(answer.head, path).to.not.match(/cache-control: public/i);
    }
  });

  it("refuses an absolute-form target on another port of the same host, with user info, or not http(s)", async function () {
    const { t, issuer } = suite();
    const { port } = new URL(issuer);
    for (const target of [
      `http://127.0.0.1:${Number(port) + 1}/jwks`,
      `http://user@127.0.0.1:${port}/jwks`,
      `http://[/jwks`,
      "ftp://127.0.0.1/jwks",
    ]) {
      const answer = await rawRequest(t.url, `GET ${target} HTTP/1.1`, { host: `127.0.0.1:${port}` });
      await expectRefusal(answer.bytes, 400, "invalid_request", { label: target });
    }
  });

  it("refuses authority-form and asterisk-form targets (OPTIONS * aside) with 400", async function () {
    const { t } = suite();
    // Node's HTTP parser refuses authority-form itself, before there is a request (the client error handler's answer).
    const authority = await rawRequest(t.url, "GET evil.example:443 HTTP/1.1");
    await expectRefusal(authority.bytes, 400, "bad_request", { message: "The request is not valid HTTP" });
    for (const line of ["GET * HTTP/1.1", "POST * HTTP/1.1"]) {
      const answer = await rawRequest(t.url, line);
      await expectRefusal(answer.bytes, 400, "invalid_request", { label: line });
      expect(answer.body, line).to.not.include("evil.example");
    }
    // OPTIONS * asks about the server as a whole: it is answered as OPTIONS on any path is (a CORS preflight here).
    const preflight = { host: "localhost", origin: "https://dapp.example", "access-control-request-method": "GET" };
    const server = await rawRequest(t.url, "OPTIONS * HTTP/1.1", preflight);
    const path = await rawRequest(t.url, "OPTIONS /jwks HTTP/1.1", preflight);
    expect(server.status).to.equal(204);
    expect(server.status).to.equal(path.status);
  });

  it("reads an absolute-form target on ISSUER's origin, or on the Host's, as its path", async function () {
    const { t, issuer } = suite();
    const direct: Record<string, RawAnswer> = {};
    for (const path of paths()) direct[path] = await rawRequest(t.url, `GET ${path} HTTP/1.1`);
    for (const [origin, host] of [
      [issuer, "localhost"],
      ["http://localhost", "localhost"],
      ["HTTP://LOCALHOST:80", "localhost"],
    ]) {
      for (const path of paths()) {
        const answer = await rawRequest(t.url, `GET ${origin}${path} HTTP/1.1`, { host });
        const label = `${origin}${path}`;
        expect(answer.status, label).to.equal(direct[path].status);
        // The OpenAPI document's examples name other sites; the URL it publishes for us is its server.
        if (path === "/openapi.json") expect(JSON.parse(answer.body).servers, label).to.deep.equal([{ url: issuer }]);
        else for (const found of originsIn(answer)) if (found !== "https://rp.example") expect(found, label).to.equal(issuer);
        if (path === "/.well-known/openid-configuration") {
          const discovery = JSON.parse(answer.body);
          for (const key of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"])
            expect(discovery[key], `${label} ${key}`).to.match(new RegExp(`^${issuer}/`));
        }
        if (path.startsWith("/authorize")) expect(answer.head, label).to.match(/\r\nlocation: \/interaction\//i);
      }
    }
  });

  it("keeps an origin-form request with a foreign Host on ISSUER's URLs", async function () {
    const { t, issuer } = suite();
    const answer = await rawRequest(t.url, "GET /.well-known/openid-configuration HTTP/1.1", { host: "evil.example" });
    expect(answer.status).to.equal(200);
    for (const found of originsIn(answer)) expect(found).to.equal(issuer);
  });
});
