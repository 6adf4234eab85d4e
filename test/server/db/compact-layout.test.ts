import { expect } from "chai";
import type { Database } from "../../../server/db/database";
import { migrate, readMigrations } from "../../../server/db/migrate";
import { rawRpc } from "../../../server/chain/raw-rpc";
import { decodeLogs, INDEXED_TOPICS, type RawLog } from "../../../server/indexer/transfers";
import { AliceNFT__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { backendName, createTestDatabase, type TestDatabase } from "../../helpers/database";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { expectIndexMatchesChain, indexedTo } from "../../helpers/index-check";
import { ZERO_ADDRESS } from "../../../server/indexer/transfers";
import { SuiteChain } from "../../helpers/suite-chain";
import {
  fillLegacyIndex,
  LEGACY_NETWORKS,
  legacyAddress,
  legacyReads,
  legacySample,
  migrationsBeforeCompact,
  serviceReads,
  writeLegacyRange,
} from "../../../support/legacy-index";

/** Small enough for every test run; `npm run bench -- migration` moves a million transfers and more. */
const SHAPE = { tokens: 3_000, contracts: 12, owners: 400 };

const columns = async (db: Database, table: string) =>
  (
    await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position",
      [table],
    )
  ).rows.map((r) => r.column_name);

describe(`the compact index layout's migration (${backendName})`, function () {
  let testDb: TestDatabase;
  let db: Database;
  let before: Record<string, unknown>;
  const sample = legacySample(SHAPE, 12);

  beforeEach(async function () {
    testDb = await createTestDatabase({ unmigrated: true });
    db = await testDb.open();
    await migrate(db, migrationsBeforeCompact());
    await fillLegacyIndex(db, SHAPE);
    before = await legacyReads(db, sample);
  });
  afterEach(async function () {
    await testDb.drop();
  });

  it("moves an index of the text layout: every read answers what it answered before", async function () {
    expect((await migrate(db)).map((m) => m.version)).to.include.members([260, 261, 264]);
    expect(await columns(db, "nft_transfers")).to.not.include("block_hash");
    expect(await columns(db, "nft_1155_transfers")).to.not.include("block_hash");
    const after = await serviceReads(db, sample);
    expect(Object.keys(after)).to.deep.equal(Object.keys(before));
    for (const key of Object.keys(before)) expect(after[key], key).to.deep.equal(before[key]);
    // The sample reaches what the layout changes: several pages, burned tokens, ids above 2^200, missing times, ERC-1155.
    const history = before[`history mainnet ${sample.owners[1]}`] as unknown[];
    expect(history.length).to.be.above(7);
    const burned = sample.tokens[1];
    expect(before[`token ${burned.network} ${burned.contract} ${burned.tokenId}`]).to.equal(null);
    expect(Object.keys(before).some((k) => k.startsWith("token history") && /\d{60}/.test(k))).to.equal(true);
    expect(transfersIn(before).some((t) => t.time === null)).to.equal(true);
    expect(transfersIn(before).some((t) => t.value !== undefined)).to.equal(true);
    expectErc1155Reached(before);
  });

  /**
   * The transfers of every history read, as the wire writes them: parsed to see what the sample reaches (ids and amounts
   * lose digits in JSON.parse, which these checks do not read).
   */
  function transfersIn(reads: Record<string, unknown>) {
    return Object.entries(reads)
      .filter(([key]) => key.includes("history"))
      .flatMap(([, transfers]) =>
        (transfers as string[]).map(
          (t) => JSON.parse(t) as { time: number | null; value?: number; batchIndex?: number; from: string; to: string },
        ),
      );
  }

  /** The sample reaches what moving the ERC-1155 rows changes: batch positions, moves between owners, balances, holders. */
  function expectErc1155Reached(reads: Record<string, unknown>) {
    const transfers1155 = transfersIn(reads).filter((t) => t.value !== undefined);
    expect(transfers1155.some((t) => t.batchIndex! > 0)).to.equal(true);
    expect(transfers1155.some((t) => t.from !== ZERO_ADDRESS && t.to !== ZERO_ADDRESS)).to.equal(true);
    expect(transfers1155.some((t) => t.time === null)).to.equal(true);
    const token = (n: number) => `${LEGACY_NETWORKS[n % 2]} ${legacyAddress(3, n % 2)}`;
    expect(reads[`token ${token(0)} 0`])
      .to.be.an("array")
      .with.length.above(0);
    expect(reads[`token holders ${token(1)} 1`])
      .to.be.an("array")
      .with.length.above(0);
    expect(reads[`token history ${token(0)} ${2n ** 200n + 4n}`])
      .to.be.an("array")
      .with.length.above(0);
  }

  /**
   * A deployment that applied every migration but 0264 before it was written: the index's later migrations (0270 on)
   * are written for its layout and come after it, so they are pending too.
   */
  const appliedBefore0264 = (m: { version: number }) => m.version < 264 || m.version >= 300;
  const INDEX_FROM_0264 = readMigrations()
    .map((m) => m.version)
    .filter((version) => version >= 264 && version < 300);

  it("moves the ERC-1155 rows of an index already in the compact ERC-721 layout: every read answers as before", async function () {
    // 0264 (and the index's migrations after it) run last, after 0303 and 0400.
    await migrate(db, readMigrations().filter(appliedBefore0264));
    expect(await columns(db, "nft_1155_transfers")).to.include.members(["network", "contract", "block_hash"]);
    expect((await migrate(db)).map((m) => m.version)).to.deep.equal(INDEX_FROM_0264);
    // One layout: the ERC-721 transfers' columns, then the amount; balances keyed as holdings.
    expect(await columns(db, "nft_1155_transfers")).to.deep.equal([...(await columns(db, "nft_transfers")), "amount"]);
    expect(await columns(db, "nft_balances")).to.deep.equal(["network_id", "contract", "owner", "token_id", "balance"]);
    const after = await serviceReads(db, sample);
    expect(Object.keys(after)).to.deep.equal(Object.keys(before));
    for (const key of Object.keys(before)) expect(after[key], key).to.deep.equal(before[key]);
    expectErc1155Reached(after);
  });

  it("leaves the ERC-1155 text layout whole when 0264 stops part way, and the next start moves it", async function () {
    await migrate(db, readMigrations().filter(appliedBefore0264));
    const count = async (table: string) => Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    const counts = {
      transfers: await count("nft_1155_transfers"),
      balances: await count("nft_balances"),
      addresses: await count("nft_addresses"),
    };
    const failing = readMigrations().map((m) => (m.version === 264 ? { ...m, sql: `${m.sql}\nSELECT 1 / 0;` } : m));
    await migrate(db, failing).then(
      () => expect.fail("the migration should have failed"),
      (error: Error) => expect(error.message).to.match(/division by zero/),
    );
    expect(await columns(db, "nft_1155_transfers")).to.include.members(["network", "contract", "block_hash"]);
    expect(await columns(db, "nft_balances")).to.include("network");
    expect({
      transfers: await count("nft_1155_transfers"),
      balances: await count("nft_balances"),
      addresses: await count("nft_addresses"),
    }).to.deep.equal(counts);
    expect((await migrate(db)).map((m) => m.version)).to.deep.equal(INDEX_FROM_0264);
    expect(await count("nft_1155_transfers")).to.equal(counts.transfers);
    expect(await count("nft_balances")).to.equal(counts.balances);
    const after = await serviceReads(db, sample);
    for (const key of Object.keys(before)) expect(after[key], key).to.deep.equal(before[key]);
  });

  it("leaves the text layout whole when it stops part way, and the next start moves it", async function () {
    // The migration's own SQL, failing after its last statement: everything it did is rolled back with it.
    const failing = readMigrations()
      .filter((m) => m.version >= 260)
      .map((m) => (m.version === 261 ? { ...m, sql: `${m.sql}\nSELECT 1 / 0;` } : m));
    await migrate(db, [...migrationsBeforeCompact(), ...failing]).then(
      () => expect.fail("the migration should have failed"),
      (error: Error) => expect(error.message).to.match(/division by zero/),
    );
    expect(await columns(db, "nft_transfers")).to.include("block_hash");
    expect(await columns(db, "nft_addresses")).to.deep.equal([]);
    expect(await legacyReads(db, sample)).to.deep.equal(before);
    expect((await migrate(db)).map((m) => m.version)).to.include.members([260, 261]);
    const after = await serviceReads(db, sample);
    for (const key of Object.keys(before)) expect(after[key], key).to.deep.equal(before[key]);
  });

  it("an index of a real chain in the text layout: after the migration the indexer goes on from its cursor to the head", async function () {
    const chain = await SuiteChain.ownNode();
    try {
      const deployer = await chain.provider.getSigner(0);
      const [first, second] = await Promise.all([1, 2].map((i) => chain.provider.getSigner(i)));
      const alice = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
      const contract = await alice.getAddress();
      await (await alice.mintBatch(first.address, [1n, 2n, 3n, 4n])).wait();
      await (await alice.connect(first).transferFrom(first.address, second.address, 2n)).wait();
      await (await alice.connect(first).burn(3n)).wait();
      // Indexed by the old layout up to here.
      const cursor = await chain.provider.getBlock("latest");
      await (await alice.mintBatch(second.address, [5n, 6n])).wait();
      await (await alice.connect(second).transferFrom(second.address, first.address, 2n)).wait();
      await (await alice.connect(first).burn(1n)).wait();

      const logs = await rawRpc<RawLog[]>(chain.provider, "eth_getLogs", [
        { fromBlock: "0x0", toBlock: `0x${cursor!.number.toString(16)}`, topics: [INDEXED_TOPICS] },
      ]);
      const blocks = await Promise.all(
        Array.from({ length: cursor!.number + 1 }, async (_, n) => ({ block: n, hash: (await chain.provider.getBlock(n))!.hash! })),
      );
      await writeLegacyRange(db, "localhost", decodeLogs(logs, 5_000, 50_000).transfers, blocks, {
        block: cursor!.number,
        hash: cursor!.hash!,
      });

      const app = await startTestApp({ database: testDb, env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50" } });
      try {
        await indexedTo(db, "localhost", chain.provider);
        await expectIndexMatchesChain(db, chain.provider, "localhost", contract, [1n, 2n, 3n, 4n, 5n, 6n]);
        await expectHoldingsMatchRecount(db, "localhost");
        const history = (await (await app.fetch(`/transfers/localhost/${contract}/2`)).json()) as Array<{ to: string }>;
        expect(history.map((h) => h.to)).to.deep.equal([first.address, second.address, first.address]);
      } finally {
        await app.close();
      }
    } finally {
      await chain.close();
    }
  });
});
