import { expect } from "chai";
import { getAddress } from "ethers";
import type { Database } from "../../../server/db/database";
import { AddressChecksums } from "../../../server/indexer/address-checksums";
import { addressIds, checksumStoredAddresses } from "../../../server/indexer/store/ids";
import { databaseForSuite } from "../../helpers/suite-database";
import { pollUntil } from "../../helpers/waiters";

/**
 * An index upgraded from before 0266_address_checksums holds addresses without their EIP-55 form: the indexer's
 * background pass gives them one, a batch at a time, and ends.
 */
describe("EIP-55 forms of the addresses stored before they were kept", function () {
  const ADDRESSES = Array.from({ length: 7 }, (_, i) => `0x${(i + 10).toString(16).repeat(40).slice(0, 40)}`);
  const suite = databaseForSuite();
  const quiet = { debug() {}, info() {}, warn() {} };

  /** The dictionary as an index written before 0266 holds it: the addresses without forms, in id order. */
  async function storedWithoutForms(db: Database) {
    await db.query("TRUNCATE nft_addresses");
    await db.query(
      "INSERT INTO nft_addresses (address) SELECT decode(substr(a, 3), 'hex') FROM unnest($1::text[]) WITH ORDINALITY AS m(a, n) ORDER BY n",
      [ADDRESSES],
    );
  }
  const formsOf = async (db: Database) =>
    (
      await db.query<{ address: string; eip55: string | null }>(
        "SELECT '0x' || encode(address, 'hex') AS address, eip55 FROM nft_addresses ORDER BY id",
      )
    ).rows.map((r) => ({ address: r.address, eip55: r.eip55 }));

  describe("checksumStoredAddresses", function () {
    it("gives a batch of forms, the lowest ids first, and says how many it read", async function () {
      const { db } = suite();
      await storedWithoutForms(db);
      expect(await checksumStoredAddresses(db, 3)).to.equal(3);
      expect((await formsOf(db)).map((r) => r.eip55)).to.deep.equal([
        ...ADDRESSES.slice(0, 3).map((a) => getAddress(a)),
        null,
        null,
        null,
        null,
      ]);
      expect(await checksumStoredAddresses(db, 3)).to.equal(3);
      expect(await checksumStoredAddresses(db, 3)).to.equal(1);
      expect(await checksumStoredAddresses(db, 3)).to.equal(0);
      expect(await formsOf(db)).to.deep.equal(ADDRESSES.map((address) => ({ address, eip55: getAddress(address) })));
    });

    it("reads nothing where the writer gave every address its form", async function () {
      const { db } = suite();
      await db.query("TRUNCATE nft_addresses");
      await db.transaction((tx) => addressIds(tx, ADDRESSES));
      expect(await checksumStoredAddresses(db, 100)).to.equal(0);
      expect((await formsOf(db)).map((r) => r.eip55)).to.deep.equal(ADDRESSES.map((a) => getAddress(a)));
    });
  });

  describe("AddressChecksums", function () {
    it("runs batches until every address has its form, then ends", async function () {
      const { db } = suite();
      await storedWithoutForms(db);
      const pass = new AddressChecksums({ db, batch: 2, pauseMs: 0, retryMs: 0, log: quiet });
      pass.start();
      await pollUntil("every address with its form", async () => (await formsOf(db)).every((r) => r.eip55 !== null));
      expect(await formsOf(db)).to.deep.equal(ADDRESSES.map((address) => ({ address, eip55: getAddress(address) })));
      await pass.stop();
    });

    it("stops during its pause between batches without waiting it out", async function () {
      const { db } = suite();
      await storedWithoutForms(db);
      const pass = new AddressChecksums({ db, batch: 2, pauseMs: 3_600_000, retryMs: 0, log: quiet });
      pass.start();
      await pollUntil("the first batch", async () => (await formsOf(db)).some((r) => r.eip55 !== null));
      await pass.stop();
      expect((await formsOf(db)).filter((r) => r.eip55 === null)).to.have.length(ADDRESSES.length - 2);
    });
  });
});
