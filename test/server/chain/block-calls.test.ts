import { expect } from "chai";
import { BlockCalls } from "../../../server/chain/calls";
import { HeadCache } from "../../../server/chain/head";
import { Networks } from "../../../server/chain/networks";
import { systemClock } from "../../../server/lib/clock";
import { AliceNFT__factory } from "../../../typechain-types";
import { startFaultProxy, type FaultProxy } from "../../helpers/fault-proxy";
import { SuiteChain } from "../../helpers/suite-chain";

/**
 * The calls of each block are asked of the node once and kept while the block is among the newest four asked for:
 * the head's and the index's with a few behind them. An older block's are not kept, so the memory they take stays
 * that of a few blocks however long the service runs (before, 20,000 calls of past blocks were held until pushed out).
 */
describe("BlockCalls", function () {
  this.timeout(60_000);
  let chain: SuiteChain;
  let proxy: FaultProxy;
  let calls: BlockCalls;
  let networks: Networks;
  let token: string;
  let first: number;
  const NAME = AliceNFT__factory.createInterface().encodeFunctionData("name");

  before(async function () {
    chain = await SuiteChain.ownNode();
    const signer = await chain.provider.getSigner(0);
    token = await (await new AliceNFT__factory(signer).deploy(await signer.getAddress())).getAddress();
    first = await chain.provider.getBlockNumber();
    for (let i = 0; i < 6; i++) await chain.provider.send("evm_mine", []);
    proxy = await startFaultProxy(chain.url);
    networks = new Networks({ localhost: proxy.url }, 10_000);
    calls = new BlockCalls(networks, new HeadCache(networks, 1_000, systemClock));
  });
  after(async function () {
    networks?.close();
    await proxy?.close();
    await chain?.close();
  });

  const nodeCalls = () => proxy.countByMethod().eth_call ?? 0;

  describe("callAt", function () {
    it("asks the node once per block and keeps the newest four blocks' answers, not older ones", async function () {
      const blocks = [0, 1, 2, 3, 4, 5].map((i) => first + i);
      const before = nodeCalls();
      const answers = await Promise.all(blocks.map((block) => calls.callAt("localhost", block, token, NAME)));
      for (const answer of answers) expect(answer.ok).to.equal(true);
      expect(nodeCalls() - before).to.equal(6);

      // The newest four blocks' answers are kept.
      for (const block of blocks.slice(2)) await calls.callAt("localhost", block, token, NAME);
      expect(nodeCalls() - before).to.equal(6);

      // The two oldest were let go: asked again, they go to the node again (and are not kept either).
      await calls.callAt("localhost", blocks[0], token, NAME);
      await calls.callAt("localhost", blocks[1], token, NAME);
      expect(nodeCalls() - before).to.equal(8);
      await calls.callAt("localhost", blocks[0], token, NAME);
      expect(nodeCalls() - before).to.equal(9);
      await calls.callAt("localhost", blocks[5], token, NAME);
      expect(nodeCalls() - before).to.equal(9);
    });

    it("shares one node call among the askers of the same call at once", async function () {
      const block = first + 6;
      const before = nodeCalls();
      await Promise.all([1, 2, 3].map(() => calls.callAt("localhost", block, token, NAME)));
      expect(nodeCalls() - before).to.equal(1);
    });

    it("refuses a network the service does not know, keeping nothing for it", async function () {
      let error: unknown;
      await calls.callAt("nowhere", first, token, NAME).catch((e: unknown) => (error = e));
      expect(error).to.have.property("code", "unknown_network");
    });
  });

  describe("callsAt", function () {
    it("keeps each block's calls as callAt does", async function () {
      const block = first + 6;
      const before = nodeCalls();
      const outcomes = await calls.callsAt("localhost", block, [{ to: token, data: NAME }]);
      expect(outcomes[0].ok).to.equal(true);
      expect(nodeCalls() - before).to.equal(0);
    });
  });
});
