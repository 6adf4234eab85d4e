import { expect } from "chai";
import { getAddress, ZeroAddress } from "ethers";
import { RANGE_MAX_ROWS } from "../../../server/indexer/ranges";
import { EventEmitterNFT__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { inOneBlock } from "../../helpers/chain";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { indexedTo } from "../../helpers/index-check";
import { addressId, networkIdOf } from "../../helpers/index-sql";
import { SuiteChain } from "../../helpers/suite-chain";

const PER_LOG = 8_000;
const BLOCKS = 3;

/**
 * An ERC-1155 TransferBatch is one log that moves as many ids as its gas buys (about 70,000 in a block of 30 million
 * gas): a range is sized by the rows its logs write, and a range of several blocks whose logs would write more than
 * RANGE_MAX_ROWS is asked again in fewer blocks before anything is written.
 */
describe("indexer: ranges sized by the ids of ERC-1155 batches", function () {
  this.timeout(180_000);
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const to = (await chain.signer(1)).address.toLowerCase();
    const emitter = await new EventEmitterNFT__factory(await chain.signer(0)).deploy();
    // Three blocks of two batches: 16,000 ids each, 48,000 in the three, all within the indexer's first range.
    for (let block = 0; block < BLOCKS; block++)
      await inOneBlock(
        chain.provider,
        [0, 1].map((i) => () => emitter.transferBatch1155(ZeroAddress, to, BigInt((block * 2 + i) * PER_LOG), BigInt(PER_LOG))),
      );
    const t = chain.closesWith(await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50", LOG_LEVEL: "warn" } }));
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 150_000);
    return { t, to, contract: (await emitter.getAddress()).toLowerCase() };
  });

  it("indexes every id, in ranges whose transactions write at most RANGE_MAX_ROWS transfers", async function () {
    const { t, to, contract } = suite();
    expect(BLOCKS * 2 * PER_LOG).to.be.above(RANGE_MAX_ROWS);
    const { rows } = await t.app.db.query<{ n: number; ids: number; first: string; last: string }>(
      `SELECT count(*)::int AS n, count(DISTINCT token_id)::int AS ids, min(token_id)::text AS first, max(token_id)::text AS last
       FROM nft_1155_transfers WHERE network_id = ${networkIdOf("'localhost'")} AND contract_id = ${addressId("$1")} AND to_id = ${addressId("$2")}`,
      [contract, to],
    );
    expect(rows[0]).to.deep.equal({
      n: BLOCKS * 2 * PER_LOG,
      ids: BLOCKS * 2 * PER_LOG,
      first: "0",
      last: String(BLOCKS * 2 * PER_LOG - 1),
    });
    const { rows: ranges } = await t.app.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM nft_1155_transfers GROUP BY xmin::text ORDER BY n DESC LIMIT 1",
    );
    expect(ranges[0].n).to.be.at.most(RANGE_MAX_ROWS);
    const holders = await t.fetch(`/holders/localhost/${contract}`);
    expect(holders.status).to.equal(200);
    expect(await holders.json()).to.deep.equal([{ owner: getAddress(to), count: BLOCKS * 2 * PER_LOG }]);
    await expectHoldingsMatchRecount(t.app.db, "localhost");
  });
});
