import { expect } from "chai";
import { NODE_ERRORS } from "../../helpers/fault-proxy";
import { startProxiedApp } from "../../helpers/proxied-app";
import type { Refusal } from "../../helpers/rpc-proxy";
import { SuiteChain } from "../../helpers/suite-chain";

/**
 * A node's error is never an answer about a token: the owner and approval routes tell a revert (the contract's word)
 * from a JSON-RPC error (the node's), and cache neither the error nor a conclusion drawn from it.
 */
describe("node errors on eth_call", function () {
  this.timeout(60_000);
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const owner = (await chain.signer(1)).address;
    const token = await chain.deployAlice();
    await (await token.mint(owner, 1n)).wait();
    // INDEXER=false: the route cannot fall back on the index to know the contract is an ERC-721.
    const { t, proxy } = chain.closesWith(
      await startProxiedApp(chain.url, { env: { HEAD_CACHE_MS: "0", INDEXER: "false", RPC_TIMEOUT_MS: "3000" } }),
    );
    return { t, proxy, owner, alice: await token.getAddress() };
  });

  async function get(path: string): Promise<{ status: number; body: unknown }> {
    const response = await suite().t.fetch(path);
    return { status: response.status, body: await response.json() };
  }

  /** Mines a block, which the app sees at once (HEAD_CACHE_MS=0): cached answers are the last block's. */
  async function newBlock(): Promise<void> {
    const { provider } = suite().chain;
    await provider.send("evm_mine", []);
    expect((await get("/block/localhost/latest")).body).to.equal(await provider.getBlockNumber());
  }

  const failing = (refusal: Refusal) => (suite().proxy.plan = { refuse: (call) => (call.method === "eth_call" ? refusal : undefined) });

  for (const [name, refusal] of [
    ["header not found", NODE_ERRORS.headerNotFound],
    ["an internal error", NODE_ERRORS.internal],
  ] as const) {
    it(`answers 502 upstream_error, not 404 or 400, while eth_call fails with ${name}; then the truth`, async function () {
      const { proxy, alice, owner } = suite();
      await newBlock();
      failing(refusal);
      const node = { error: "upstream_error", message: "The localhost node failed to answer" };
      try {
        expect(await get(`/localhost/${alice}/1`)).to.deep.equal({ status: 502, body: node });
        expect(await get(`/localhost/${alice}/999`)).to.deep.equal({ status: 502, body: node });
        expect(await get(`/approval/localhost/${alice}/${owner}/${owner}`)).to.deep.equal({ status: 502, body: node });
      } finally {
        proxy.plan = {};
      }
      // Same block (nothing mined): no failure, and nothing concluded from one, was cached.
      expect(await get(`/localhost/${alice}/1`)).to.deep.equal({ status: 200, body: owner });
      expect(await get(`/localhost/${alice}/999`)).to.deep.equal({
        status: 404,
        body: { error: "not_found", message: `Token 999 does not exist in ${alice} on localhost` },
      });
      expect(await get(`/approval/localhost/${alice}/${owner}/${owner}`)).to.deep.equal({ status: 200, body: false });
    });
  }

  it('reads geth\'s revert answers (code 3 with data, -32000 "execution reverted" without) as reverts', async function () {
    const { proxy, alice } = suite();
    const geth: Refusal[] = [
      { rpcError: { code: 3, message: "execution reverted", data: "0x" } },
      { rpcError: { code: -32000, message: "execution reverted" } },
    ];
    for (const refusal of geth) {
      await newBlock();
      // A revert of ownerOf by a contract known to be an ERC-721 (its ERC-165 answer is cached): no such token.
      failing(refusal);
      try {
        expect(await get(`/localhost/${alice}/1`), JSON.stringify(refusal)).to.deep.equal({
          status: 404,
          body: { error: "not_found", message: `Token 1 does not exist in ${alice} on localhost` },
        });
      } finally {
        proxy.plan = {};
      }
    }
  });

  it("still reads a revert as the contract's answer: 404 for a token that does not exist", async function () {
    const { alice } = suite();
    expect(await get(`/localhost/${alice}/12345`)).to.deep.equal({
      status: 404,
      body: { error: "not_found", message: `Token 12345 does not exist in ${alice} on localhost` },
    });
  });
});
