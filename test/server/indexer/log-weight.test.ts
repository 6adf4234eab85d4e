import { expect } from "chai";
import { AbiCoder } from "ethers";
import {
  CONSECUTIVE_TRANSFER_TOPIC,
  decodeTransfer1155,
  logWeight,
  TRANSFER_BATCH_TOPIC,
  TRANSFER_TOPIC,
} from "../../../server/indexer/transfers";
import { hash, rawLog, word } from "../../helpers/raw-logs";

/** logWeight: the rows a range's logs would write, which sizes the range before anything is written. */
describe("logWeight: rows the logs of a range would write", function () {
  const log = (topics: string[], data: string) => rawLog(topics, { data });
  const batch = (data: string) => log([TRANSFER_BATCH_TOPIC, hash(1), hash(0), hash(2)], `0x${data}`);
  const ids = (n: number) => Array.from({ length: n }, (_, i) => word(i + 1)).join("");
  /** ids and values as the ABI lays them out: each array after the other. */
  const separate = (n: number) => word(64) + word(64 + 32 + n * 32) + word(n) + ids(n) + word(n) + ids(n);
  /** Both offsets at the same words: the ids are their own values, one word of data per id. */
  const aliased = (n: number) => word(64) + word(64) + word(n) + ids(n);

  it("counts a Transfer as one row and a ConsecutiveTransfer as the ids it expands to, up to the bound", function () {
    const transfer = log([TRANSFER_TOPIC, hash(0), hash(1), hash(7)], "0x");
    const consecutive = (last: number) => log([CONSECUTIVE_TRANSFER_TOPIC, hash(0), hash(0), hash(1)], `0x${word(last)}`);
    expect(logWeight([transfer, transfer], 5_000)).to.equal(2);
    expect(logWeight([consecutive(4_999)], 5_000)).to.equal(5_000);
    // Past the bound it is not expanded: one log.
    expect(logWeight([consecutive(5_000)], 5_000)).to.equal(1);
  });

  it("counts a TransferBatch as the ids it moves, its arrays apart or sharing their words", function () {
    expect(logWeight([batch(separate(3))], 5_000)).to.equal(3);
    expect(decodeTransfer1155(batch(aliased(1_000)))).to.have.length(1_000);
    expect(logWeight([batch(aliased(1_000)), batch(separate(10))], 5_000)).to.equal(1_010);
  });

  it("reads a TransferBatch's ids and values as ethers' ABI decoder does, whatever the order and sharing of its arrays", function () {
    const values = (n: number) => Array.from({ length: n }, (_, i) => word(100 + i)).join("");
    const layouts: Array<[string, string]> = [
      ["each array after the other", word(64) + word(64 + 32 + 3 * 32) + word(3) + ids(3) + word(3) + values(3)],
      ["both at the same words", aliased(4)],
      [
        "the values before the ids, with a word to spare at the end",
        word(64 + 32 + 2 * 32) + word(64) + word(2) + values(2) + word(2) + ids(2) + word(9),
      ],
      ["empty arrays", word(64) + word(64) + word(0)],
    ];
    for (const [label, data] of layouts) {
      const [wantIds, wantValues] = AbiCoder.defaultAbiCoder().decode(["uint256[]", "uint256[]"], `0x${data}`) as unknown as [
        bigint[],
        bigint[],
      ];
      const got = decodeTransfer1155(batch(data));
      expect(
        got.map((t) => [t.batchIndex, t.tokenId, t.amount]),
        label,
      ).to.deep.equal([...wantIds].map((id, i) => [i, id, wantValues[i]]));
    }
  });

  it("counts a TransferBatch that cannot decode as one log, whatever length it claims", function () {
    const cases: Array<[string, string]> = [
      ["data shorter than two offsets and a length", word(64) + word(64)],
      ["a length past the data", word(64) + word(64) + word(2n ** 255n) + ids(2)],
      ["a length of one more word than the data holds", word(64) + word(64) + word(3) + ids(2)],
      ["an offset past the data", word(2n ** 200n) + word(64) + word(1) + ids(1)],
      ["an offset inside a word", word(65) + word(64) + word(1) + ids(1)],
    ];
    for (const [label, data] of cases) {
      expect(decodeTransfer1155(batch(data)), label).to.deep.equal([]);
      expect(logWeight([batch(data)], 5_000), label).to.equal(1);
    }
  });
});
