import { expect } from "chai";
import { Interface, type JsonRpcProvider } from "ethers";
import { callOutcome, rawCall, type CallOutcome } from "../../../server/chain/calls";
import { Networks } from "../../../server/chain/networks";
import { AliceNFT__factory } from "../../../typechain-types";
import { sharedNode } from "../../helpers/chain";
import { NODE_ERRORS, startFaultProxy, type FaultProxy } from "../../helpers/fault-proxy";
import type { Refusal } from "../../helpers/rpc-proxy";

/** What callOutcome made of a call: its outcome, or the code of the error it threw. */
async function settle(call: Promise<string>): Promise<CallOutcome | { threw: string }> {
  try {
    return await callOutcome("localhost", call);
  } catch (error) {
    return { threw: String((error as { code?: unknown }).code) };
  }
}

/**
 * rawCall sends the eth_calls whose answers may be megabytes (tokenURI, ENS records) past ethers' provider. The
 * callers read its outcome with callOutcome, so it must give what ethers' provider.call gives, for every answer a
 * node sends: a result, a revert with or without data, as Hardhat and as geth word it, and a node's failure.
 */
describe("rawCall: an eth_call read as ethers' provider.call reads it", function () {
  this.timeout(60_000);
  let proxy: FaultProxy;
  let networks: Networks;
  let provider: JsonRpcProvider;
  let token: string;
  const ERC721 = new Interface(["function ownerOf(uint256) view returns (address)", "function name() view returns (string)"]);

  before(async function () {
    const node = await sharedNode();
    proxy = await startFaultProxy(node.url);
    networks = new Networks({ localhost: proxy.url }, 5000);
    provider = networks.provider("localhost");
    const deployer = await provider.getSigner(0);
    const alice = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
    await (await alice.mint(await deployer.getAddress(), 1n)).wait();
    token = await alice.getAddress();
  });
  after(async function () {
    proxy.plan = {};
    networks?.close();
    await proxy?.close();
  });
  afterEach(() => (proxy.plan = {}));

  /** Both ways, from the same node: the outcomes must be the same. */
  async function expectSame(call: { to?: string; data: string }, label: string) {
    const ethers = await settle(provider.call(call));
    const raw = await settle(rawCall(provider, call));
    expect(raw, label).to.deep.equal(ethers);
    return raw;
  }

  it("gives the same result, and the same revert with its data (a custom error), as ethers", async function () {
    const owner = await expectSame({ to: token, data: ERC721.encodeFunctionData("ownerOf", [1n]) }, "ownerOf(1)");
    expect(owner).to.have.property("ok", true);
    const name = await expectSame({ to: token, data: ERC721.encodeFunctionData("name") }, "name()");
    expect(ERC721.decodeFunctionResult("name", (name as { data: string }).data)[0]).to.equal("Alice");
    const missing = await expectSame({ to: token, data: ERC721.encodeFunctionData("ownerOf", [99n]) }, "ownerOf(99)");
    expect(missing).to.have.property("ok", false);
    expect((missing as { revertData: string }).revertData.slice(0, 10)).to.equal("0x7e273289"); // ERC721NonexistentToken
  });

  it("gives the same outcome for a revert with no data, an invalid opcode, and an account with no code", async function () {
    // Creation code run by eth_call: REVERT(0, 0), then INVALID.
    expect(await expectSame({ data: "0x60006000fd" }, "revert()")).to.have.property("ok", false);
    expect(await expectSame({ data: "0xfe" }, "invalid opcode")).to.have.property("ok", false);
    expect(await expectSame({ to: `0x${"12".repeat(20)}`, data: "0x12345678" }, "no code")).to.deep.equal({ ok: true, data: "0x" });
  });

  it("reads a geth-style revert (code 3 with data, and the bare wording) as a revert", async function () {
    const data = ERC721.encodeFunctionData("ownerOf", [1n]);
    for (const refusal of [
      { rpcError: { code: 3, message: "execution reverted: not yours", data: "0x08c379a0" } },
      { rpcError: { code: -32000, message: "execution reverted" } },
    ] satisfies Refusal[]) {
      proxy.plan = { refuse: (call) => (call.method === "eth_call" ? refusal : undefined) };
      const outcome = await expectSame({ to: token, data }, refusal.rpcError.message);
      expect(outcome).to.have.property("ok", false);
    }
  });

  it("throws the node's failure (upstream_error) for JSON-RPC errors that are not reverts, HTTP errors and an answer that is not hex", async function () {
    const data = ERC721.encodeFunctionData("ownerOf", [1n]);
    for (const [label, refusal] of [
      ["header not found", NODE_ERRORS.headerNotFound],
      ["internal error", NODE_ERRORS.internal],
      ["502", NODE_ERRORS.badGateway],
      ["a number", { result: 5 }],
      // An error whose data nests 100,000 lists (sent as text: JSON.stringify cannot make it): not searched to the
      // bottom, which would overflow the stack, and not a revert.
      [
        "a deeply nested error",
        {
          httpStatus: 200,
          body: `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error","data":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`,
        },
      ],
    ] as const) {
      proxy.plan = { refuse: (call) => (call.method === "eth_call" ? refusal : undefined) };
      expect(await settle(rawCall(provider, { to: token, data })), label).to.deep.equal({ threw: "upstream_error" });
    }
  });

  it("throws a rate limit reported inside an HTTP 200 as the provider's rate limit (upstream_rate_limited), as an HTTP 429", async function () {
    const data = ERC721.encodeFunctionData("ownerOf", [1n]);
    proxy.plan = { refuse: (call) => (call.method === "eth_call" ? NODE_ERRORS.rateLimitedInBody : undefined) };
    expect(await settle(rawCall(provider, { to: token, data }))).to.deep.equal({ threw: "upstream_rate_limited" });
  });
});
