import { startTestApp } from "../../helpers/app";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";

describe("reads of the index before it started", function () {
  const owner = `0x${"a".repeat(40)}`;
  const contract = `0x${"b".repeat(40)}`;

  const suite = SuiteChain.forSuite("shared", async (chain) => ({
    // A node but no indexer: the network is served, its index never starts.
    t: chain.closesWith(await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, INDEXER: "false" } })),
  }));

  for (const path of [
    `/inventory/localhost/${owner}`,
    `/inventory/localhost/${owner}/${contract}`,
    `/holders/localhost/${contract}`,
    `/holders/localhost/${contract}?id=1`,
    `/holders/localhost/${contract}/count`,
    `/transfers/localhost/owner/${owner}`,
    `/transfers/localhost/${contract}/1`,
    `/token/localhost/${contract}/1`,
  ]) {
    it(`GET ${path.replace(/0x[0-9a-f]{40}/g, "0x…")} is a 503 not_indexed with Retry-After`, async function () {
      const { t } = suite();
      const response = await t.fetch(path);
      await expectRefusal(response, 503, "not_indexed", { headers: { "retry-after": "5" } });
    });
  }

  it("is network_unavailable, not not_indexed, on a known network without a node", async function () {
    const { t } = suite();
    const response = await t.fetch(`/holders/mainnet/${contract}/count`);
    await expectRefusal(response, 503, "network_unavailable");
  });
});
