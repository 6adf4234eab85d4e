import path from "node:path";
import { expect } from "chai";
import { SourceImports } from "../../helpers/imports";

const SERVER = path.resolve(__dirname, "..", "..", "..", "server");

const graph = new SourceImports(SERVER);

/** The feature folders of server/: each imports another only through that one's public module, `<feature>/index.ts`. */
const FEATURES = ["auth", "collections", "converter", "data", "events", "home", "indexer", "signed-metadata", "token-metadata", "webhooks"];
/** The shared layers below the features: they import no feature at all. */
const SHARED = ["lib", "http", "db", "chain", "config", "metrics", "rate-limits", "outbound"];

/** The folder of server/ a path (relative to server/) is in; undefined for a file at the top (app.ts, main.ts). */
const folderOf = (file: string): string | undefined => (file.includes(path.sep) ? file.split(path.sep)[0] : undefined);

/** Whether `target` (an import resolved against server/) is a module of another feature than `feature`, other than its index. */
const internalsOfAnotherFeature = (feature: string) => (target: string) => {
  const folder = folderOf(target);
  return (
    folder !== undefined && folder !== feature && FEATURES.includes(folder) && target !== folder && target !== path.join(folder, "index")
  );
};

const under = (dir: string) => (target: string) => target === dir || target.startsWith(`${dir}${path.sep}`);

describe("layers (which module may import which)", function () {
  it("reads the imports it checks", function () {
    expect(graph.importsOf(path.join("http", "errors.ts"))).to.include.members([
      "fastify",
      path.join("lib", "domain-error"),
      path.join("http", "http-error"),
    ]);
  });

  it("the HTTP layer imports nothing from the chain layer, and the chain layer nothing from the HTTP layer", function () {
    expect(graph.offenders(graph.sources("http"), under("chain"))).to.deep.equal({});
    expect(graph.offenders(graph.sources("chain"), under("http"))).to.deep.equal({});
  });

  it("only server/auth/oidc/ imports oidc-provider, and the rest of the server imports that folder through its entry", function () {
    const oidc = path.join("auth", "oidc");
    const outside = graph.sources(".").filter((file) => !under(oidc)(file));
    expect(graph.offenders(outside, (target) => target === "oidc-provider")).to.deep.equal({});
    expect(graph.offenders(outside, (target) => under(oidc)(target) && ![oidc, path.join(oidc, "index")].includes(target))).to.deep.equal(
      {},
    );
  });

  it("knows every folder of server/ as a feature or a shared layer", function () {
    const folders = new Set(
      graph
        .sources(".")
        .map(folderOf)
        .filter((folder) => folder !== undefined),
    );
    // The entries (app.ts, main.ts, cli/) compose the features and may use what they need of them.
    expect([...folders].filter((folder) => folder !== "cli").sort()).to.deep.equal([...FEATURES, ...SHARED].sort());
  });

  it("a feature imports another feature only through its public module (<feature>/index.ts), never its internals", function () {
    const found = FEATURES.map((feature) => graph.offenders(graph.sources(feature), internalsOfAnotherFeature(feature)));
    expect(Object.assign({}, ...found)).to.deep.equal({});
  });

  it("a feature's public module is what others use of it: it imports only its own folder and the shared layers", function () {
    const publics = FEATURES.map((feature) => path.join(feature, "index.ts")).filter((file) => graph.sources(".").includes(file));
    expect(publics).to.include.members([path.join("indexer", "index.ts"), path.join("signed-metadata", "index.ts")]);
    const outside = (file: string) => (target: string) => {
      const folder = folderOf(target);
      return folder !== undefined && folder !== folderOf(file) && !SHARED.includes(folder);
    };
    expect(Object.assign({}, ...publics.map((file) => graph.offenders([file], outside(file))))).to.deep.equal({});
  });

  it("the shared layers import no feature", function () {
    const found = SHARED.map((layer) => graph.offenders(graph.sources(layer), (target) => FEATURES.includes(folderOf(target) ?? "")));
    expect(Object.assign({}, ...found)).to.deep.equal({});
  });

  it("the rate limits' counts (server/rate-limits/) know neither HTTP nor Fastify", function () {
    expect(graph.offenders(graph.sources("rate-limits"), (target) => under("http")(target) || /fastify/.test(target))).to.deep.equal({});
  });

  it("the signed-metadata domain modules know neither HTTP nor Fastify", function () {
    const domain = ["store.ts", "body.ts", "proof.ts", "errors.ts", "statement-json.ts", "served.ts", "index.ts"].map((file) =>
      path.join("signed-metadata", file),
    );
    expect(graph.offenders(domain, (target) => under("http")(target) || /fastify/.test(target))).to.deep.equal({});
  });
});
