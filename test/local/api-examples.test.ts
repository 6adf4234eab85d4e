import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";
import type { Browser } from "playwright-core";
import { demoApiExamples, postDemoStatements, signDemoStatements, type DemoStatements } from "../../local/demo-api";
import { ensureDemoClient, type DemoClient } from "../../local/demo-client";
import { prepareDemo, type Demo } from "../../local/demo";
import { freePort } from "../../support/net";
import { startTestApp, type TestApp } from "../helpers/app";
import { launchBrowser } from "../helpers/browser";
import { providerFor, sharedNode } from "../helpers/chain";
import { indexedTo } from "../helpers/index-check";
import { exampleRequest, operations, type OpenApiDocument } from "../helpers/openapi";

/**
 * The OpenAPI document on `npm start`'s local demo (its contracts on a Hardhat node, its login client and signed
 * statements, its examples, as local/start.ts wires them): every example works as the document gives it.
 */
describe("the API document's examples on the local demo", function () {
  this.timeout(120_000);
  let t: TestApp;
  let demo: Demo;
  let provider: JsonRpcProvider;
  let document: OpenApiDocument;
  let dataDir: string;
  let client: DemoClient | undefined;

  before(async function () {
    const node = await sharedNode();
    provider = providerFor(node.url);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-examples-"));
    demo = await prepareDemo(node.url, dataDir);
    const statements: DemoStatements = await signDemoStatements(node.url, demo);
    // Browsers send "Try it out" to the document's server, ISSUER: the app listens where ISSUER says.
    const port = await freePort();
    t = await startTestApp({
      env: { RPC_URL_LOCALHOST: node.url, INDEXER_POLL_MS: "50", ISSUER: `http://127.0.0.1:${port}`, METADATA_FETCH_ALLOW_PRIVATE: "true" },
      port,
      apiExamples: () => demoApiExamples(demo, client!, statements),
      configure: async (app) => {
        await app.ready();
        client = await ensureDemoClient(app.db, dataDir);
        await postDemoStatements(app, demo, statements);
      },
    });
    await indexedTo(t.app.db, "localhost", provider);
    document = (await (await t.fetch("/openapi.json")).json()) as OpenApiDocument;
  });
  after(async function () {
    await t?.close();
    provider?.destroy();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("names the demo's network, contracts, user and client", function () {
    const examples = (route: string, method = "get") =>
      Object.fromEntries(document.paths[route][method].parameters!.map((p) => [p.name, p.example]));
    expect(examples("/approval/{network}/{assetContract}/{owner}/{operator}")).to.deep.equal({
      network: "localhost",
      assetContract: demo.alice,
      owner: demo.user,
      operator: demo.converter,
    });
    // issuers: empty, so that Swagger UI leaves it out (the metadata reads' examples name one issuer with iss).
    expect(examples("/token/{network}/{contract}/{id}")).to.deep.equal({
      issuers: "",
      network: "localhost",
      contract: demo.metadataNft,
      id: "1",
    });
    expect(examples("/converter/{network}/{converter}")).to.deep.equal({ network: "localhost", converter: demo.converter });
    expect(examples("/api/client")).to.deep.equal({ client_id: client!.id, lang: "en" });
  });

  it("every read (GET) answers 2xx to the request its examples make", async function () {
    const gets = operations(document).filter(({ method }) => method === "get");
    expect(gets.length).to.be.greaterThan(20);
    const failed: string[] = [];
    for (const { name, path: route, operation } of gets) {
      const { url, headers } = exampleRequest(route, operation);
      const controller = new AbortController();
      // Over HTTP: the event stream never ends, so its answer is judged by its status and then dropped.
      const answer = await fetch(`${t.url}${url}`, { headers, signal: controller.signal });
      const body = route.startsWith("/events/") ? "" : await answer.text();
      controller.abort();
      // A client's own resources (its webhook subscriptions) answer only to its client-credentials token, which an
      // example cannot hold: without one, the documented 401 that says what to send.
      if (operation.security?.length) {
        if (answer.status !== 401 || JSON.parse(body).error !== "invalid_token") failed.push(`${name} (${url}): ${answer.status} ${body}`);
      } else if (answer.status < 200 || answer.status > 299) failed.push(`${name} (${url}): ${answer.status} ${body}`);
    }
    expect(failed, failed.join("\n")).to.deep.equal([]);
  });

  it("the metadata posts' example bodies are taken as they are", async function () {
    for (const route of ["/metadata/{network}/{contract}/{id}", "/metadata/ethereum/{network}/{account}"]) {
      const operation = document.paths[route].post;
      const { url } = exampleRequest(route, operation);
      const answer = await t.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(operation.requestBody!.content["application/json"].example),
      });
      expect(answer.status, route).to.equal(200);
      expect(await answer.json(), route).to.equal("ok");
    }
  });

  describe("in Chromium, /docs", function () {
    let browser: Browser;
    before(async () => (browser = await launchBrowser()));
    after(async () => browser?.close());

    it("runs under its CSP without a console error, and Try it out → Execute answers 200 for every read", async function () {
      this.timeout(480_000);
      const page = await browser.newPage();
      // Each click waits for its button to stop moving (the block opening): on a loaded machine that took over the
      // default 30 s once, with the page still right.
      page.setDefaultTimeout(90_000);
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      const answer = await page.goto(`${t.url}/docs/`);
      expect(answer?.headers()["content-security-policy"]).to.match(/style-src 'self' 'sha256-/);
      expect(answer?.headers()["content-security-policy"]).not.to.contain("unsafe-inline");
      // Every read but the event stream, which never ends (Swagger UI would wait for it): the fetches above cover it.
      const reads = operations(document).filter(({ method, path: route }) => method === "get" && !route.startsWith("/events/"));
      const routes = reads.map(({ path: route }) => route);
      // 200, or the 401 of a read that takes a client's token (see above).
      const expected = Object.fromEntries(reads.map(({ path: route, operation }) => [route, operation.security?.length ? "401" : "200"]));
      const statuses: Record<string, string | undefined> = {};
      for (const route of routes) {
        const block = page.locator(".opblock-get", { has: page.locator(`.opblock-summary-path[data-path="${route}"]`) });
        await block.locator(".opblock-summary").first().click();
        await block.getByRole("button", { name: "Try it out" }).click();
        await block.getByRole("button", { name: "Execute" }).click();
        const answer = block.locator(".live-responses-table .response").first();
        // A failure names the route and what the page shows, not only that something timed out.
        const shown = await answer.waitFor({ timeout: 60_000 }).then(
          async () => (await answer.locator(".response-col_status").textContent())?.trim(),
          () => "no answer shown within 60 s",
        );
        statuses[route] = shown === expected[route] ? shown : `${shown}: ${(await answer.textContent().catch(() => ""))?.slice(0, 300)}`;
        // Folded again, so that the page keeps one operation open at a time.
        await block.locator(".opblock-summary").first().click();
      }
      expect(statuses).to.deep.equal(expected);
      // The browser logs each 401 it was expected to get as a failed resource: those, and nothing else.
      const unauthorized = Object.values(expected).filter((status) => status === "401").length;
      expect(errors).to.deep.equal(
        Array.from({ length: unauthorized }, () => "Failed to load resource: the server responded with a status of 401 (Unauthorized)"),
      );
      await page.close();
    });
  });
});
