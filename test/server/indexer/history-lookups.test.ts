import { expect } from "chai";
import { addressId, bytes, networkIdOf } from "../../helpers/index-sql";
import { historyPage, type HistoryOf } from "../../../server/indexer/store/history";
import { ZERO_ADDRESS } from "../../../server/indexer/transfers";
import { backendName } from "../../helpers/database";
import { databaseForSuite } from "../../helpers/suite-database";
import { explainedPlan, planNodes, type PlanNode } from "../../helpers/prepared-reads";
import { withQueryHook } from "../../../support/query-hook";

const address = (kind: number, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}`;
const OWNER = address(2, 1);
const CONTRACTS = [address(1, 1), address(1, 2)];
const OTHERS = [address(2, 2), address(2, 3), address(2, 4)];
const CONTRACT_1155 = address(3, 1);
const OWNER_1155 = address(2, 5);

/**
 * What a history page costs in the address dictionary: every row's addresses are read from the dictionary's key alone,
 * and the address the page is of (the owner, or the token's contract) is not looked up per row.
 */
describe(`history pages' address lookups (${backendName})`, function () {
  // [block, contract, token id, from, to]: received twice, sent twice, minted, sent to itself.
  const transfers: Array<[number, string, number, string, string]> = [
    [10, CONTRACTS[0], 1, ZERO_ADDRESS, OWNER],
    [11, CONTRACTS[0], 2, OTHERS[0], OWNER],
    [12, CONTRACTS[1], 3, OTHERS[1], OWNER],
    [13, CONTRACTS[0], 1, OWNER, OTHERS[2]],
    [14, CONTRACTS[1], 3, OWNER, OWNER],
    [15, CONTRACTS[1], 3, OWNER, OTHERS[0]],
  ];

  // ERC-1155 [block, batch index, token id, from, to, amount] of another account: minted in a batch, sent, received back.
  const transfers1155: Array<[number, number, number, string, string, number]> = [
    [10, 0, 7, ZERO_ADDRESS, OWNER_1155, 5],
    [10, 1, 8, ZERO_ADDRESS, OWNER_1155, 6],
    [12, 0, 7, OWNER_1155, OTHERS[1], 2],
    [14, 0, 7, OTHERS[1], OWNER_1155, 1],
  ];

  const suite = databaseForSuite(async (db) => {
    await db.query("INSERT INTO indexer_cursors (network, block_number, block_hash) VALUES ('mainnet', 20, $1)", [`0x${"ab".repeat(32)}`]);
    await db.query("INSERT INTO indexer_networks (name) VALUES ('mainnet')");
    const named = [...new Set([...transfers.flatMap(([, contract, , from, to]) => [contract, from, to]), CONTRACT_1155, OWNER_1155])];
    await db.query(`INSERT INTO nft_addresses (address) SELECT ${bytes("a")} FROM unnest($1::text[]) a`, [named]);
    for (const [block, contract, id, from, to] of transfers) {
      await db.query(
        `INSERT INTO nft_transfers (block_number, block_time, log_index, batch_index, contract_id, from_id, to_id, network_id, tx_hash, token_id)
         SELECT $1::bigint, NULL, 0, 0, ${addressId("$2")}, ${addressId("$3")}, ${addressId("$4")}, ${networkIdOf("'mainnet'")},
           decode(lpad(to_hex($1::bigint), 64, '0'), 'hex'), $5`,
        [block, contract, from, to, id],
      );
    }
    for (const [block, batch, id, from, to, amount] of transfers1155) {
      await db.query(
        `INSERT INTO nft_1155_transfers (block_number, block_time, log_index, batch_index, contract_id, from_id, to_id, network_id, tx_hash, token_id, amount)
         SELECT $1::bigint, NULL, 0, $2, ${addressId("$3")}, ${addressId("$4")}, ${addressId("$5")}, ${networkIdOf("'mainnet'")},
           decode(lpad(to_hex($1::bigint), 64, '0'), 'hex'), $6, $7`,
        [block, batch, CONTRACT_1155, from, to, id, amount],
      );
    }
    // A dictionary large enough that the planner reads it by its key, as it does a network's.
    await db.query("INSERT INTO nft_addresses (address) SELECT decode(lpad(to_hex(n), 40, '0'), 'hex') FROM generate_series(1, 20000) n");
    // ERC-1155 transfers of other accounts and ids, enough that reading the whole table costs more than an index.
    await db.query(
      `INSERT INTO nft_1155_transfers (block_number, block_time, log_index, batch_index, contract_id, from_id, to_id, network_id, tx_hash, token_id, amount)
       SELECT n, NULL, 0, 0, ${addressId("$1")}, a.id, a.id + 1, ${networkIdOf("'mainnet'")}, decode(lpad(to_hex(n), 64, '0'), 'hex'), 100 + n, 1
       FROM generate_series(1, 20000) n JOIN nft_addresses a ON a.address = decode(lpad(to_hex(n), 40, '0'), 'hex')`,
      [CONTRACT_1155],
    );
    // As autovacuum leaves a dictionary that only grows: every page all-visible.
    await db.query("VACUUM (ANALYZE) nft_addresses, nft_1155_transfers");
    return {};
  });

  /**
   * The statement historyPage sends for a first page of 100 transfers of `of`, run again for its rows and explained
   * for the lookups of its plan by address id (loops of scans of the dictionary's key).
   */
  async function run(of: HistoryOf, spam = false) {
    const { db } = suite();
    const sent: Array<{ sql: string; params: readonly unknown[] }> = [];
    const recorded = withQueryHook(db, (sql, params, send) => {
      sent.push({ sql, params: params ?? [] });
      return send();
    });
    const page = await historyPage(recorded, { network: "mainnet", of, limit: 100, spam });
    expect(sent).to.have.length(1);
    const [{ sql, params }] = sent;
    // Each transfer as the wire gives it (these ids and amounts are small enough for JSON.parse); the addresses are in
    // lower case, as the dictionary here keeps no EIP-55 forms, and no block has a time.
    const rows = page!.items.map(({ json, spam }) => {
      const w = JSON.parse(json) as { from: string; to: string; contract: string; id: number; value?: number; time: number | null };
      expect(w.time).to.equal(null);
      const amount = w.value === undefined ? null : String(w.value);
      return { from_address: w.from, to_address: w.to, contract: w.contract, token_id: String(w.id), amount, spam };
    });
    const plan = await explainedPlan(db, { sql, params }, { analyze: true });
    const lookups = planNodes(plan).filter((node) => node["Index Name"] === "nft_addresses_pkey");
    return { page: page!, rows, lookups, plan };
  }

  /** Every lookup read the dictionary's key alone: index-only scans that fetched no table row. */
  function expectKeyOnly(lookups: PlanNode[]) {
    expect([...new Set(lookups.map((n) => n["Node Type"]))]).to.deep.equal(["Index Only Scan"]);
    expect(lookups.reduce((heap, n) => heap + (n["Heap Fetches"] ?? 0), 0)).to.equal(0);
  }

  it("an owner's page looks up the other side of each transfer and its contract, from the key alone", async function () {
    const { rows, lookups } = await run({ owner: OWNER });
    expect(rows.map((r) => [r.contract, Number(r.token_id), r.from_address, r.to_address])).to.deep.equal(
      transfers.map(([, contract, id, from, to]) => [contract, id, from, to]).reverse(),
    );
    expectKeyOnly(lookups);
    // A contract per row, the other side per row but the transfer to itself: 6 + 5, against 3 a row before.
    expect(lookups.reduce((loops, n) => loops + (n["Actual Loops"] ?? 0), 0)).to.equal(11);
  });

  it("an owner's page with its contracts' spam flags looks up no address more", async function () {
    const { db } = suite();
    await db.query(
      `INSERT INTO nft_spam_flags (network_id, contract, flag, reasons, classified_transfers)
       VALUES (${networkIdOf("'mainnet'")}, ${bytes("$1")}, true, '{test}', 1)`,
      [CONTRACTS[1]],
    );
    try {
      const { rows, lookups } = await run({ owner: OWNER }, true);
      expect(rows.map((r) => [r.contract, r.spam])).to.deep.equal(
        transfers.map(([, contract]) => [contract, contract === CONTRACTS[1] ? true : null]).reverse(),
      );
      expectKeyOnly(lookups);
      expect(lookups.reduce((loops, n) => loops + (n["Actual Loops"] ?? 0), 0)).to.equal(11);
    } finally {
      await db.query("DELETE FROM nft_spam_flags");
    }
  });

  it("an owner given in capitals reads the same page, its own address in lower case", async function () {
    const upper = `0x${OWNER.slice(2).toUpperCase()}`;
    const { rows } = await run({ owner: upper });
    expect(rows.map((r) => [r.from_address, r.to_address])).to.deep.equal(transfers.map(([, , , from, to]) => [from, to]).reverse());
  });

  it("a token's page looks up each transfer's sender and receiver, not its contract", async function () {
    const { rows, lookups } = await run({ contract: CONTRACTS[1], tokenId: "3" });
    const mine = transfers.filter(([, contract, id]) => contract === CONTRACTS[1] && id === 3).reverse();
    expect(rows.map((r) => [r.contract, r.from_address, r.to_address])).to.deep.equal(mine.map(([, c, , from, to]) => [c, from, to]));
    expectKeyOnly(lookups);
    expect(lookups.reduce((loops, n) => loops + (n["Actual Loops"] ?? 0), 0)).to.equal(2 * mine.length);
  });

  /**
   * The scans of nft_1155_transfers in a plan, [node type, index, heap fetches]: each of one of its indexes, none of
   * the whole table.
   */
  function erc1155Scans(plan: PlanNode) {
    return planNodes(plan)
      .filter((node) => node["Relation Name"] === "nft_1155_transfers")
      .map((n) => [n["Node Type"], n["Index Name"], n["Heap Fetches"] ?? null]);
  }

  it("an ERC-1155 page reads the transfers by the history indexes, not the whole table, and looks up as an ERC-721 one", async function () {
    const owner = await run({ owner: OWNER_1155 });
    expect(owner.rows.map((r) => [r.contract, Number(r.token_id), r.from_address, r.to_address, r.amount])).to.deep.equal(
      transfers1155.map(([, , id, from, to, amount]) => [CONTRACT_1155, id, from, to, String(amount)]).reverse(),
    );
    expectKeyOnly(owner.lookups);
    // A contract per row, the other side per row.
    expect(owner.lookups.reduce((loops, n) => loops + (n["Actual Loops"] ?? 0), 0)).to.equal(2 * transfers1155.length);
    expect(erc1155Scans(owner.plan)).to.deep.equal([
      ["Index Scan", "nft_1155_transfers_from", null],
      ["Index Scan", "nft_1155_transfers_to", null],
    ]);

    const token = await run({ contract: CONTRACT_1155, tokenId: "7" });
    const mine = transfers1155.filter(([, , id]) => id === 7).reverse();
    expect(token.rows.map((r) => [r.from_address, r.to_address, r.amount])).to.deep.equal(mine.map(([, , , f, t, a]) => [f, t, String(a)]));
    expectKeyOnly(token.lookups);
    expect(token.lookups.reduce((loops, n) => loops + (n["Actual Loops"] ?? 0), 0)).to.equal(2 * mine.length);
    // An id moves between many holders: its page is read from the token index alone, not a table page per transfer.
    expect(erc1155Scans(token.plan)).to.deep.equal([["Index Only Scan", "nft_1155_transfers_token", 0]]);
  });

  it("an address the index never saw reads an empty page", async function () {
    const { page } = await run({ owner: address(2, 99) });
    expect(page.items).to.deep.equal([]);
    expect(page.next).to.equal(undefined);
    expect(page.indexed).to.be.a("number");
  });
});
