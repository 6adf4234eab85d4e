import { expect } from "chai";
import { Wallet, type JsonRpcSigner } from "ethers";
import { CollectionNFT__factory, ConsecutiveNFT__factory, type CollectionNFT } from "../../../typechain-types";
import type { TestApp } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { recordRequestStatements } from "../../helpers/request-statements";
import { pollUntil } from "../../helpers/waiters";

/**
 * The labelled set of docs/reference/collections.md#spam: synthetic collections that reproduce real spam and real
 * legitimate patterns on the local chain, two of them made to fool the rules, with the verdict each should get.
 */
describe("spam flags", function () {
  let chain: SuiteChain;
  let signers: JsonRpcSigner[];
  let deployer: JsonRpcSigner;
  let t: TestApp;
  /** Each collection of the set: its address, its label and the reasons the rules give it. */
  const set: Array<{ name: string; address: string; spam: boolean; reasons: string[] }> = [];
  const randoms = (n: number) => Array.from({ length: n }, () => Wallet.createRandom().address);

  async function collection(name: string, symbol = "SYM", uri = ""): Promise<CollectionNFT> {
    return new CollectionNFT__factory(deployer).deploy(name, symbol, uri);
  }
  const add = async (name: string, contract: { getAddress(): Promise<string> }, spam: boolean, reasons: string[]) =>
    set.push({ name, address: await contract.getAddress(), spam, reasons });

  before(async function () {
    chain = await SuiteChain.ownNode();
    signers = await Promise.all(Array.from({ length: 16 }, (_, i) => chain.provider.getSigner(i)));
    deployer = signers[0];
    const buyers = signers.slice(1, 13);

    // A PFP public sale: each buyer mints to itself in its own transaction, and some trade afterwards.
    const pfp = await collection("Cool Cats", "COOL");
    for (const buyer of buyers) await (await pfp.connect(buyer).mint(buyer.address, 1n)).wait();
    await (await pfp.connect(buyers[0]).transferFrom(buyers[0].address, buyers[5].address, 1n)).wait();
    await add("PFP public sale", pfp, false, []);

    // An ERC-2309 collection: one ConsecutiveTransfer to its owner.
    const consecutive = await new ConsecutiveNFT__factory(deployer).deploy(deployer.address, 100n);
    await add("ERC-2309 mint", consecutive, false, []);

    // An allow-list mint nobody traded yet: never moved, but each token went to the one who minted it.
    const allowList = await collection("Allowlist Pass", "PASS");
    for (const buyer of buyers.slice(0, 10)) await (await allowList.connect(buyer).mint(buyer.address, 1n)).wait();
    await add("allow-list mint", allowList, false, ["NeverMoved"]);

    // A real project's airdrop to its holders in one transaction, some of whom then move what they received.
    const campaign = await collection("Cool Cats Season 2", "COOL2");
    await (await campaign.airdrop([...buyers.map((b) => b.address), ...randoms(18)])).wait();
    for (const [i, holder] of buyers.slice(0, 3).entries())
      await (await campaign.connect(holder).transferFrom(holder.address, buyers[11].address, BigInt(i + 1))).wait();
    await add("real airdrop campaign", campaign, false, ["MassAirdrop"]);

    // A legitimate PFP whose name holds a lure word: the rules flag it (a false positive).
    const club = await collection("Rewards Club", "RWD");
    for (const buyer of buyers.slice(0, 4)) await (await club.connect(buyer).mint(buyer.address, 1n)).wait();
    await add("PFP named with a lure word", club, false, ["LureText"]);

    // A URL-lure airdrop.
    const lure = await collection("Visit claim-drop.xyz to claim your reward", "CLAIM");
    await (await lure.airdrop(randoms(25))).wait();
    await add("URL-lure airdrop", lure, true, ["LureText", "MassAirdrop", "NeverMoved"]);

    // A mass airdrop in one transaction, with a plain name, nobody moving what they received.
    const mass = await collection("Genesis Pass", "GEN");
    await (await mass.airdrop(randoms(60))).wait();
    await add("mass one-transaction airdrop", mass, true, ["MassAirdrop", "NeverMoved"]);

    // A honeypot: minted one by one by the spammer to others, transfers locked.
    const honeypot = await collection("Lucky Token", "LUCK");
    for (const to of randoms(12)) await (await honeypot.mint(to, 1n)).wait();
    await (await honeypot.setLocked(true)).wait();
    await add("honeypot", honeypot, true, ["MintedToOthers", "NeverMoved"]);

    // A mass airdrop whose sender moves tokens between its own wallets to look alive: the rules miss it (a false negative).
    const washed = await collection("Early Access", "EA");
    await (await washed.airdrop([signers[14].address, ...randoms(39)])).wait();
    await (await washed.connect(signers[14]).transferFrom(signers[14].address, signers[15].address, 1n)).wait();
    await add("airdrop moved by its sender", washed, true, ["MassAirdrop"]);

    t = await chain.startIndexingApp({
      env: {
        SPAM_CLASSIFY_INTERVAL_MS: "50",
        SPAM_CONTRACTS: `localhost:${set.find((c) => c.name === "airdrop moved by its sender")!.address}`,
        NOT_SPAM_CONTRACTS: `localhost:${set.find((c) => c.name === "PFP named with a lure word")!.address}`,
      },
    });
    await pollUntil("every collection classified", async () => {
      const { rows } = await t.app.db.query<{ n: string }>("SELECT count(*)::text AS n FROM nft_spam_flags");
      return Number(rows[0].n) >= set.length;
    });
  });
  after(async () => chain?.close());

  const collectionOf = async (address: string) =>
    (await (await t.fetch(`/collection/localhost/${address}`)).json()) as {
      spam: { flag: boolean; reasons: string[] };
    };
  const operator = (name: string) =>
    name === "airdrop moved by its sender"
      ? "OperatorMarkedSpam"
      : name === "PFP named with a lure word"
        ? "OperatorMarkedNotSpam"
        : undefined;

  it("gives each collection of the labelled set its reasons, the operator's word first where a list names it", async function () {
    for (const c of set) {
      const { spam } = await collectionOf(c.address);
      const word = operator(c.name);
      expect(spam.reasons, c.name).to.deep.equal(word ? [word, ...c.reasons] : c.reasons);
      if (word) expect(spam.flag, c.name).to.equal(word === "OperatorMarkedSpam");
    }
  });

  it("measures the rules' precision and recall on the labelled set (the figures of docs/reference/collections.md)", async function () {
    const { rows } = await t.app.db.query<{ contract: string; flag: boolean }>(
      "SELECT '0x' || encode(contract, 'hex') AS contract, flag FROM nft_spam_flags",
    );
    const ruled = new Map(rows.map((r) => [r.contract, r.flag]));
    const counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
    for (const c of set) {
      const flag = ruled.get(c.address.toLowerCase())!;
      counts[flag ? (c.spam ? "tp" : "fp") : c.spam ? "fn" : "tn"]++;
    }
    expect(counts).to.deep.equal({ tp: 3, fp: 1, fn: 1, tn: 4 });
    expect([counts.tp / (counts.tp + counts.fp), counts.tp / (counts.tp + counts.fn)]).to.deep.equal([0.75, 0.75]);
  });

  it("keeps a verdict between reads, and classifies a collection again when its transfers change", async function () {
    const mass = set.find((c) => c.name === "mass one-transaction airdrop")!;
    const at = async () =>
      (
        await t.app.db.query<{ at: Date }>("SELECT classified_at AS at FROM nft_spam_flags WHERE contract = decode(substr($1, 3), 'hex')", [
          mass.address.toLowerCase(),
        ])
      ).rows[0].at.getTime();
    const first = await at();
    for (let i = 0; i < 3; i++) expect((await collectionOf(mass.address)).spam).to.deep.equal({ flag: true, reasons: mass.reasons });
    expect(await at()).to.equal(first);
    const pfp = set.find((c) => c.name === "PFP public sale")!;
    const cats = CollectionNFT__factory.connect(pfp.address, signers[1]);
    await (await cats.airdrop(randoms(30))).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    await pollUntil("the sale classified again", async () => (await collectionOf(pfp.address)).spam.reasons.includes("MassAirdrop"));
    expect((await collectionOf(pfp.address)).spam).to.deep.equal({ flag: false, reasons: ["MassAirdrop"] });
  });

  it("leaves flagged collections out with ?spam=exclude on the inventory, the contracts of an owner, the holders and the histories", async function () {
    const mass = set.find((c) => c.name === "mass one-transaction airdrop")!;
    const pfp = set.find((c) => c.name === "PFP public sale")!;
    const [massHolder] = (await (await t.fetch(`/holders/localhost/${mass.address}?limit=1`)).json()) as Array<{ owner: string }>;
    const json = async (path: string) => (await t.fetch(path)).json();
    expect(await json(`/holders/localhost/${mass.address}?spam=exclude`)).to.deep.equal([]);
    expect(await json(`/holders/localhost/${pfp.address}?spam=exclude&limit=1`)).to.have.length(1);
    expect(await json(`/inventory/localhost/${massHolder.owner}/${mass.address}?spam=exclude`)).to.deep.equal([]);
    expect(await json(`/inventory/localhost/${massHolder.owner}/${mass.address}`)).to.have.length(1);
    expect(await json(`/inventory/localhost/${massHolder.owner}?spam=exclude`)).to.deep.equal([]);
    expect(await json(`/inventory/localhost/${massHolder.owner}`)).to.deep.equal([mass.address]);
    expect(await json(`/inventory/localhost/${massHolder.owner}?spam=exclude&details=true`)).to.deep.equal([]);
    expect(await json(`/transfers/localhost/owner/${massHolder.owner}?spam=exclude`)).to.deep.equal([]);
    expect(await json(`/transfers/localhost/owner/${massHolder.owner}`)).to.have.length(1);
    expect(await json(`/transfers/localhost/${mass.address}/1?spam=exclude`)).to.deep.equal([]);
    expect(await json(`/transfers/localhost/${pfp.address}/1?spam=exclude`)).to.have.length(2);
  });

  it("leaves spam out at no statement of its own: no route sends more statements with ?spam=exclude than without", async function () {
    const mass = set.find((c) => c.name === "mass one-transaction airdrop")!;
    const forced = set.find((c) => c.name === "airdrop moved by its sender")!;
    const [massHolder] = (await (await t.fetch(`/holders/localhost/${mass.address}?limit=1`)).json()) as Array<{ owner: string }>;
    const { firstIndexedBlock } = (await (await t.fetch(`/collection/localhost/${mass.address}`)).json()) as { firstIndexedBlock: number };
    const recorder = recordRequestStatements(t);
    const statementsOf = async (path: string) => {
      const { answer, sent } = await recorder.during(() => t.fetch(path));
      expect(answer.status, path).to.equal(200);
      return { sent, body: await answer.text() };
    };
    try {
      for (const path of [
        `/holders/localhost/${mass.address}`,
        `/holders/localhost/${forced.address}`,
        `/holders/localhost/${mass.address}?id=1`,
        `/holders/localhost/${mass.address}?block=${firstIndexedBlock}`,
        `/holders/localhost/${mass.address}?block=${firstIndexedBlock}&format=csv`,
        `/inventory/localhost/${massHolder.owner}/${mass.address}`,
        `/inventory/localhost/${massHolder.owner}`,
        `/inventory/localhost/${massHolder.owner}?details=true`,
        `/transfers/localhost/owner/${massHolder.owner}`,
        `/transfers/localhost/${mass.address}/1`,
      ]) {
        const all = await statementsOf(path);
        // A new minute: the rate limit's sweep, in this request's context, is not spam's.
        t.clock.advance(60_000);
        const excluded = await statementsOf(`${path}${path.includes("?") ? "&" : "?"}spam=exclude`);
        expect(all.sent, path).to.have.length.above(0);
        // At a block, a flagged collection's holders are not read at all: one statement fewer.
        expect(excluded.sent.length, path).to.be.at.most(all.sent.length);
        // What was left out was there without the filter: the statements read the flags, not an empty page.
        expect(excluded.body, path).to.not.equal(all.body);
      }
    } finally {
      recorder.stop();
    }
  });
});
