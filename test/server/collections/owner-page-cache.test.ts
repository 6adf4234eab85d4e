import { expect } from "chai";
import { recordSpamVerdicts } from "../../../server/indexer";
import { CollectionNFT__factory, type CollectionNFT } from "../../../typechain-types";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { pollUntil } from "../../helpers/waiters";

const json = (value: unknown) => `data:application/json,${encodeURIComponent(JSON.stringify(value))}`;

interface Described {
  contract: string;
  holders: number;
  transfers: number;
  indexedSupply: number;
  deployment: { block: number | null; reason?: string };
  metadata: { name?: string; error: string | null };
  spam: { flag: boolean; reasons: string[] };
}

/**
 * A page of the contracts of an owner with details is served again without being described again while its statement
 * finds the same values (docs/reference/collections.md#the-contracts-of-an-owner-with-details): each change it shows
 * is seen at once, including those that come without a new block.
 */
describe("the contracts of an owner with details, described once", function () {
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const [deployer, a] = await Promise.all([0, 1].map((i) => chain.signer(i)));
    const cats = await new CollectionNFT__factory(deployer).deploy("Cats", "CAT", json({ name: "Cats" }));
    await (await cats.mint(a.address, 2n)).wait();
    const dogs = await new CollectionNFT__factory(deployer).deploy("Dogs", "DOG", json({ name: "Dogs" }));
    await (await dogs.mint(a.address, 1n)).wait();
    // The classifier waits past the test: a verdict changes only when the test writes one.
    const t = await chain.startIndexingApp({ env: { METADATA_FETCH_WAIT_MS: "5000", SPAM_CLASSIFY_INTERVAL_MS: "600000" } });
    return { a, cats, dogs, t };
  });

  async function page(query = ""): Promise<Described[]> {
    const { t, a } = suite();
    const response = await t.fetch(`/inventory/localhost/${a.address}?details=true${query}`);
    expect(response.status).to.equal(200);
    return (await response.json()) as Described[];
  }
  const one = async (contract: CollectionNFT, query = "") => {
    const address = await contract.getAddress();
    return (await page(query)).find((c) => c.contract === address);
  };
  const alone = async (contract: CollectionNFT) =>
    (await (await suite().t.fetch(`/collection/localhost/${await contract.getAddress()}`)).json()) as Described;

  it("shows a stored deployment, a new verdict, a new transfer and a ContractURIUpdated at once", async function () {
    const { a, cats, dogs, t, chain } = suite();
    const dogsAddress = await dogs.getAddress();
    // Every document cached (a page with one missing or stale is described anew), then the page described and kept.
    await alone(cats);
    await pollUntil("the dogs' document cached", async () => (await one(dogs))!.metadata.error !== "pending");
    const before = await page();
    expect(await page()).to.deep.equal(before);
    expect(before.find((c) => c.contract === dogsAddress)?.deployment.reason).to.match(/not looked up/);
    expect((await page("&spam=exclude")).map((c) => c.contract)).to.include(dogsAddress);

    // A deployment found and stored by the collection route: no block, no transfer.
    const found = (await alone(dogs)).deployment;
    expect(found.block).to.be.a("number");
    expect((await one(dogs))!.deployment).to.deep.equal(found);

    // A verdict stored (as the classifier stores it, or an operator's reclassification): no block either.
    await recordSpamVerdicts(t.app.db, "localhost", [
      { contract: dogsAddress.toLowerCase(), flag: true, reasons: ["MassAirdrop"], transfers: 1 },
    ]);
    expect((await one(dogs))!.spam).to.deep.equal({ flag: true, reasons: ["MassAirdrop"] });
    expect((await page("&spam=exclude")).map((c) => c.contract)).to.not.include(dogsAddress);

    // A new transfer: the page's counts are the collection's.
    await (await cats.mint(a.address, 1n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const counted = await alone(cats);
    expect(await one(cats)).to.deep.include({ holders: counted.holders, transfers: 3, indexedSupply: 3 });

    // ContractURIUpdated: the document is read again, and the page shows the new one.
    await (await cats.setContractURI(json({ name: "Announced" }))).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    await pollUntil("the page shows the announced document", async () => (await one(cats))!.metadata.name === "Announced");
  });

  it("reads an expired document again, though nothing the statement reads changed", async function () {
    const { cats, t, chain } = suite();
    await pollUntil("the page shows the announced document", async () => (await one(cats))!.metadata.name === "Announced");
    // A new document without ContractURIUpdated: the cached one is served until it expires (as the collection route does).
    await (await cats.replaceContractURIQuietly(json({ name: "Quiet" }))).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect((await one(cats))!.metadata.name).to.equal("Announced");
    expect((await one(cats))!.metadata.name).to.equal("Announced");
    t.clock.advance(t.config.tokenMetadata.ttlMs + 1);
    await pollUntil("the page shows the document read again", async () => (await one(cats))!.metadata.name === "Quiet");
  });
});
