import type { ChangeRollback, ChangeRow } from "../indexer";

/** What a subscription that waits for confirmations does with a change: send it, pass it unsent, or wait for a block. */
export type ConfirmationVerdict = "send" | "skip" | { waitFor: number };

/**
 * Whether a change is `confirmations` blocks deep, decided from the change log alone so that every instance, at any
 * time, decides the same for the same change (docs/reference/webhooks.md#confirmations).
 *
 * A change of block B is deep enough once the index held it while it reached block B + confirmations. The highest
 * block the index reached while it held the change is the highest head recorded by the rollbacks after the change, up
 * to the first that undid block B, or, while none has, the head now (`head`, read with the log). So:
 * - a transfer or metadata change that a rollback undid is sent when that height was reached before, else passed
 *   (a reorg shallower than the confirmations never reaches the receiver);
 * - one still held is sent once the head is deep enough, and waited for until then;
 * - a `removed` is sent exactly when the transfer it retracts was: the rollback that logged it is the first after that
 *   transfer to undo its block, and every rollback between them left the block alone, so walking back from it over
 *   those finds the same height;
 * - a `reset` is sent at once.
 * `rollbacks` are the network's, in the order they happened.
 */
export function confirmationVerdict(
  row: Pick<ChangeRow, "id" | "kind" | "block_number">,
  rollbacks: readonly ChangeRollback[],
  head: number,
  confirmations: number,
): ConfirmationVerdict {
  if (row.kind === "reset" || confirmations === 0) return "send";
  const id = BigInt(row.id);
  const block = Number(row.block_number);
  const needed = block + confirmations;
  if (row.kind === "removed") {
    // The rollback that logged it: the last before its id.
    let at = -1;
    for (let i = 0; i < rollbacks.length && rollbacks[i].changeId < id; i++) at = i;
    // Not kept any more: the retraction is sent (a receiver drops one for a transfer it never got).
    if (at < 0) return "send";
    let highest = rollbacks[at].head;
    for (let i = at - 1; i >= 0 && rollbacks[i].ancestor >= block; i--) highest = Math.max(highest, rollbacks[i].head);
    return highest >= needed ? "send" : "skip";
  }
  let highest = -1;
  for (const rollback of rollbacks) {
    if (rollback.changeId < id) continue;
    highest = Math.max(highest, rollback.head);
    if (rollback.ancestor < block) return highest >= needed ? "send" : "skip";
  }
  return Math.max(highest, head) >= needed ? "send" : { waitFor: needed };
}
