import { expect } from "chai";
import { Wallet } from "ethers";
import { UpdatableMetadataNFT__factory } from "../../../typechain-types";
import { openSse, type SseClient } from "../../helpers/sse";
import { startWebhookApp, type WebhookApp } from "../../helpers/webhook-app";

describe("webhooks: what the event stream sends to the same filters", function () {
  this.timeout(120_000);
  let w: WebhookApp;
  const streams: SseClient[] = [];

  before(async function () {
    w = await startWebhookApp({}, { listen: true });
  });
  after(async () => {
    for (const stream of streams) stream.close();
    await w?.close();
  });

  it("delivers every transfer, removal and metadata change the stream sends, with the same ids and data, in the same order", async function () {
    const { t, provider } = w;
    const deployer = await provider.getSigner(0);
    const nft = await new UpdatableMetadataNFT__factory(deployer).deploy("https://nft.example/");
    const contract = await nft.getAddress();
    const owner = Wallet.createRandom().address;
    const filters = [`contract=${contract}`, `owner=${owner}`];
    const hooks = [];
    for (const [i, filter] of [{ contracts: [contract] }, { owners: [owner] }].entries()) {
      const receiver = await w.receiver();
      const { secret } = await w.subscribe(receiver.url, filter);
      const stream = await openSse(`${t.url}/events/localhost?${filters[i]}`);
      streams.push(stream);
      hooks.push({ receiver, secret, stream });
    }

    // Transfers and metadata changes, then a reorg that undoes them, then what replaced them, and a transfer of
    // another contract to the owner.
    const snapshot = await provider.send("evm_snapshot", []);
    await (await nft.mintRange(owner, 1n, 2n)).wait();
    await (await nft.announce(1n)).wait();
    await (await nft.announceRange(1n, 2n)).wait();
    await hooks[0].stream.next((e) => e.event === "metadata" && JSON.parse(e.data).toId === 2, 30_000);
    await provider.send("evm_revert", [snapshot]);
    await (await nft.mintRange(owner, 10n, 1n)).wait();
    const other = await w.mint(owner);
    await (await nft.announce(10n)).wait();
    // The last change each filter matches.
    await hooks[0].stream.next((e) => e.event === "metadata" && JSON.parse(e.data).fromId === 10, 30_000);
    await hooks[1].stream.next((e) => e.event === "transfer" && JSON.parse(e.data).tx === other, 30_000);

    for (const { receiver, secret, stream } of hooks) {
      const sent = stream.events.map((e) => ({ id: e.id, type: e.event, data: JSON.parse(e.data) }));
      await receiver.until((r) => r.length >= sent.length, "as many deliveries as the stream's events");
      const delivered = receiver.verified(secret, t.clock.now).map((d) => ({ id: d.id, type: d.type, data: d.data }));
      expect(delivered).to.deep.equal(sent);
      expect(sent.map((e) => e.type)).to.include.members(["transfer", "removed"]);
    }
    expect(hooks[0].stream.events.map((e) => e.event)).to.include("metadata");
    // A metadata change names no owner: the owner's filter leaves it out, on both.
    expect(hooks[1].stream.events.map((e) => e.event)).to.not.include("metadata");
  });
});
