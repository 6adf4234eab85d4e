import { expect } from "chai";
import {
  CONSECUTIVE_TRANSFER_TOPIC,
  decodeLogs,
  TRANSFER_SINGLE_TOPIC,
  TRANSFER_TOPIC,
  ZERO_ADDRESS,
} from "../../../server/indexer/transfers";
import { DELEGATE_ALL_TOPIC, DELEGATE_ERC721_TOPIC, DELEGATE_REGISTRY } from "../../../server/indexer/delegations";
import { addressTopic, hash, rawLog, word } from "../../helpers/raw-logs";

/** decodeLogs: what an eth_getLogs answer's logs move, each value read from its own log whatever the logs around it. */
describe("decodeLogs: transfers of an answer whose logs repeat and change their values", function () {
  const A = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
  const B = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
  const alice = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
  const bob = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
  const log = (contract: string, block: number, tx: number, index: number, topics: string[], data = "0x") =>
    rawLog(topics, {
      address: contract,
      data,
      blockNumber: `0x${block.toString(16)}`,
      blockHash: hash(1000 + block),
      transactionHash: hash(2000 + tx),
      logIndex: `0x${index.toString(16)}`,
    });
  const transfer = (contract: string, block: number, tx: number, index: number, from: string, to: string, id: number) =>
    log(contract, block, tx, index, [TRANSFER_TOPIC, addressTopic(from), addressTopic(to), hash(id)]);
  const expected = (contract: string, block: number, tx: number, index: number, from: string, to: string, id: number) => ({
    blockNumber: block,
    blockHash: hash(1000 + block),
    logIndex: index,
    txHash: hash(2000 + tx),
    contract: contract.toLowerCase(),
    from: from.toLowerCase(),
    to: to.toLowerCase(),
    tokenId: BigInt(id),
  });

  it("reads each log's block, transaction, contract and accounts, in runs and when they change back and forth", function () {
    const logs = [
      transfer(A, 1, 1, 0, ZERO_ADDRESS, alice, 1),
      transfer(A, 1, 1, 1, ZERO_ADDRESS, alice, 2),
      // The same contract and account in another case, then another contract, then the first again.
      transfer(A.toUpperCase().replace("0X", "0x"), 1, 2, 2, alice, bob, 1),
      transfer(B, 1, 2, 3, bob, alice, 9),
      transfer(A, 2, 3, 0, alice, bob, 2),
      transfer(B, 2, 3, 1, alice, ZERO_ADDRESS, 9),
      transfer(A, 3, 4, 0, bob, alice, 2),
    ];
    const { transfers, transfers1155 } = decodeLogs(logs, 5_000, 50_000);
    expect(transfers1155).to.deep.equal([]);
    expect(transfers).to.deep.equal([
      expected(A, 1, 1, 0, ZERO_ADDRESS, alice, 1),
      expected(A, 1, 1, 1, ZERO_ADDRESS, alice, 2),
      expected(A, 1, 2, 2, alice, bob, 1),
      expected(B, 1, 2, 3, bob, alice, 9),
      expected(A, 2, 3, 0, alice, bob, 2),
      expected(B, 2, 3, 1, alice, ZERO_ADDRESS, 9),
      expected(A, 3, 4, 0, bob, alice, 2),
    ]);
    // A run's repeated values are one string: the writer's maps hash each once.
    expect(transfers[0].contract).to.equal(transfers[2].contract);
  });

  it("reads the accounts of ConsecutiveTransfer and TransferSingle logs between ERC-721 transfers, in their own topics", function () {
    const consecutive = log(A, 5, 7, 1, [CONSECUTIVE_TRANSFER_TOPIC, hash(10), addressTopic(ZERO_ADDRESS), addressTopic(bob)], hash(11));
    const single = log(
      B,
      5,
      7,
      2,
      [TRANSFER_SINGLE_TOPIC, addressTopic(alice), addressTopic(bob), addressTopic(alice)],
      `0x${word(4)}${word(3)}`,
    );
    const { transfers, transfers1155 } = decodeLogs(
      [transfer(A, 5, 7, 0, alice, bob, 1), consecutive, single, transfer(A, 5, 7, 3, bob, alice, 1)],
      5_000,
      50_000,
    );
    expect(transfers).to.deep.equal([
      expected(A, 5, 7, 0, alice, bob, 1),
      { ...expected(A, 5, 7, 1, ZERO_ADDRESS, bob, 10), rangeIndex: 0 },
      { ...expected(A, 5, 7, 1, ZERO_ADDRESS, bob, 11), rangeIndex: 1 },
      expected(A, 5, 7, 3, bob, alice, 1),
    ]);
    expect(transfers1155).to.deep.equal([{ ...expected(B, 5, 7, 2, bob, alice, 4), batchIndex: 0, amount: 3n }]);
  });

  it("reads the delegate registry's delegations from its own logs only, and skips a log of another shape", async function () {
    const rights = `0x${"6c6f67696e".padEnd(64, "0")}`;
    const logs = [
      log(DELEGATE_REGISTRY, 1, 1, 0, [DELEGATE_ALL_TOPIC, addressTopic(alice), addressTopic(bob)], `0x${word(0)}${word(1)}`),
      log(
        DELEGATE_REGISTRY,
        1,
        1,
        1,
        [DELEGATE_ERC721_TOPIC, addressTopic(alice), addressTopic(bob), addressTopic(A)],
        `0x${word(7)}${rights.slice(2)}${word(0)}`,
      ),
      // The same event from another contract, an enable that is no boolean, a missing word, a missing topic.
      log(A, 1, 1, 2, [DELEGATE_ALL_TOPIC, addressTopic(alice), addressTopic(bob)], `0x${word(0)}${word(1)}`),
      log(DELEGATE_REGISTRY, 1, 1, 3, [DELEGATE_ALL_TOPIC, addressTopic(alice), addressTopic(bob)], `0x${word(0)}${word(2)}`),
      log(DELEGATE_REGISTRY, 1, 1, 4, [DELEGATE_ALL_TOPIC, addressTopic(alice), addressTopic(bob)], `0x${word(1)}`),
      log(DELEGATE_REGISTRY, 1, 1, 5, [DELEGATE_ERC721_TOPIC, addressTopic(alice), addressTopic(bob)], `0x${word(7)}${word(0)}${word(1)}`),
    ];
    const { delegations, transfers, transfers1155 } = decodeLogs(logs, 5_000, 50_000);
    expect([transfers.length, transfers1155.length]).to.deep.equal([0, 0]);
    expect(delegations).to.deep.equal([
      {
        blockNumber: 1,
        logIndex: 0,
        kind: "all",
        vault: alice,
        delegate: bob.toLowerCase(),
        contract: null,
        tokenId: null,
        rights: hash(0),
        enable: true,
      },
      {
        blockNumber: 1,
        logIndex: 1,
        kind: "token",
        vault: alice,
        delegate: bob.toLowerCase(),
        contract: A.toLowerCase(),
        tokenId: 7n,
        rights,
        enable: false,
      },
    ]);
  });
});
