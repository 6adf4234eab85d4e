import { expect } from "chai";
import { malformedHeader } from "../../../server/indexer/headers";
import { malformedLogs, TRANSFER_TOPIC, ZERO_ADDRESS, type RawLog } from "../../../server/indexer/transfers";
import { addressTopic, hash, rawLog } from "../../helpers/raw-logs";

/** What eth_getLogs must answer for the indexer to use it; anything else is the provider's fault (failover.test.ts). */
describe("malformedLogs: the shape of an eth_getLogs answer", function () {
  const log = (i: number) => rawLog([TRANSFER_TOPIC, hash(0), addressTopic(ZERO_ADDRESS), hash(i)], { logIndex: `0x${i.toString(16)}` });

  it("takes well-formed logs: mixed-case hex, empty data as 0x or nothing, ERC-1155 data, no topics", function () {
    expect(malformedLogs([])).to.equal(undefined);
    expect(malformedLogs([log(0), log(1), { ...log(2), data: "" }, { ...log(3), topics: [], data: `0x${"Ab".repeat(96)}` }])).to.equal(
      undefined,
    );
  });

  it("names the first field that is not hex of its size, in any log of the answer, repeated values included", function () {
    const cases: Array<[string, Partial<Record<keyof RawLog, unknown>>, string]> = [
      ["address not hex", { address: `0x${"zz".repeat(20)}` }, "a log whose address is not 20 bytes of hex"],
      ["address short", { address: "0x1234" }, "a log whose address is not 20 bytes of hex"],
      ["block hash cut", { blockHash: hash(1).slice(0, 60) }, "a log whose block hash is not 32 bytes of hex"],
      ["transaction hash not hex", { transactionHash: `0x${"g".repeat(64)}` }, "a log whose transaction hash is not 32 bytes of hex"],
      ["transaction hash missing", { transactionHash: undefined }, "a log whose transaction hash is not 32 bytes of hex"],
      ["a topic too long", { topics: [TRANSFER_TOPIC, `${hash(1)}00`] }, "a log whose topics are not 32 bytes of hex each"],
      ["topic0 unknown and not hex", { topics: ["Transfer"] }, "a log whose topics are not 32 bytes of hex each"],
      ["five topics", { topics: [hash(1), hash(2), hash(3), hash(4), hash(5)] }, "a log whose topics are not a list of at most four"],
      ["topics not a list", { topics: "0x" }, "a log whose topics are not a list of at most four"],
      ["data of an odd length", { data: "0xabc" }, "a log whose data is not hex bytes"],
      ["data not a string", { data: null }, "a log whose data is not hex bytes"],
      ["block number decimal", { blockNumber: "26" }, "a log whose block number is not a hex quantity"],
      ["block number past 2^52", { blockNumber: `0x${"f".repeat(14)}` }, "a log whose block number is not a hex quantity"],
      ["log index a number", { logIndex: 3 }, "a log whose log index is not a hex quantity"],
    ];
    for (const [label, change, message] of cases) {
      // The bad log comes after a good one whose values it repeats, but for the field changed.
      expect(malformedLogs([log(0), { ...log(1), ...change }]), label).to.equal(message);
    }
    expect(malformedLogs({ logs: [] })).to.equal("not a list of logs");
    expect(malformedLogs([log(0), null])).to.equal("a log that is not an object");
  });
});

/** What eth_getBlockByNumber must answer for the indexer to use it (failover.test.ts: otherwise the provider's fault). */
describe("malformedHeader: the shape of an eth_getBlockByNumber answer", function () {
  const header = {
    number: "0x1a",
    hash: `0x${"Ab".repeat(32)}`,
    parentHash: `0x${"01".repeat(32)}`,
    timestamp: "0x6752a0c0",
    logsBloom: `0x${"00".repeat(256)}`,
    transactions: [`0x${"02".repeat(32)}`],
  };

  it("takes a well-formed header, and null (no such block yet)", function () {
    expect(malformedHeader(header)).to.equal(undefined);
    expect(malformedHeader(null)).to.equal(undefined);
  });

  it("names the first field that is not hex of its size", function () {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["hash not hex", { hash: "0xnot-a-hash" }, "a block whose hash is not 32 bytes of hex"],
      ["hash missing", { hash: undefined }, "a block whose hash is not 32 bytes of hex"],
      ["parent hash cut", { parentHash: header.parentHash.slice(0, 60) }, "a block whose parent hash is not 32 bytes of hex"],
      ["timestamp decimal", { timestamp: "1733468352" }, "a block whose timestamp is not a hex quantity"],
      ["timestamp a number", { timestamp: 1733468352 }, "a block whose timestamp is not a hex quantity"],
      ["logsBloom of an odd length", { logsBloom: "0xabc" }, "a block whose logsBloom is not hex bytes"],
      ["logsBloom missing", { logsBloom: undefined }, "a block whose logsBloom is not hex bytes"],
    ];
    for (const [label, change, message] of cases) expect(malformedHeader({ ...header, ...change }), label).to.equal(message);
    for (const block of [undefined, "0x1", [], 42]) expect(malformedHeader(block), String(block)).to.equal("not a block");
  });
});
