import { expect } from "chai";
import { subscribe } from "../../../server/webhooks/subscribe";
import { startTestApp, type TestApp } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { openSse, type SseClient } from "../../helpers/sse";
import { SuiteChain } from "../../helpers/suite-chain";
import { startReceiver, WEBHOOKS_ENV, type Receiver } from "../../helpers/webhook-receiver";

describe("webhooks: the index starting over", function () {
  this.timeout(120_000);
  let chain: SuiteChain;
  let t: TestApp;
  let receiver: Receiver;
  let stream: SseClient | undefined;

  before(async function () {
    chain = await SuiteChain.ownNode();
  });
  after(async function () {
    stream?.close();
    await receiver?.close();
    await t?.close();
    await chain?.close();
  });

  it("delivers reset, as the event stream sends it, when the chain is replaced below the index's first block", async function () {
    const fork = await chain.provider.send("evm_snapshot", []);
    const first = (await chain.provider.getBlockNumber()) + 1;
    await chain.provider.send("hardhat_mine", ["0x4"]);
    // The index starts above the fork, so none of the blocks it remembers is on the branch that replaces them.
    t = await startTestApp({
      listen: true,
      env: { RPC_URL_LOCALHOST: chain.url, ...WEBHOOKS_ENV, INDEXER_POLL_MS: "50", INDEXER_START_BLOCK_LOCALHOST: String(first) },
    });
    await indexedTo(t.app.db, "localhost", chain.provider);
    receiver = await startReceiver();
    const { secret } = await subscribe(t.app.db, {
      input: { network: "localhost", url: receiver.url, kinds: ["reset"] },
      clientId: null,
      config: t.config.webhooks,
      served: ["localhost"],
      now: t.clock.now(),
    });
    stream = await openSse(`${t.url}/events/localhost`);

    await chain.provider.send("evm_revert", [fork]);
    // A branch with other blocks: a transaction in its first one, so that its blocks' hashes differ from the replaced ones.
    const signer = await chain.provider.getSigner(0);
    await (await signer.sendTransaction({ to: await signer.getAddress(), value: 0 })).wait();
    await chain.provider.send("hardhat_mine", ["0x6", "0x2"]);

    const sent = await stream.next((e) => e.event === "reset", 60_000);
    await receiver.until((r) => r.length >= 1, "the reset's delivery", 60_000);
    const [delivered] = receiver.verified(secret, t.clock.now);
    expect(delivered).to.deep.include({ id: sent.id, type: "reset", network: "localhost", data: JSON.parse(sent.data) });
    expect(delivered.data).to.deep.equal({ network: "localhost" });
  });
});
