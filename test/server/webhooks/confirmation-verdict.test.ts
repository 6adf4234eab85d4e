import { expect } from "chai";
import { confirmationVerdict } from "../../../server/webhooks/confirmations";

describe("webhooks: what a subscription with confirmations decides of a change", function () {
  // The index reached block 110; a shallow reorg undid blocks above 103 (a shorter chain: the head fell to 103 and
  // grew to 104); then a deeper one undid blocks above 95. A transfer of block 100 was logged as change 5, its removal
  // as change 13.
  const rollbacks = [
    { changeId: 10n, ancestor: 103, head: 110 },
    { changeId: 12n, ancestor: 95, head: 104 },
  ];
  const transfer = { id: "5", kind: "transfer" as const, block_number: "100" };
  const removed = { id: "13", kind: "removed" as const, block_number: "100" };

  it("sends a transfer and its removal alike: both when the index held it ten deep before the reorg that undid it, neither when not", function () {
    // Ten deep at block 110, before the first (shallow) reorg: sent, and so is its retraction, though the reorg that
    // undid it came when the head was at 104.
    expect(confirmationVerdict(transfer, rollbacks, 96, 10)).to.equal("send");
    expect(confirmationVerdict(removed, rollbacks, 96, 10)).to.equal("send");
    // Never eleven deep: neither.
    expect(confirmationVerdict(transfer, rollbacks, 96, 11)).to.equal("skip");
    expect(confirmationVerdict(removed, rollbacks, 96, 11)).to.equal("skip");
  });

  it("waits for a change no rollback undid until the head is deep enough, and sends resets and unconfirmed subscriptions' changes at once", function () {
    const later = { id: "20", kind: "transfer" as const, block_number: "100" };
    expect(confirmationVerdict(later, rollbacks, 104, 10)).to.deep.equal({ waitFor: 110 });
    expect(confirmationVerdict(later, rollbacks, 110, 10)).to.equal("send");
    expect(confirmationVerdict({ id: "21", kind: "reset", block_number: null as unknown as string }, rollbacks, 0, 10)).to.equal("send");
    expect(confirmationVerdict(later, rollbacks, 100, 0)).to.equal("send");
  });
});
