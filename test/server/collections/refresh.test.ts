import { expect } from "chai";
import { MetadataNFT__factory } from "../../../typechain-types";
import { SuiteChain } from "../../helpers/suite-chain";
import { expectRefusal } from "../../helpers/refusal";
import { pollUntil } from "../../helpers/waiters";

const TOKENS = 20;
const uri = (id: number, version: number) => `data:application/json,${encodeURIComponent(JSON.stringify({ name: `#${id} v${version}` }))}`;

describe("POST /collection/:network/:contract/refresh", function () {
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const holder = await chain.signer(1);
    const nft = await new MetadataNFT__factory(await chain.signer(0)).deploy();
    const address = await nft.getAddress();
    for (let id = 1; id <= TOKENS; id++) await (await nft.mint(holder.address, BigInt(id), uri(id, 1))).wait();
    const t = await chain.startIndexingApp({ env: { METADATA_FETCH_WAIT_MS: "5000", SPAM_CLASSIFY_INTERVAL_MS: "600000" } });
    return { holder, nft, address, t };
  });

  const name = async (id: number) => {
    const { t, address } = suite();
    return ((await (await t.fetch(`/token/localhost/${address}/${id}`)).json()) as { metadata: { name: string } }).metadata.name;
  };
  const refresh = () => {
    const { t, address } = suite();
    return t.fetch(`/collection/localhost/${address}/refresh`, { method: "POST" });
  };

  it("reads every token again in the background, joins a refresh under way, then cools down", async function () {
    const { nft, address, t } = suite();
    for (let id = 1; id <= TOKENS; id++) expect(await name(id)).to.equal(`#${id} v1`);
    // The tokenURIs change without an event: the cache keeps the first documents.
    for (let id = 1; id <= TOKENS; id++) await (await nft.setTokenURI(BigInt(id), uri(id, 2))).wait();
    expect(await name(1)).to.equal("#1 v1");

    const [first, second] = await Promise.all([refresh(), refresh()]);
    expect([first.status, second.status]).to.deep.equal([202, 202]);
    const answers = [await first.json(), await second.json()] as Array<{ state: string; joined: boolean }>;
    expect(answers.map((a) => a.joined).sort()).to.deep.equal([false, true]);
    expect(answers[0]).to.include.keys("state", "startedAt", "finishedAt", "read", "stored");

    const status = async () =>
      (await (await t.fetch(`/collection/localhost/${address}/refresh`)).json()) as { state: string; read: number; stored: number };
    await pollUntil("the refresh done", async () => (await status()).state === "done");
    expect(await status()).to.deep.include({ state: "done", read: TOKENS, stored: TOKENS });
    for (let id = 1; id <= TOKENS; id++) expect(await name(id)).to.equal(`#${id} v2`);

    await expectRefusal(await refresh(), 429, "refresh_cooldown", {
      message: /was refreshed at .*; a new refresh may start in \d+ s$/,
      headers: { "retry-after": /^\d+$/ },
    });
  });

  it("refuses a contract the index holds nothing of, and says none when there is no refresh to tell of", async function () {
    const { holder, address, t } = suite();
    await expectRefusal(await t.fetch(`/collection/localhost/${holder.address}/refresh`, { method: "POST" }), 404, "not_found", {
      message: `The index of localhost holds no transfer of ${holder.address.toLowerCase()}`,
    });
    expect(await (await t.fetch(`/collection/localhost/${holder.address}/refresh`)).json()).to.deep.equal({
      state: "none",
      startedAt: null,
      finishedAt: null,
      read: 0,
      stored: 0,
    });
    await expectRefusal(await t.fetch(`/collection/nowhere/${address}/refresh`, { method: "POST" }), 400, "unknown_network");
  });
});
