import type { Database } from "../db/database";
import { changeLogPositions } from "../indexer";
import { invalidSubscription, replayOutOfRange } from "./errors";
import { findSubscription, replayFrom, type Subscription } from "./subscriptions";

/** The change log keeps every change of its last day (server/indexer/store/changes.ts, CHANGES_RETENTION). */
const LOG_DAY_MS = 86_400_000;

/**
 * Delivers a subscription's changes again from change `fromEvent` (included) or from those logged at `fromTime` or
 * later, within what the change log keeps (refused, `replay_out_of_range`, before its oldest change).
 */
export async function replay(
  db: Database,
  request: { id: string; clientId: string | null; fromEvent?: string; fromTime?: string; now: number },
): Promise<Subscription> {
  await findSubscription(db, request.id, request.clientId);
  if ((request.fromEvent === undefined) === (request.fromTime === undefined))
    throw invalidSubscription("a replay names one of from_event (a webhook-id) or from_time (an ISO 8601 time)");
  let after: bigint | undefined;
  let time = new Date(request.now);
  if (request.fromEvent !== undefined) {
    if (!/^[1-9]\d{0,18}$/.test(request.fromEvent)) throw invalidSubscription("from_event is a webhook-id this service sent");
    after = BigInt(request.fromEvent) - 1n;
  } else {
    time = new Date(request.fromTime!);
    if (!/^\d{4}-\d\d-\d\dT/.test(request.fromTime!) || Number.isNaN(time.getTime()))
      throw invalidSubscription("from_time is an ISO 8601 time such as 2025-01-31T12:00:00Z");
  }
  const log = await changeLogPositions(db, time);
  // From a time: after the newest change logged before it. None kept before it: all the log keeps, when the time is
  // within the log's last day (it keeps all of that); else what it asks for may have been pruned.
  if (after === undefined) after = log.beforeTime ?? (time.getTime() >= request.now - LOG_DAY_MS ? log.before : -1n);
  if (after < log.before) throw replayOutOfRange(log.oldestAt);
  return replayFrom(db, { id: request.id, clientId: request.clientId, after, now: request.now });
}
