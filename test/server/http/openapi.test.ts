import { expect } from "chai";
import { startTestApp, type TestApp } from "../../helpers/app";

describe("OpenAPI document and docs page", function () {
  let t: TestApp;

  before(async () => (t = await startTestApp()));
  after(async () => t?.close());

  it("/openapi.json is an OpenAPI 3 document listing the routes from their schemas", async function () {
    const response = await t.fetch(`/openapi.json`);
    expect(response.status).to.equal(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { responses: object }>> };
    expect(document.openapi).to.match(/^3\./);
    expect(document.paths["/health"].get.responses).to.have.property("200");
    expect(document.paths["/ready"].get.responses).to.have.keys(["200", "503"]);
    // Path parameters are written the OpenAPI way.
    expect(document.paths).to.have.property("/block/{network}/latest");
    expect(document.paths).not.to.have.property("/openapi.json");
  });

  it("documents the holders, history and live-event routes with an example answer", async function () {
    const document = (await (await t.fetch(`/openapi.json`)).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }>;
    };
    for (const [path, type] of [
      ["/holders/{network}/{contract}", "application/json"],
      ["/holders/{network}/{contract}/count", "application/json"],
      ["/transfers/{network}/{contract}/{id}", "application/json"],
      ["/transfers/{network}/owner/{owner}", "application/json"],
      ["/events/{network}", "text/event-stream"],
    ]) {
      expect(document.paths[path]?.get.responses["200"].content[type].example, path).to.not.equal(undefined);
    }
  });

  it("/docs serves the interactive page", async function () {
    const response = await t.fetch(`/docs/`);
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.match(/text\/html/);
    expect(await response.text()).to.match(/swagger/i);
  });
});
