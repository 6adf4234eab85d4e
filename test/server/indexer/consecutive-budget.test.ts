import { expect } from "chai";
import { ZeroAddress } from "ethers";
import { EventEmitterNFT__factory, type EventEmitterNFT } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { inOneBlock } from "../../helpers/chain";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { INDEXED_OWNERS, indexedTo } from "../../helpers/index-check";
import { sample } from "../../helpers/metrics";
import { SuiteChain } from "../../helpers/suite-chain";

const PER_LOG = 5_000;
const PER_BLOCK = 12_000;

/**
 * A ConsecutiveTransfer log of a few thousand gas claims up to INDEXER_MAX_CONSECUTIVE ids, and a block holds
 * thousands of such logs: the ids the logs of one block are expanded into are bounded too
 * (INDEXER_MAX_CONSECUTIVE_PER_BLOCK), in log order, and a range of several blocks is cut before it expands more.
 */
describe("indexer: ConsecutiveTransfer ids expanded per block (INDEXER_MAX_CONSECUTIVE_PER_BLOCK)", function () {
  this.timeout(180_000);
  const lines: Array<Record<string, unknown>> = [];

  /** The ids of `contract` the index gives an owner, ascending. */
  async function ownedIds(contract: EventEmitterNFT): Promise<number[]> {
    const { rows } = await suite().t.app.db.query<{ token_id: string }>(
      `SELECT token_id FROM ${INDEXED_OWNERS} WHERE network = 'localhost' AND contract = $1 ORDER BY token_id`,
      [(await contract.getAddress()).toLowerCase()],
    );
    return rows.map((r) => Number(r.token_id));
  }
  const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

  const suite = SuiteChain.forSuite("own", async (chain) => {
    const deployer = await chain.signer(0);
    const to = (await chain.signer(1)).address;
    /** Each block's logs fit the budget, but not their range's. */
    const spread = await new EventEmitterNFT__factory(deployer).deploy();
    /** One block whose logs pass the budget. */
    const crowded = await new EventEmitterNFT__factory(deployer).deploy();
    const mint =
      (contract: EventEmitterNFT, first: number, count = PER_LOG) =>
      () =>
        contract.consecutive(BigInt(first), BigInt(first + count - 1), ZeroAddress, to);
    // Three blocks of two full logs: 10,000 ids each, 30,000 in the three.
    for (let block = 0; block < 3; block++)
      await inOneBlock(chain.provider, [mint(spread, block * 2 * PER_LOG), mint(spread, (block * 2 + 1) * PER_LOG)]);
    // One block: 5,000 + 5,000 fit; the third and fourth would pass 12,000; a last one of 2,000 still fits.
    await inOneBlock(chain.provider, [
      mint(crowded, 0),
      mint(crowded, 5_000),
      mint(crowded, 10_000),
      mint(crowded, 15_000),
      mint(crowded, 20_000, 2_000),
    ]);
    const t = chain.closesWith(
      await startTestApp({
        env: {
          RPC_URL_LOCALHOST: chain.url,
          INDEXER_POLL_MS: "50",
          INDEXER_MAX_CONSECUTIVE_PER_BLOCK: String(PER_BLOCK),
          LOG_LEVEL: "warn",
        },
        logStream: { write: (line) => void lines.push(JSON.parse(line)) },
      }),
    );
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 150_000);
    return { t, spread, crowded };
  });

  it("expands every id of blocks within the budget, in ranges cut to fit it", async function () {
    const { t, spread } = suite();
    expect(await ownedIds(spread)).to.deep.equal(range(0, 6 * PER_LOG));
    const { rows } = await t.app.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM nft_skipped_ranges WHERE network = 'localhost' AND contract = $1",
      [(await spread.getAddress()).toLowerCase()],
    );
    expect(rows[0].n).to.equal(0);
    expect((await t.fetch(`/holders/localhost/${await spread.getAddress()}`)).headers.get("x-index-complete")).to.equal(null);
    // Each range is written by a transaction of its own: none wrote more transfers than one block may expand.
    const { rows: ranges } = await t.app.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM nft_transfers GROUP BY xmin::text ORDER BY n DESC LIMIT 1",
    );
    expect(ranges[0].n).to.be.at.most(PER_BLOCK);
  });

  it("expands a crowded block's logs in log order while they fit, and records the others as skipped", async function () {
    const { t, crowded } = suite();
    expect(await ownedIds(crowded)).to.deep.equal([...range(0, 10_000), ...range(20_000, 2_000)]);
    const address = await crowded.getAddress();
    const { rows } = await t.app.db.query<{ from_token_id: string; to_token_id: string }>(
      `SELECT from_token_id::text, to_token_id::text FROM nft_skipped_ranges WHERE network = 'localhost' AND contract = $1
       ORDER BY log_index`,
      [address.toLowerCase()],
    );
    expect(rows).to.deep.equal([
      { from_token_id: "10000", to_token_id: "14999" },
      { from_token_id: "15000", to_token_id: "19999" },
    ]);
    expect((await t.fetch(`/holders/localhost/${address}`)).headers.get("x-index-complete")).to.equal("false");
    const warned = lines.filter((l) => String(l.msg).startsWith("indexer: ConsecutiveTransfer range not expanded"));
    expect(warned.map((l) => [l.contract, l.fromTokenId, l.maxPerBlock])).to.deep.equal([
      [address.toLowerCase(), "10000", PER_BLOCK],
      [address.toLowerCase(), "15000", PER_BLOCK],
    ]);
    const metrics = await t.app.metrics!.registry.metrics();
    expect(sample(metrics, "indexer_ranges_skipped_total", { network: "localhost" })).to.equal(2);
    await expectHoldingsMatchRecount(t.app.db, "localhost");
  });
});

describe("indexer: a small INDEXER_MAX_CONSECUTIVE_PER_BLOCK and a range the sizer widens", function () {
  this.timeout(120_000);
  const suite = SuiteChain.forSuite("own", async () => ({}));

  it("goes on past two blocks whose ranges fit each alone but not together, however quick the answers", async function () {
    const { chain } = suite();
    const to = (await chain.signer(1)).address;
    const emitter = await new EventEmitterNFT__factory(await chain.signer(0)).deploy();
    // 600 ids in each of two blocks, with a budget of 1,000: a full first range of quick, small answers, which the
    // sizer widens, holds 1,200.
    await (await emitter.consecutive(0n, 599n, ZeroAddress, to)).wait();
    await (await emitter.consecutive(600n, 1_199n, ZeroAddress, to)).wait();
    for (let i = 0; i < 30; i++) await chain.provider.send("evm_mine", []);
    const t = chain.closesWith(
      await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50", INDEXER_MAX_CONSECUTIVE_PER_BLOCK: "1000" } }),
    );
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 60_000);
    const { rows } = await t.app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${INDEXED_OWNERS} WHERE contract = $1`, [
      (await emitter.getAddress()).toLowerCase(),
    ]);
    expect(rows[0].n).to.equal(1_200);
  });
});
