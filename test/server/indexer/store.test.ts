import { expect } from "chai";
import { getAddress } from "ethers";
import { readCursor, recentBlocks, REORG_WINDOW } from "../../../server/indexer/store/blocks";
import { historyPage, newestFirst, type HistoryItem } from "../../../server/indexer/store/history";
import {
  byDecimal,
  changesAfter,
  contractsPage,
  holderCount,
  holdersPage,
  inventoryPage,
  lastChangeId,
  listedPage,
  networkChangesAfter,
  selectedChangesAfter,
  tokenHolding,
} from "../../../server/indexer/store/reads";
import { rollBack } from "../../../server/indexer/store/rollback";
import { addressIds } from "../../../server/indexer/store/ids";
import { writeRange } from "../../../server/indexer/store/writes";
import { ZERO_ADDRESS, type Transfer, type Transfer1155 } from "../../../server/indexer/transfers";
import { expectHoldingsMatchRecount } from "../../helpers/holdings-check";
import { hash } from "../../helpers/raw-logs";
import { databaseForSuite } from "../../helpers/suite-database";
import { usingPostgres } from "../../helpers/database";
import { pollUntil } from "../../helpers/waiters";

/** The index store's reads over a range written by its writer, without a chain: what each typed read gives back. */
describe("index store reads", function () {
  const network = "localhost";
  const A = `0x${"a".repeat(40)}`;
  const B = `0x${"b".repeat(40)}`;
  const NOBODY = `0x${"c".repeat(40)}`;
  const ERC721 = `0x${"1".repeat(40)}`;
  const ERC1155 = `0x${"2".repeat(40)}`;
  const suite = databaseForSuite();

  const transfer = (block: number, logIndex: number, tokenId: bigint, from: string, to: string): Transfer => ({
    blockNumber: block,
    blockHash: hash(block),
    logIndex,
    txHash: hash(1000 + block * 10 + logIndex),
    contract: ERC721,
    tokenId,
    from,
    to,
    blockTime: 1_700_000_000 + block,
  });
  const transfer1155 = (block: number, logIndex: number, tokenId: bigint, to: string, amount: bigint): Transfer1155 => ({
    ...transfer(block, logIndex, tokenId, ZERO_ADDRESS, to),
    contract: ERC1155,
    batchIndex: 0,
    amount,
  });

  /** A history item's wire form (these tests' ids and amounts are small enough for JSON.parse). */
  const wire = (item: HistoryItem) => JSON.parse(item.json) as { from: string; to: string; contract: string };

  /** Writes a range of transfers ending at `block`: cold and of ERC-721 transfers only unless `more` says otherwise. */
  const write = (block: number, transfers: Transfer[], more: { transfers1155?: Transfer1155[]; live?: boolean } = {}) =>
    suite().db.transaction((tx) =>
      writeRange(tx, { network, transfers, ...more, last: { block, hash: hash(block) }, hashes: [{ block, hash: hash(block) }] }),
    );

  it("reads nothing of a network whose index has not started", async function () {
    const { db } = suite();
    expect(await readCursor(db, network)).to.equal(undefined);
    expect(await inventoryPage(db, { network, owner: A, contract: ERC721, limit: 10 })).to.equal(undefined);
    expect(await contractsPage(db, { network, owner: A, limit: 10 })).to.equal(undefined);
    expect(await holdersPage(db, { network, contract: ERC721, limit: 10 })).to.equal(undefined);
    expect(await holderCount(db, network, ERC721)).to.equal(undefined);
    expect(await historyPage(db, { network, of: { owner: A }, limit: 10 })).to.equal(undefined);
    expect(await tokenHolding(db, network, ERC721, 1n)).to.deep.equal({ indexed: null });
    expect(await lastChangeId(db)).to.equal(0n);

    // Block 10: ERC-721 ids 1–3 minted to A, ERC-1155 id 7 to A (5) and B (3). Block 11: id 2 from A to B.
    const range10 = [transfer(10, 0, 1n, ZERO_ADDRESS, A), transfer(10, 1, 2n, ZERO_ADDRESS, A), transfer(10, 2, 3n, ZERO_ADDRESS, A)];
    const range10x1155 = [transfer1155(10, 3, 7n, A, 5n), transfer1155(10, 4, 7n, B, 3n)];
    await write(10, range10, { transfers1155: range10x1155, live: true });
    await write(11, [transfer(11, 0, 2n, A, B)], { live: true });
    expect(await readCursor(db, network)).to.deep.equal({ block: 11, hash: hash(11) });
  });

  it("pages an owner's tokens in id order, cut to the limit, with the key to continue after only when more follow", async function () {
    const { db } = suite();
    const first = await inventoryPage(db, { network, owner: A, contract: ERC721, limit: 1 });
    expect(first).to.deep.equal({ indexed: 11, items: [{ tokenId: "1", balance: null }], next: ["1"] });
    const second = await inventoryPage(db, { network, owner: A, contract: ERC721, after: "1", limit: 1 });
    expect(second).to.deep.equal({ indexed: 11, items: [{ tokenId: "3", balance: null }], next: undefined });
    expect(await inventoryPage(db, { network, owner: B, contract: ERC1155, limit: 10 })).to.deep.equal({
      indexed: 11,
      items: [{ tokenId: "7", balance: "3" }],
      next: undefined,
    });
    // An index that started but holds nothing for the owner: an empty page, not "not indexed".
    expect(await inventoryPage(db, { network, owner: NOBODY, contract: ERC721, limit: 10 })).to.deep.equal({
      indexed: 11,
      items: [],
      next: undefined,
    });
  });

  it("pages the contracts an owner holds and the holders of a contract or of one token, and counts holders", async function () {
    const { db } = suite();
    expect(await contractsPage(db, { network, owner: A, limit: 1 })).to.deep.equal({
      indexed: 11,
      items: [{ contract: ERC721, spam: null }],
      next: [ERC721],
    });
    expect(await contractsPage(db, { network, owner: A, after: ERC721, limit: 1 })).to.deep.equal({
      indexed: 11,
      items: [{ contract: ERC1155, spam: null }],
      next: undefined,
    });
    expect(await holdersPage(db, { network, contract: ERC721, limit: 10 })).to.deep.equal({
      indexed: 11,
      items: [
        { owner: A, count: "2" },
        { owner: B, count: "1" },
      ],
      next: undefined,
    });
    expect(await holdersPage(db, { network, contract: ERC1155, tokenId: "7", limit: 1 })).to.deep.equal({
      indexed: 11,
      items: [{ owner: A, count: "5" }],
      next: [A],
    });
    expect(await holderCount(db, network, ERC721)).to.deep.equal({ indexed: 11, holders: 2 });
    expect(await holderCount(db, network, NOBODY)).to.deep.equal({ indexed: 11, holders: 0 });
  });

  it("pages transfers newest first, keyed by block, log index and batch index", async function () {
    const { db } = suite();
    const keys = (page: Awaited<ReturnType<typeof historyPage>>) => page!.items.map((t) => `${t.block_number}/${t.log_index}`);
    const first = await historyPage(db, { network, of: { owner: A }, limit: 2 });
    expect(keys(first)).to.deep.equal(["11/0", "10/3"]);
    expect(first!.next).to.deep.equal(["10", "3", "0"]);
    const second = await historyPage(db, { network, of: { owner: A }, before: ["10", "3", "0"], limit: 3 });
    expect(keys(second)).to.deep.equal(["10/2", "10/1", "10/0"]);
    expect(second!.next).to.equal(undefined);
    const token = await historyPage(db, { network, of: { contract: ERC721, tokenId: "2" }, limit: 10 });
    expect(token!.items.map((t) => [wire(t).from, wire(t).to])).to.deep.equal([
      [getAddress(A), getAddress(B)],
      [ZERO_ADDRESS, getAddress(A)],
    ]);
  });

  it("keeps each address's EIP-55 form in the dictionary, and a history page reads it from there", async function () {
    const { db } = suite();
    const { rows } = await db.query<{ address: string; eip55: string | null }>(
      "SELECT '0x' || encode(address, 'hex') AS address, eip55 FROM nft_addresses ORDER BY id",
    );
    expect(rows.map((r) => r.address)).to.include.members([A, B, ERC721, ERC1155, ZERO_ADDRESS]);
    for (const r of rows) expect(r.eip55, r.address).to.equal(getAddress(r.address));
    const token = await historyPage(db, { network, of: { contract: ERC721, tokenId: "2" }, limit: 10 });
    expect(token!.items.map((t) => [t.checksummed, wire(t).from, wire(t).to, wire(t).contract])).to.deep.equal([
      [true, getAddress(A), getAddress(B), getAddress(ERC721)],
      [true, ZERO_ADDRESS, getAddress(A), getAddress(ERC721)],
    ]);
    const owner = await historyPage(db, { network, of: { owner: A }, limit: 1 });
    const [newest] = owner!.items;
    expect(newest.checksummed).to.equal(true);
    // getAddress refuses a mixed-case address whose capitals are not its checksum's.
    for (const a of [wire(newest).from, wire(newest).to, wire(newest).contract]) expect(getAddress(a)).to.equal(a);
    // An address stored before the dictionary kept forms is written in lower case, and the row says so.
    await db.query("UPDATE nft_addresses SET eip55 = NULL WHERE address = decode($1, 'hex')", [A.slice(2)]);
    try {
      const upgraded = await historyPage(db, { network, of: { contract: ERC721, tokenId: "2" }, limit: 10 });
      expect(upgraded!.items.map((t) => [t.checksummed, wire(t).from, wire(t).to])).to.deep.equal([
        [false, A, getAddress(B)],
        [false, ZERO_ADDRESS, A],
      ]);
    } finally {
      await db.query("UPDATE nft_addresses SET eip55 = $2 WHERE address = decode($1, 'hex')", [A.slice(2), getAddress(A)]);
    }
  });

  it("gives an address one id when two writers name it for the first time at once", async function () {
    if (!usingPostgres()) return this.skip(); // PGlite has one connection: its transactions never overlap
    const { db } = suite();
    const NEW = `0x${"d".repeat(40)}`;
    let inserted!: () => void;
    let commit!: () => void;
    const insertedFirst = new Promise<void>((resolve) => (inserted = resolve));
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const first = db.transaction(async (tx) => {
      const ids = await addressIds(tx, [NEW, A]);
      inserted();
      await committing;
      return ids.get(NEW);
    });
    await insertedFirst;
    const second = db.transaction(async (tx) => (await addressIds(tx, [B, NEW])).get(NEW));
    // The second writer's insert waits for the first's row: it finds it only when the first commits.
    await pollUntil("the second writer waiting for the first's insert", async () => {
      const { rows } = await db.query<{ waiting: number }>(
        "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      return rows[0].waiting > 0;
    });
    commit();
    const [id, raced] = await Promise.all([first, second]);
    expect(id).to.be.a("number");
    expect(raced).to.equal(id);
    const { rows } = await db.query<{ eip55: string }>("SELECT eip55 FROM nft_addresses WHERE address = decode($1, 'hex')", [NEW.slice(2)]);
    expect(rows).to.deep.equal([{ eip55: getAddress(NEW) }]);
  });

  it("reads a token's holding with the block the index is complete to", async function () {
    const { db } = suite();
    expect(await tokenHolding(db, network, ERC721, 2n)).to.deep.equal({ indexed: 11, holding: { standard: "erc721", owner: B } });
    expect(await tokenHolding(db, network, ERC1155, 7n)).to.deep.equal({
      indexed: 11,
      holding: {
        standard: "erc1155",
        balances: [
          { owner: A, balance: "5" },
          { owner: B, balance: "3" },
        ],
      },
    });
    expect(await tokenHolding(db, network, ERC721, 99n)).to.deep.equal({ indexed: 11 });
  });

  it("reads the change log after an id, all of it or one network's matching rows up to an id", async function () {
    const { db } = suite();
    const all = await changesAfter(db, 0n);
    expect(all.map((c) => `${c.kind} ${c.block_number}/${c.log_index}`)).to.deep.equal([
      "transfer 10/0",
      "transfer 10/1",
      "transfer 10/2",
      "transfer 10/3",
      "transfer 10/4",
      "transfer 11/0",
    ]);
    const last = await lastChangeId(db);
    expect(last).to.equal(BigInt(all[all.length - 1].id));
    expect(await changesAfter(db, last)).to.deep.equal([]);
    const toB = await networkChangesAfter(db, 0n, last, { network, owner: B });
    expect(toB.map((c) => `${c.block_number}/${c.log_index}`)).to.deep.equal(["10/4", "11/0"]);
    const ofErc721 = await networkChangesAfter(db, 0n, BigInt(all[1].id), { network, contract: ERC721 });
    expect(ofErc721.map((c) => c.id)).to.deep.equal([all[0].id, all[1].id]);
    expect(await networkChangesAfter(db, 0n, last, { network: "mainnet" })).to.deep.equal([]);
    // Lists: any of the owners, any of the contracts; only the kinds asked for.
    // A webhook subscription's selection: any of the owners, any of the contracts, only the kinds asked for.
    expect(await selectedChangesAfter(db, 0n, last, { network, owners: [B] })).to.deep.equal(toB);
    const toAOrB = await selectedChangesAfter(db, 0n, last, { network, owners: [A, B] });
    expect(toAOrB.length).to.be.greaterThan(toB.length);
    expect(toAOrB.filter((c) => c.from_address === B || c.to_address === B)).to.deep.equal(toB);
    expect(await selectedChangesAfter(db, 0n, BigInt(all[1].id), { network, contracts: [ERC721, A] })).to.deep.equal(ofErc721);
    expect(await selectedChangesAfter(db, 0n, last, { network, kinds: ["transfer"] })).to.deep.equal(all);
    expect(await selectedChangesAfter(db, 0n, last, { network, kinds: ["removed", "metadata"] })).to.deep.equal([]);
  });
  it("logs a live range's transfers as they were written: both standards in log order, a range's ids in their order, a cold range not at all", async function () {
    const { db } = suite();
    const after = await lastChangeId(db);
    // Block 12: a ConsecutiveTransfer of ids 20–22 to A at log 0, an ERC-1155 batch at log 1 (ids 9, 8), a transfer at
    // log 2. Given out of order, as the decoder's two lists come.
    const consecutive = [22n, 20n, 21n].map((id) => ({ ...transfer(12, 0, id, ZERO_ADDRESS, A), rangeIndex: Number(id - 20n) }));
    const batch = [1, 0].map((batchIndex) => ({ ...transfer1155(12, 1, BigInt(9 - batchIndex), B, 2n), batchIndex }));
    await write(12, [transfer(12, 2, 3n, A, B), ...consecutive], { transfers1155: batch, live: true });
    const logged = (await changesAfter(db, after)).map(({ id, ...row }) => (expect(BigInt(id) > after).to.equal(true), row));
    const row = (
      logIndex: number,
      batchIndex: number | null,
      contract: string,
      tokenId: string,
      from: string,
      to: string,
      amount: string | null,
    ) => ({
      network,
      kind: "transfer",
      block_number: "12",
      log_index: logIndex,
      batch_index: batchIndex,
      block_time: "1700000012",
      tx_hash: hash(1000 + 120 + logIndex),
      contract,
      token_id: tokenId,
      to_token_id: null,
      from_address: from,
      to_address: to,
      amount,
    });
    expect(logged).to.deep.equal([
      row(0, null, ERC721, "20", ZERO_ADDRESS, A, null),
      row(0, null, ERC721, "21", ZERO_ADDRESS, A, null),
      row(0, null, ERC721, "22", ZERO_ADDRESS, A, null),
      row(1, 0, ERC1155, "9", ZERO_ADDRESS, B, "2"),
      row(1, 1, ERC1155, "8", ZERO_ADDRESS, B, "2"),
      row(2, null, ERC721, "3", A, B, null),
    ]);
    // A range far from the head is history only.
    const before = await lastChangeId(db);
    await write(13, [transfer(13, 0, 30n, ZERO_ADDRESS, A)], { live: false });
    expect(await lastChangeId(db)).to.equal(before);
  });
  it("keeps owners and holdings when a range mints and burns a token, burns one, or moves one from an account that is not its owner", async function () {
    const { db } = suite();
    const OTHER = `0x${"3".repeat(40)}`;
    const D = `0x${"d".repeat(40)}`;
    const of = (t: Transfer): Transfer => ({ ...t, contract: OTHER });
    // Block 14: ids 1 and 2 minted to A; id 3 minted to B and burned in the same range.
    await write(14, [
      of(transfer(14, 0, 1n, ZERO_ADDRESS, A)),
      of(transfer(14, 1, 2n, ZERO_ADDRESS, A)),
      of(transfer(14, 2, 3n, ZERO_ADDRESS, B)),
      of(transfer(14, 3, 3n, B, ZERO_ADDRESS)),
    ]);
    // Block 15: a contract that says id 1 went from D, which never held it, to B: the index moves it from A, its owner.
    // A is not among the range's addresses.
    await write(15, [of(transfer(15, 0, 1n, D, B))]);
    // Block 16: id 2 burned.
    await write(16, [of(transfer(16, 0, 2n, A, ZERO_ADDRESS))]);
    expect(await inventoryPage(db, { network, owner: A, contract: OTHER, limit: 10 })).to.deep.equal({
      indexed: 16,
      items: [],
      next: undefined,
    });
    expect(await inventoryPage(db, { network, owner: B, contract: OTHER, limit: 10 })).to.deep.equal({
      indexed: 16,
      items: [{ tokenId: "1", balance: null }],
      next: undefined,
    });
    expect(await holdersPage(db, { network, contract: OTHER, limit: 10 })).to.deep.equal({
      indexed: 16,
      items: [{ owner: B, count: "1" }],
      next: undefined,
    });
    expect(await holderCount(db, network, OTHER)).to.deep.equal({ indexed: 16, holders: 1 });
    expect(await tokenHolding(db, network, OTHER, 3n)).to.deep.equal({ indexed: 16 });
    await expectHoldingsMatchRecount(db, network);
  });

  it("keeps owners and holdings when a contract mints an id someone holds, beside a new mint or minted and burned in one range", async function () {
    const { db } = suite();
    const BROKEN = `0x${"4".repeat(40)}`;
    const D = `0x${"d".repeat(40)}`;
    const of = (t: Transfer): Transfer => ({ ...t, contract: BROKEN });
    const owner = async (tokenId: bigint) => (await tokenHolding(db, network, BROKEN, tokenId)).holding;
    // Block 20: ids 1 and 2 minted to A.
    await write(20, [of(transfer(20, 0, 1n, ZERO_ADDRESS, A)), of(transfer(20, 1, 2n, ZERO_ADDRESS, A))]);
    // Block 21: id 1, which A holds, minted again to B, beside id 3 minted to B for the first time.
    await write(21, [of(transfer(21, 0, 1n, ZERO_ADDRESS, B)), of(transfer(21, 1, 3n, ZERO_ADDRESS, B))]);
    expect(await owner(1n)).to.deep.equal({ standard: "erc721", owner: B });
    expect(await owner(3n)).to.deep.equal({ standard: "erc721", owner: B });
    expect(await holdersPage(db, { network, contract: BROKEN, limit: 10 })).to.deep.equal({
      indexed: 21,
      items: [
        { owner: A, count: "1" },
        { owner: B, count: "2" },
      ],
      next: undefined,
    });
    // Block 22: id 2, which A holds, minted again to D and burned by D in the same range.
    await write(22, [of(transfer(22, 0, 2n, ZERO_ADDRESS, D)), of(transfer(22, 1, 2n, D, ZERO_ADDRESS))]);
    expect(await owner(2n)).to.equal(undefined);
    expect(await holdersPage(db, { network, contract: BROKEN, limit: 10 })).to.deep.equal({
      indexed: 22,
      items: [{ owner: B, count: "2" }],
      next: undefined,
    });
    expect(await holderCount(db, network, BROKEN)).to.deep.equal({ indexed: 22, holders: 1 });
    // Every transfer the ranges named is kept, those of the range whose first writing of owners was undone too.
    const history = await historyPage(db, { network, of: { contract: BROKEN, tokenId: "1" }, limit: 10 });
    expect(history!.items.map((t) => [t.block_number, wire(t).to])).to.deep.equal([
      ["21", getAddress(B)],
      ["20", getAddress(A)],
    ]);
    await expectHoldingsMatchRecount(db, network);
  });
  it("logs what a rollback undoes newest first, both standards, a log's ids in reverse, and gives ERC-1155 balances back", async function () {
    const { db } = suite();
    const held = async () => [
      await tokenHolding(db, network, ERC1155, 8n),
      await tokenHolding(db, network, ERC1155, 9n),
      await inventoryPage(db, { network, owner: A, contract: ERC721, limit: 100 }),
    ];
    const before = await held();
    const after = await lastChangeId(db);
    // Block 30: a ConsecutiveTransfer of ids 40–41 to A at log 0, an ERC-1155 batch to B at log 1 (ids 9, 8), one of
    // those units of id 9 from B to A at log 2.
    const consecutive = [40n, 41n].map((id) => ({ ...transfer(30, 0, id, ZERO_ADDRESS, A), rangeIndex: Number(id - 40n) }));
    const batch = [0, 1].map((batchIndex) => ({ ...transfer1155(30, 1, BigInt(9 - batchIndex), B, 3n), batchIndex }));
    await write(30, consecutive, { transfers1155: [...batch, { ...transfer1155(30, 2, 9n, A, 1n), from: B }], live: true });
    expect(await held()).to.not.deep.equal(before);
    const written = await lastChangeId(db);

    await db.transaction((tx) => rollBack(tx, network, { block: 22, hash: hash(22) }));
    const removed = (await changesAfter(db, written)).map((c) => [
      c.kind,
      c.log_index,
      c.batch_index,
      c.contract,
      c.token_id,
      c.from_address,
      c.to_address,
      c.amount,
    ]);
    expect(removed).to.deep.equal([
      ["removed", 2, 0, ERC1155, "9", B, A, "1"],
      ["removed", 1, 1, ERC1155, "8", ZERO_ADDRESS, B, "3"],
      ["removed", 1, 0, ERC1155, "9", ZERO_ADDRESS, B, "3"],
      ["removed", 0, null, ERC721, "41", ZERO_ADDRESS, A, null],
      ["removed", 0, null, ERC721, "40", ZERO_ADDRESS, A, null],
    ]);
    // Each removal carries what its transfer's change carried.
    const logged = await changesAfter(db, after);
    expect(logged.slice(5).map(({ id: _, kind: __, ...c }) => c)).to.deep.equal(
      logged
        .slice(0, 5)
        .reverse()
        .map(({ id: _, kind: __, ...c }) => c),
    );
    expect(await held()).to.deep.equal(before);
    await expectHoldingsMatchRecount(db, network);
  });
});

/** A page statement's one row, split into the page: what the store does with the text PostgreSQL lists the items in. */
describe("index store listed pages", function () {
  /** A history line as the statements write it: key, checksummed, contract, flag, JSON (here its key alone). */
  const line = (block: number, log: number, batch: number) => `${block} ${log} ${batch} t - - {"k":"${block}/${log}/${batch}"}`;
  const item = (text: string): HistoryItem => {
    const [block, log, batch] = text.split(" ");
    return {
      json: "",
      checksummed: true,
      block_number: block,
      log_index: Number(log),
      batch_index: Number(batch),
      contract: null,
      spam: null,
    };
  };
  const page = (lines: string[], limit: number, order = newestFirst) =>
    listedPage(
      { indexed: "12", items: lines.join("\n") },
      {
        limit,
        separator: "\n",
        item,
        key: (t) => [t.block_number, String(t.log_index), String(t.batch_index)],
        order,
      },
    )!;
  const keys = (items: HistoryItem[]) => items.map((t) => `${t.block_number}/${t.log_index}/${t.batch_index}`);

  it("sorts a history's items newest first when its statement lists them otherwise, before cutting the page and keying the next", function () {
    // Block 10 after block 9 (longer, not less, as text), then the log index, then the batch index, each descending.
    const shuffled = [line(9, 5, 0), line(10, 0, 1), line(10, 2, 0), line(10, 0, 3), line(9, 7, 0)];
    const cut = page(shuffled, 3);
    expect(keys(cut.items)).to.deep.equal(["10/2/0", "10/0/3", "10/0/1"]);
    expect(cut.next).to.deep.equal(["10", "0", "1"]);
    const whole = page(shuffled, 10);
    expect(keys(whole.items)).to.deep.equal(["10/2/0", "10/0/3", "10/0/1", "9/7/0", "9/5/0"]);
    expect(whole.next).to.equal(undefined);
  });

  it("sorts token ids by value, a longer decimal being the larger", function () {
    const ids = listedPage(
      { indexed: "12", items: "10,9,100,2,11" },
      { limit: 4, separator: ",", item: (text) => text, key: (id) => [id], order: byDecimal },
    )!;
    expect(ids.items).to.deep.equal(["2", "9", "10", "11"]);
    expect(ids.next).to.deep.equal(["11"]);
  });

  it("keeps items listed in the page's order as they come, comparing each with the next once", function () {
    const ordered = [line(100, 1, 0), line(99, 0, 0), line(9, 3, 2), line(9, 3, 1)];
    let compared = 0;
    const counted = page(ordered, 3, (a, b) => (compared++, newestFirst(a, b)));
    expect(keys(counted.items)).to.deep.equal(["100/1/0", "99/0/0", "9/3/2"]);
    expect(counted.next).to.deep.equal(["9", "3", "2"]);
    expect(compared).to.equal(ordered.length - 1);
  });
});

/** The block hashes the writer keeps: the whole reorg window, and below it a bounded few anchors, the first block among them. */
describe("index store block hashes", function () {
  const network = "localhost";
  const suite = databaseForSuite();

  it("keeps every block of the window and, below it, the oldest of each band of depths that doubles in width", async function () {
    const { db } = suite();
    const RANGE = 256;
    for (let from = 0; from < 64 * REORG_WINDOW; from += RANGE) {
      const blocks = Array.from({ length: RANGE }, (_, i) => ({ block: from + i, hash: hash(from + i) }));
      await db.transaction((tx) => writeRange(tx, { network, transfers: [], last: blocks[RANGE - 1], hashes: blocks }));
    }
    const kept = await recentBlocks(db, network);
    const cursor = kept[0].block;
    expect(cursor).to.equal(64 * REORG_WINDOW - 1);
    const window = kept.filter((known) => known.block >= cursor - REORG_WINDOW);
    expect(window.map((known) => known.block)).to.deep.equal(Array.from({ length: REORG_WINDOW + 1 }, (_, i) => cursor - i));
    const anchors = kept.filter((known) => known.block < cursor - REORG_WINDOW);
    const band = (block: number) => Math.floor(Math.log2((cursor - block) / REORG_WINDOW));
    // Depths of 1 to 64 windows: six bands, one block each, the first block read among them.
    expect(anchors.map((known) => band(known.block))).to.deep.equal([0, 1, 2, 3, 4, 5]);
    expect(anchors.at(-1)).to.deep.equal({ block: 0, hash: hash(0) });
  });
});
