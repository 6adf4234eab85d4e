import type { Metrics } from "../metrics/metrics";
import type { PoolEvents } from "./pool";

interface Log {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/**
 * What the service and the indexer process report of their providers: a log line when one is marked down (warn) or
 * up again (info), and the per-provider metrics. Fields name the provider by its host only: URLs carry API keys.
 */
export function providerEvents(log: Log, metrics?: Metrics): PoolEvents {
  return {
    health({ network, provider, up, fault, failures, cooldownMs }) {
      metrics?.providerHealth(network, provider, up);
      if (up) log.info({ network, provider }, "rpc provider up");
      else log.warn({ network, provider, fault, failures, cooldownMs }, "rpc provider down");
    },
    answered: metrics && ((network, provider, latency) => metrics.providerAnswered(network, provider, latency)),
    failed: metrics && ((network, provider, fault, failedOver) => metrics.providerFailed(network, provider, fault, failedOver)),
  };
}
