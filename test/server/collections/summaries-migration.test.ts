import { expect } from "chai";
import { beforeMigration } from "../../helpers/before-migration";
import { hex } from "../../helpers/index-sql";

describe("contract summaries of what was indexed before them", function () {
  it("are filled by their migration from both transfer tables", async function () {
    await beforeMigration(270, async (db, migrateRest) => {
      const [zero, c721, a, b, c1155] = ["00", "c1", "0a", "0b", "c3"].map((x) => `0x${x.padStart(40, "0")}`);
      await db.query("INSERT INTO indexer_networks (id, name) VALUES (1, 'n')");
      await db.query(
        `INSERT INTO nft_addresses (id, address) SELECT n, decode(substr(a, 3), 'hex') FROM unnest($1::text[]) WITH ORDINALITY AS x(a, n)`,
        [[zero, c721, a, b, c1155]],
      );
      // Ids: 1 zero, 2 the ERC-721 contract, 3 a, 4 b, 5 the ERC-1155 contract. Two mints in one transaction, a move, a burn.
      await db.query(
        `INSERT INTO nft_transfers (block_number, log_index, batch_index, contract_id, from_id, to_id, network_id, tx_hash, token_id) VALUES
           (5, 0, 0, 2, 1, 3, 1, '\\x01', 1), (5, 1, 0, 2, 1, 4, 1, '\\x01', 2), (6, 0, 0, 2, 3, 4, 1, '\\x02', 1), (7, 0, 0, 2, 4, 1, 1, '\\x03', 2)`,
      );
      await db.query(
        `INSERT INTO nft_1155_transfers (block_number, log_index, batch_index, contract_id, from_id, to_id, network_id, tx_hash, token_id, amount)
         VALUES (8, 0, 0, 5, 1, 3, 1, '\\x04', 1, 10), (9, 0, 0, 5, 3, 4, 1, '\\x05', 1, 3)`,
      );
      await migrateRest();
      const { rows } = await db.query(
        `SELECT ${hex("contract")} AS contract, standard, first_block::int, last_block::int, transfers::int, supply::text, moved::int,
           most_minted_to::int FROM nft_contract_summaries ORDER BY contract`,
      );
      expect(rows).to.deep.equal([
        { contract: c721, standard: "erc721", first_block: 5, last_block: 7, transfers: 4, supply: "1", moved: 1, most_minted_to: 2 },
        { contract: c1155, standard: "erc1155", first_block: 8, last_block: 9, transfers: 2, supply: "10", moved: 1, most_minted_to: 1 },
      ]);
    });
  });
});
