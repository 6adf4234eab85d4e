import { NODE_ERRORS, type FaultPlan, type FaultProxy } from "./fault-proxy";

/**
 * The fault kinds the proxy in front of the node switches between, one after another, each for an equal share of a
 * sampling window, each time from the same seed: every window sees the same mix and the same draws (which call fails,
 * how slow the node is), so a window's p99 is comparable with another's.
 */
export const FAULT_KINDS: Array<{ name: string; plan: FaultPlan }> = [
  { name: "none", plan: {} },
  { name: "HTTP 429 and 502", plan: { failRate: 0.3, failWith: [NODE_ERRORS.tooManyRequests, NODE_ERRORS.badGateway] } },
  {
    name: "errors in an HTTP 200 (-32005, header not found)",
    plan: { failRate: 0.3, failWith: [NODE_ERRORS.rateLimitedInBody, NODE_ERRORS.headerNotFound] },
  },
  { name: "log index lagging 3 blocks", plan: { logsLag: 3 } },
  { name: "newest 2 headers null", plan: { nullHeaders: 2 } },
  {
    name: "slow node (0.2 to 1.5 s a call)",
    plan: { delayMs: [200, 1_500] },
  },
];

/** Switches the proxy's fault kind every `windowMs / FAULT_KINDS.length`; `stop()` leaves it without faults. */
export function cycleFaults(proxy: FaultProxy, windowMs: number) {
  let kind = 0;
  const switches: Record<string, number> = {};
  const step = () => {
    const index = kind++ % FAULT_KINDS.length;
    const { name, plan } = FAULT_KINDS[index];
    proxy.reseed(index + 1);
    proxy.plan = plan;
    switches[name] = (switches[name] ?? 0) + 1;
  };
  step();
  const timer = setInterval(step, windowMs / FAULT_KINDS.length);
  return {
    switches,
    stop() {
      clearInterval(timer);
      proxy.plan = {};
    },
  };
}
