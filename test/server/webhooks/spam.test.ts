import { expect } from "chai";
import { Wallet } from "ethers";
import { CollectionNFT__factory, type CollectionNFT } from "../../../typechain-types";
import type { TestApp } from "../../helpers/app";
import { openSse, type SseClient } from "../../helpers/sse";
import { pollUntil } from "../../helpers/waiters";
import { startWebhookApp, type WebhookApp } from "../../helpers/webhook-app";

describe("webhooks and the event stream: spam=exclude", function () {
  this.timeout(180_000);
  let w: WebhookApp;
  let t: TestApp;
  let spam: CollectionNFT;
  let spamAddress: string;
  const streams: SseClient[] = [];

  before(async function () {
    w = await startWebhookApp({}, { listen: true });
    ({ t } = w);
    // A URL-lure airdrop in one transaction to thirty addresses: the collections' classifier flags it.
    spam = await new CollectionNFT__factory(await w.provider.getSigner(0)).deploy("Claim your reward at visit-airdrop.xyz", "CLAIM", "");
    spamAddress = (await spam.getAddress()).toLowerCase();
    await (await spam.airdrop(Array.from({ length: 30 }, () => Wallet.createRandom().address))).wait();
    await pollUntil("the airdrop flagged as spam", async () =>
      (await t.app.collections.flagged("localhost", [spamAddress])).has(spamAddress),
    );
  });
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await w.closeReceivers();
  });
  after(async () => w?.close());

  it("leaves a flagged collection's transfers out of the deliveries and the stream that exclude spam, and sends them to the others", async function () {
    const owner = Wallet.createRandom().address;
    const stream = async (query: string) => {
      const client = await openSse(`${t.url}/events/localhost?owner=${owner}${query}`);
      streams.push(client);
      expect(client.status).to.equal(200);
      return client;
    };
    const [excludingStream, includingStream] = [await stream("&spam=exclude"), await stream("")];
    const [excluding, including] = [await w.receiver(), await w.receiver()];
    const { secret: excludingSecret, subscription } = await w.subscribe(excluding.url, { owners: [owner], spam: "exclude" });
    expect(subscription.spam).to.equal("exclude");
    const { secret: includingSecret } = await w.subscribe(including.url, { owners: [owner] });

    const airdropped = (await (await spam.airdrop([owner, Wallet.createRandom().address])).wait())!.hash;
    const minted = await w.mint(owner);

    // In change-log order: the one that excludes spam has passed the airdrop once it has the mint after it.
    await including.until((r) => r.length === 2, "both transfers");
    await excluding.until((r) => r.length === 1, "the mint");
    await includingStream.next((e) => JSON.parse(e.data).tx === minted);
    await excludingStream.next((e) => JSON.parse(e.data).tx === minted);
    expect(including.verified(includingSecret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([airdropped, minted]);
    expect(excluding.verified(excludingSecret, t.clock.now).map((d) => d.data.tx)).to.deep.equal([minted]);
    expect(includingStream.events.map((e) => JSON.parse(e.data).tx)).to.deep.equal([airdropped, minted]);
    expect(excludingStream.events.map((e) => JSON.parse(e.data).tx)).to.deep.equal([minted]);
    expect((await t.app.collections.flagged("localhost", [spamAddress])).has(spamAddress)).to.equal(true);
  });

  it("a stream that resumes from an earlier id reads its backlog with spam left out too", async function () {
    const owner = Wallet.createRandom().address;
    const before = await openSse(`${t.url}/events/localhost?owner=${owner}`);
    streams.push(before);
    const airdropped = (await (await spam.airdrop([owner])).wait())!.hash;
    const minted = await w.mint(owner);
    const first = await before.next((e) => JSON.parse(e.data).tx === airdropped);
    await before.next((e) => JSON.parse(e.data).tx === minted);
    const resumed = await openSse(`${t.url}/events/localhost?owner=${owner}&spam=exclude`, {
      "last-event-id": String(BigInt(first.id!) - 1n),
    });
    streams.push(resumed);
    await resumed.next((e) => JSON.parse(e.data).tx === minted);
    expect(resumed.events.map((e) => JSON.parse(e.data).tx)).to.deep.equal([minted]);
  });
});
