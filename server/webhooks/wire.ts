import type { Subscription } from "./subscriptions";

/** A subscription as the HTTP API answers it and `npm run webhooks -- … --json` prints it (never its secrets). */
export function describe(s: Subscription) {
  return {
    id: s.id,
    client_id: s.clientId,
    network: s.network,
    url: s.url,
    description: s.description,
    kinds: s.kinds,
    contracts: s.contracts,
    owners: s.owners,
    confirmations: s.confirmations,
    spam: s.spam,
    enabled: s.enabled,
    disabled_reason: s.disabledReason,
    disabled_at: s.disabledAt?.toISOString() ?? null,
    cursor: s.cursor,
    attempts: s.attempts,
    failing_since: s.failingSince?.toISOString() ?? null,
    last_error: s.lastError,
    next_attempt_at: s.nextAttemptAt.toISOString(),
    created_at: s.createdAt.toISOString(),
  };
}
