import { expect } from "chai";
import { startTestApp, type TestApp } from "../../helpers/app";

describe("OpenAPI document and docs page", function () {
  let t: TestApp;

  before(async () => (t = await startTestApp()));
  after(async () => t?.close());

  it("/openapi.json is an OpenAPI 3 document listing the routes from their schemas", async function () {
    const response = await fetch(`${t.url}/openapi.json`);
    expect(response.status).to.equal(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { responses: object }>> };
    expect(document.openapi).to.match(/^3\./);
    expect(document.paths["/health"].get.responses).to.have.property("200");
    expect(document.paths["/ready"].get.responses).to.have.keys(["200", "503"]);
    // Path parameters are written the OpenAPI way.
    expect(document.paths).to.have.property("/block/{network}/latest");
    expect(document.paths).not.to.have.property("/openapi.json");
  });

  it("/docs serves the interactive page", async function () {
    const response = await fetch(`${t.url}/docs/`);
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.match(/text\/html/);
    expect(await response.text()).to.match(/swagger/i);
  });
});
