import { networkUnavailable, unknownNetwork } from "../chain/errors";
import { NETWORKS } from "../chain/registry";
import type { WebhooksConfig } from "../config/settings";
import type { Queryable } from "../db/database";
import { checkEndpoint } from "./endpoint";
import { webhooksOff } from "./errors";
import { checkSubscriptionInput, createSubscription, type Subscription, type SubscriptionInput } from "./subscriptions";

/**
 * Makes a subscription for a client (null: the operator), the one way both the CLI and the HTTP API subscribe: the
 * network must be one this service indexes (`served`), the input is checked whole (kinds, filters and their number,
 * confirmations, spam),
 * then the endpoint (its form and every address it resolves to); only then is it stored. Answers it with its secret.
 */
export async function subscribe(
  db: Queryable,
  request: {
    input: SubscriptionInput;
    clientId: string | null;
    config: WebhooksConfig;
    served: readonly string[];
    now: number;
  },
): Promise<{ subscription: Subscription; secret: string }> {
  const { input, config } = request;
  const keys = config.secretKeys;
  if (keys === undefined) throw webhooksOff();
  if (!Object.hasOwn(NETWORKS, input.network)) throw unknownNetwork(input.network, request.served);
  if (!request.served.includes(input.network)) throw networkUnavailable(input.network);
  // A subscription that names no confirmations takes its network's default (WEBHOOKS_CONFIRMATIONS), else none.
  const checked = checkSubscriptionInput(
    { ...input, confirmations: input.confirmations ?? config.confirmations?.[input.network] },
    config.maxFilters,
  );
  const url = await checkEndpoint(input.url, config);
  return createSubscription(db, {
    ...checked,
    clientId: request.clientId,
    network: input.network,
    url,
    keys,
    now: request.now,
    maxPerClient: request.clientId === null ? undefined : config.maxPerClient,
  });
}
