import { expect } from "chai";
import { startTestApp } from "../../helpers/app";
import { appForSuite } from "../../helpers/suite-app";
import { operations, type OpenApiDocument } from "../../helpers/openapi";

describe("OpenAPI document and docs page", function () {
  const t = appForSuite();

  it("/openapi.json is an OpenAPI 3 document listing the routes from their schemas", async function () {
    const response = await t().fetch(`/openapi.json`);
    expect(response.status).to.equal(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { responses: object }>> };
    expect(document.openapi).to.match(/^3\./);
    expect(document.paths["/health"].get.responses).to.have.property("200");
    expect(document.paths["/ready"].get.responses).to.have.keys(["200", "400", "500", "503"]);
    // Path parameters are written the OpenAPI way.
    expect(document.paths).to.have.property("/block/{network}/latest");
    expect(document.paths).not.to.have.property("/openapi.json");
  });

  it("documents the holders, history and live-event routes with an example answer", async function () {
    const document = (await (await t().fetch(`/openapi.json`)).json()) as {
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

  it("every operation teaches: a summary and a description, an example for each parameter and body, its error answers and their codes", async function () {
    const document = (await (await t().fetch(`/openapi.json`)).json()) as OpenApiDocument;
    const found = operations(document);
    expect(found.length).to.be.greaterThan(25);
    const faults = found.flatMap(({ name, operation }) => {
      const problems: string[] = [];
      if (!operation.summary) problems.push("no summary");
      if (!operation.description || operation.description.length < 40) problems.push("no description");
      for (const parameter of operation.parameters ?? [])
        if (parameter.example === undefined) problems.push(`no example for ${parameter.in} parameter ${parameter.name}`);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
        if (media.example === undefined) problems.push(`no example for its ${type} body`);
      const statuses = Object.keys(operation.responses);
      if (!statuses.some((status) => /^4\d\d$/.test(status))) problems.push("no 4xx answer");
      if (!statuses.some((status) => /^5\d\d$/.test(status))) problems.push("no 5xx answer");
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        const answer = operation.responses[status];
        const codes = answer.content?.["application/json"]?.schema?.properties?.error?.enum;
        if (!codes?.length) problems.push(`${status} lists no error codes`);
        else if (codes.some((code) => !answer.description?.includes(`\`${code}\``)))
          problems.push(`${status} does not say what each code means`);
      }
      const refusalCodes = statuses.flatMap(
        (s) => operation.responses[s].content?.["application/json"]?.schema?.properties?.error?.enum ?? [],
      );
      if (operation.parameters?.some((p) => p.in === "path" && p.name === "network") && !refusalCodes.includes("unknown_network"))
        problems.push("takes a network but does not declare unknown_network");
      return problems.map((problem) => `${name}: ${problem}`);
    });
    expect(faults, faults.join("\n")).to.deep.equal([]);
    // The annotation naming an example is the plugin's business: none is left in the document.
    expect(JSON.stringify(document)).not.to.contain("x-example");
  });

  it("without a demo, examples name the first configured network (else mainnet) and neutral addresses", async function () {
    const document = (await (await t().fetch(`/openapi.json`)).json()) as OpenApiDocument;
    const parameters = document.paths["/inventory/{network}/{owner}/{assetContract}"].get.parameters!;
    const examples = Object.fromEntries(parameters.map((p) => [p.name, p.example]));
    expect(examples).to.deep.include({
      network: "mainnet",
      owner: "0x2222222222222222222222222222222222222222",
      assetContract: "0x1111111111111111111111111111111111111111",
    });
  });

  it("examples name the first network the deployment has a node for", async function () {
    const other = await startTestApp({ env: { RPC_URL_SEPOLIA: "http://127.0.0.1:9", INDEXER: "false" } });
    try {
      const document = (await (await other.fetch(`/openapi.json`)).json()) as OpenApiDocument;
      expect(document.paths["/block/{network}/latest"].get.parameters![0]).to.include({ name: "network", example: "sepolia" });
    } finally {
      await other.close();
    }
  });

  it("/docs serves the interactive page", async function () {
    const response = await t().fetch(`/docs/`);
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.match(/text\/html/);
    expect(await response.text()).to.match(/swagger/i);
  });
});
