import { expect } from "chai";
import { getAddress } from "ethers";
import { CollectionFactory__factory, CollectionNFT__factory, TestERC1155__factory } from "../../../typechain-types";
import { fetchJson } from "../../helpers/app";
import { indexedTo } from "../../helpers/index-check";
import { SuiteChain } from "../../helpers/suite-chain";
import { expectRefusal } from "../../helpers/refusal";
import { recordRequestStatements } from "../../helpers/request-statements";

const json = (value: unknown) => `data:application/json,${encodeURIComponent(JSON.stringify(value))}`;

describe("GET /collection/:network/:contract", function () {
  const CATS_DOCUMENT = {
    name: "Cool Cats \u202Eevil",
    description: "Cats that are cool",
    image: "ipfs://bafycats/logo.png",
    banner_image: "https://example.com/banner.png",
    featured_image: "javascript:alert(1)",
    external_link: "https://cats.example",
    collaborators: ["0x70997970c51812dc3a010c7d01b50e0d17dc79c8", "not an address"],
  };

  const suite = SuiteChain.forSuite("own", async (chain) => {
    const deployer = await chain.signer(0);
    const [a, b] = await Promise.all([1, 2].map((i) => chain.signer(i)));
    const cats = await new CollectionNFT__factory(deployer).deploy("Cool Cats", "COOL", json(CATS_DOCUMENT));
    const deployment = (await cats.deploymentTransaction()!.wait())!;
    const [catsBlock, catsTx] = [deployment.blockNumber, deployment.hash];
    const catsAddress = await cats.getAddress();
    await (await cats.mint(a.address, 3n)).wait();
    await (await cats.mint(b.address, 1n)).wait();
    await (await cats.connect(b).burn(4n)).wait();
    const hostile = await new CollectionNFT__factory(deployer).deploy(`\u202Eclaim\u0000 ${"x".repeat(300)}`, " \t ", "not a uri");
    await (await hostile.mint(a.address, 1n)).wait();
    await (await hostile.setSupplySkew(1_000_000n)).wait();
    const factory = await new CollectionFactory__factory(deployer).deploy();
    const created = (await (await factory.create("Made", "MADE")).wait())!;
    const made = CollectionNFT__factory.connect(factory.interface.parseLog(created.logs.at(-1)!)!.args.collection, deployer);
    await (await made.mint(b.address, 2n)).wait();
    const multi = await new TestERC1155__factory(deployer).deploy();
    await (await multi.mintBatch(a.address, [1n, 2n], [10n, 2n ** 70n])).wait();
    // The classifier waits past the tests: answers say Unclassified (test/server/collections/spam.test.ts classifies).
    const t = await chain.startIndexingApp({ env: { METADATA_FETCH_WAIT_MS: "5000", SPAM_CLASSIFY_INTERVAL_MS: "600000" } });
    return { deployer, a, b, cats, hostile, made, multi, catsAddress, catsBlock, catsTx, t };
  });

  const get = (path: string) => fetchJson(suite().t, path);
  const head = () => suite().chain.provider.getBlockNumber();

  it("describes a collection: standard, name, symbol, supplies, holders, indexed blocks, deployment and ERC-7572 metadata", async function () {
    const { deployer, catsAddress, catsBlock, catsTx } = suite();
    const { status, headers, body } = await get(`/collection/localhost/${catsAddress}`);
    expect(status).to.equal(200);
    const indexed = Number(headers.get("x-indexed-block"));
    expect(indexed).to.be.at.least(catsBlock + 3);
    expect(headers.get("x-index-complete")).to.equal(null);
    expect(body).to.deep.equal({
      contract: catsAddress,
      standard: "erc721",
      name: "Cool Cats",
      symbol: "COOL",
      totalSupply: 3,
      indexedSupply: 3,
      holders: 1,
      transfers: 5,
      firstIndexedBlock: catsBlock + 1,
      latestIndexedBlock: catsBlock + 3,
      indexComplete: true,
      deployment: { block: catsBlock, deployer: deployer.address, tx: catsTx },
      metadata: {
        contractURI: json(CATS_DOCUMENT),
        name: "Cool Cats \uFFFDevil",
        description: "Cats that are cool",
        image: "https://ipfs.io/ipfs/bafycats/logo.png",
        bannerImage: "https://example.com/banner.png",
        externalLink: "https://cats.example/",
        collaborators: ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"],
        error: null,
      },
      spam: { flag: false, reasons: ["Unclassified"] },
      chainBlock: Math.max(indexed, body.chainBlock),
    });
    expect(body.chainBlock).to.be.within(indexed, await head());
  });

  it("cleans and bounds hostile names, leaves out a symbol that is only whitespace, and shows a dishonest totalSupply beside the index's", async function () {
    const { hostile } = suite();
    const { body } = await get(`/collection/localhost/${await hostile.getAddress()}`);
    expect(body.name).to.equal(`\uFFFDclaim\uFFFD ${"x".repeat(199 - 8)}…`);
    expect(Array.from(body.name as string)).to.have.length(200);
    expect(body).to.not.have.property("symbol");
    expect([body.totalSupply, body.indexedSupply]).to.deep.equal([1_000_001, 1]);
    expect(body.metadata).to.deep.equal({ contractURI: "not a uri", error: "contractURI is not a URI" });
  });

  it("gives a factory-created collection's deployment block with the reason its deployer is unknown", async function () {
    const { made } = suite();
    const { body } = await get(`/collection/localhost/${await made.getAddress()}`);
    expect(body.name).to.equal("Made");
    expect(body.deployment).to.deep.equal({
      block: body.firstIndexedBlock - 1,
      deployer: null,
      tx: null,
      reason:
        "created by another contract (a factory or CREATE2): no transaction of its block names it, and the node's traces are not read",
    });
  });

  it("leaves out what an ERC-1155 contract without name, symbol or totalSupply does not answer", async function () {
    const { multi } = suite();
    const { body } = await get(`/collection/localhost/${await multi.getAddress()}`);
    expect(Object.keys(body)).to.not.include.members(["name", "symbol", "totalSupply"]);
    expect(body).to.deep.include({ standard: "erc1155", indexedSupply: 10 + 2 ** 70, holders: 1, transfers: 2 });
    expect(body.metadata).to.deep.equal({ contractURI: null, error: "contractURI() reverted" });
  });

  it("keeps the contract-level metadata cached until ContractURIUpdated, then reads it again", async function () {
    const { cats, catsAddress, t, chain } = suite();
    const path = `/collection/localhost/${catsAddress}`;
    await (await cats.replaceContractURIQuietly(json({ name: "Quiet" }))).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect((await get(path)).body.metadata.name).to.equal("Cool Cats \uFFFDevil");
    await (await cats.setContractURI(json({ name: "Announced" }))).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect((await get(path)).body.metadata).to.deep.equal({ contractURI: json({ name: "Announced" }), name: "Announced", error: null });
  });

  it("refuses an unknown network, a bad address and a contract the index holds nothing of", async function () {
    const { a, catsAddress } = suite();
    await expectRefusal(await get(`/collection/nowhere/${catsAddress}`), 400, "unknown_network");
    await expectRefusal(await get(`/collection/localhost/0x123`), 400, "invalid_address", {
      message: "contract must be 0x followed by 40 hex digits",
    });
    await expectRefusal(await get(`/collection/localhost/${a.address}`), 404, "not_found", {
      message: `The index of localhost holds no transfer of ${a.address.toLowerCase()}`,
    });
  });

  it("gives the same summaries on the contracts of an owner with details=true, in one statement for the page", async function () {
    const { a, hostile, multi, catsAddress, t } = suite();
    // Each read alone first: its deployment found and its document cached, which the page then reads with the rest.
    const alone = await Promise.all(
      [catsAddress, await hostile.getAddress(), await multi.getAddress()].map(async (c) => (await get(`/collection/localhost/${c}`)).body),
    );
    const recorder = recordRequestStatements(t);
    const { answer: page, sent } = await recorder
      .during(() => get(`/inventory/localhost/${a.address}?details=true`))
      .finally(recorder.stop);
    expect(page.status).to.equal(200);
    const contracts = [catsAddress, await hostile.getAddress(), await multi.getAddress()].sort((x, y) =>
      x.toLowerCase() < y.toLowerCase() ? -1 : 1,
    );
    expect(page.body.map((c: { contract: string }) => c.contract)).to.deep.equal(contracts);
    for (const one of alone) expect(page.body.find((c: { contract: string }) => c.contract === one.contract)).to.deep.equal(one);
    // The page's summaries, deployments and cached documents in one statement, however many contracts.
    expect(sent, sent.join("\n\n")).to.have.length(1);
    const plain = await get(`/inventory/localhost/${a.address}`);
    expect(plain.body).to.deep.equal(contracts);
  });

  it("keeps the summaries equal to a recount after transfers, burns and a reorg", async function () {
    const { b, cats, catsAddress, t, chain } = suite();
    const snapshot = await chain.provider.send("evm_snapshot", []);
    await (await cats.mint(b.address, 2n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect((await get(`/collection/localhost/${catsAddress}`)).body).to.deep.include({ indexedSupply: 5, transfers: 7, holders: 2 });
    await chain.provider.send("evm_revert", [snapshot]);
    await chain.provider.send("hardhat_mine", ["0x3"]);
    await indexedTo(t.app.db, "localhost", chain.provider);
    expect((await get(`/collection/localhost/${catsAddress}`)).body).to.deep.include({ indexedSupply: 3, transfers: 5, holders: 1 });
    const { rows } = await t.app.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM nft_contract_summaries s
       WHERE s.transfers <> (SELECT count(*) FROM nft_transfers t JOIN nft_addresses c ON c.id = t.contract_id WHERE c.address = s.contract)
         + (SELECT count(*) FROM nft_1155_transfers t JOIN nft_addresses c ON c.id = t.contract_id WHERE c.address = s.contract)`,
    );
    expect(rows[0].n).to.equal("0");
    expect(getAddress(catsAddress)).to.equal(catsAddress);
  });
});
