import type { JsonRpcProvider } from "ethers";
import { systemClock, type Clock } from "../lib/clock";
import { DomainError } from "../lib/domain-error";
import { ProviderBackoff } from "./backoff";
import { ANSWER_TOO_LARGE, errorCodeOf, faultInAnswer, nodeErrorOf, rateLimitOf, upstreamError } from "./errors";

/** Weight of the newest answer in a provider's latency average: a provider that slows down loses its lead within a few calls. */
const LATENCY_WEIGHT = 0.3;
/**
 * How fast a latency average ages without an answer: the figure the choice reads halves in this time, and so does the
 * weight of the old average against the next answer. A URL that lost its lead in a slow spell gets no calls to show
 * it is fast again: aged, it gets one, and that answer, not the stale average, decides the lead. A URL k times slower
 * than the chosen one is asked once every this × log2(k).
 */
export const LATENCY_HALF_LIFE_MS = 5_000;
/** A cool-down doubles with each failure in a row up to this many times the first one. */
const MAX_COOLDOWN_FACTOR = 32;

/**
 * Why a provider was passed over: the outcomes of `rpc_calls_total` that are the provider's fault, or `diverged`: it
 * serves a branch that left the chain the network's other URLs serve (the indexer finds it, {@link ProviderPool.passOver}).
 */
export type ProviderFault = "rate_limited" | "timeout" | "transport_error" | "diverged";

/** What the pool tells its observers (metrics, log lines); every field is safe to log: `provider` is the redacted host. */
export interface PoolEvents {
  /** A provider was marked down (it failed while up) or up again (it answered while down). */
  health?(change: { network: string; provider: string; up: boolean; fault?: ProviderFault; failures: number; cooldownMs: number }): void;
  /** A call of a provider answered; `latencySeconds` is its average since (what the choice reads). */
  answered?(network: string, provider: string, latencySeconds: number): void;
  /** A call of a provider failed by the provider's fault; `failedOver`: the call went on to another provider. */
  failed?(network: string, provider: string, fault: ProviderFault, failedOver: boolean): void;
}

/**
 * One URL's health as the whole instance sees it: its failures in a row, the average time it takes to answer
 * (exponentially weighted), and until when it is passed over (its cool-down, after a failure). It knows nothing of
 * HTTP or ethers: the pool reports to it.
 */
export class ProviderHealth {
  /** The average as of the last answer (the metrics' figure); the choice reads it aged ({@link estimate}). */
  latencyMs: number | undefined;
  /** When the last answer came (the clock's milliseconds). */
  private answeredAt = 0;
  failures = 0;
  coolUntil = 0;
  up = true;

  constructor(private readonly cooldownMs: number) {}

  cooling(now: number): boolean {
    return now < this.coolUntil;
  }

  /** The average the choice reads at `now`: halved each {@link LATENCY_HALF_LIFE_MS} since the last answer; undefined until one. */
  estimate(now: number): number | undefined {
    return this.latencyMs === undefined ? undefined : this.latencyMs * this.freshness(now);
  }

  /** 1 at the last answer, halved each {@link LATENCY_HALF_LIFE_MS} since (never above 1 if the clock stepped back). */
  private freshness(now: number): number {
    return 2 ** (-Math.max(0, now - this.answeredAt) / LATENCY_HALF_LIFE_MS);
  }

  /** Records an answer that took `ms`, at `now`; true when the provider was down (it is up again). */
  answered(ms: number, now: number): boolean {
    if (this.latencyMs === undefined) this.latencyMs = ms;
    else {
      const oldWeight = (1 - LATENCY_WEIGHT) * this.freshness(now);
      this.latencyMs = (1 - oldWeight) * ms + oldWeight * this.latencyMs;
    }
    this.answeredAt = now;
    const wasDown = !this.up;
    this.failures = 0;
    this.coolUntil = 0;
    this.up = true;
    return wasDown;
  }

  /** Records a failure and starts (or lengthens) the cool-down, at least `pauseMs` (a 429's); true when it was up. */
  failed(now: number, pauseMs = 0): boolean {
    this.failures++;
    const cooldown = this.cooldownMs * Math.min(MAX_COOLDOWN_FACTOR, 2 ** (this.failures - 1));
    this.coolUntil = Math.max(this.coolUntil, now + Math.max(cooldown, pauseMs));
    const wasUp = this.up;
    this.up = false;
    return wasUp;
  }
}

/** One URL of a network: its provider, its 429 pause and its health. */
export interface PoolMember {
  readonly url: string;
  /** The URL's host (and port): what metrics and logs name it by. Paths and queries carry paid providers' keys. */
  readonly label: string;
  readonly provider: JsonRpcProvider;
  readonly backoff: ProviderBackoff;
  readonly health: ProviderHealth;
}

/** The call a probe sends: the cheapest every node answers. */
const PROBE = { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] } as const;

/** The host of `url`, never its path, query or credentials (where paid providers put their keys). */
export function redactedHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "invalid";
  }
}

/** Labels of `urls`, by host; a host given twice gets `#2`, `#3` after the first so that each URL keeps its own series. */
export function providerLabels(urls: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return urls.map((url) => {
    const host = redactedHost(url);
    const count = (seen.get(host) ?? 0) + 1;
    seen.set(host, count);
    return count === 1 ? host : `${host}#${count}`;
  });
}

/**
 * A network's providers, one per configured URL, chosen per call: the fastest of those not cooling down after a
 * failure nor paused by a 429. A call that fails by the provider's fault (transport error, HTTP error, timeout,
 * 429) goes on to the next provider within the same call; an answer of the node (a JSON-RPC error, a revert) is the
 * caller's and is not tried elsewhere. With every provider down the call still goes to the one whose cool-down ends
 * first: a network is never refused because of its health, and one URL behaves as it always did.
 */
export class ProviderPool {
  constructor(
    readonly network: string,
    readonly members: readonly PoolMember[],
    private readonly events: PoolEvents = {},
    private readonly clock: Clock = systemClock,
  ) {}

  /** When each URL was last sent a call (the clock's milliseconds), for the probes of idle ones. */
  private readonly lastSent = new Map<PoolMember, number>();

  async run<T>(send: (member: PoolMember) => Promise<T>): Promise<T> {
    const left = [...this.members];
    for (;;) {
      const member = this.pick(left);
      left.splice(left.indexOf(member), 1);
      // Wait out a 429 pause only where there is nowhere else to go.
      const wait = left.every((other) => other.backoff.paused(this.clock()));
      // Timed from the send that answered: a wait for a 429 pause is not the provider's speed.
      let started = 0;
      try {
        const result = await member.backoff.run(
          () => {
            started = performance.now();
            this.lastSent.set(member, this.clock());
            return send(member);
          },
          { wait },
        );
        this.answered(member, performance.now() - started);
        return result;
      } catch (error) {
        const fault = faultOf(error);
        if (!fault) throw error;
        this.failed(member, fault, left.length > 0);
        if (left.length === 0) throw error;
      }
    }
  }

  /**
   * Sends `eth_blockNumber` to each URL that was sent nothing for `idleMs` (a cooling one included, not one paused by
   * a 429, whose pause is known), and records how it answered as a call's answer or fault: an idle instance's health
   * of its providers, and `rpc_provider_up`, stay current. `send` sends on one URL's provider.
   */
  async probe(idleMs: number, send: (member: PoolMember, payload: typeof PROBE) => Promise<unknown>): Promise<void> {
    const now = this.clock();
    const idle = this.members.filter((member) => now - (this.lastSent.get(member) ?? 0) >= idleMs && !member.backoff.paused(now));
    await Promise.all(
      idle.map(async (member) => {
        this.lastSent.set(member, now);
        const started = performance.now();
        try {
          await send(member, PROBE);
          this.answered(member, performance.now() - started);
        } catch (error) {
          const fault = faultOf(error);
          if (fault) this.failed(member, fault, false);
        }
      }),
    );
  }

  /**
   * Passes `member` over for its cool-down, as after a failure of its own, for a fault no call saw (its answers are of
   * a branch the other URLs left): its next answer, after the cool-down or to a probe, makes it up again.
   */
  passOver(member: PoolMember, fault: ProviderFault): void {
    this.failed(member, fault, false);
  }

  /** The provider a call goes to next among `left`. */
  private pick(left: readonly PoolMember[]): PoolMember {
    const now = this.clock();
    const ready = left.filter((member) => !member.health.cooling(now) && !member.backoff.paused(now));
    if (ready.length > 0) {
      // Unmeasured first: a provider's speed is learnt from its first answer.
      const speed = (member: PoolMember) => member.health.estimate(now) ?? -1;
      return ready.reduce((best, member) => (speed(member) < speed(best) ? member : best));
    }
    const sendable = left.filter((member) => !member.backoff.paused(now));
    const pool = sendable.length > 0 ? sendable : left;
    const until = (member: PoolMember) => (sendable.length > 0 ? member.health.coolUntil : member.backoff.pausedUntil);
    return pool.reduce((best, member) => (until(member) < until(best) ? member : best));
  }

  private answered(member: PoolMember, ms: number): void {
    const wasDown = member.health.answered(ms, this.clock());
    this.events.answered?.(this.network, member.label, (member.health.latencyMs ?? ms) / 1000);
    if (wasDown) this.events.health?.({ network: this.network, provider: member.label, up: true, failures: 0, cooldownMs: 0 });
  }

  private failed(member: PoolMember, fault: ProviderFault, failedOver: boolean): void {
    const now = this.clock();
    // A 429 passes the provider over for its whole pause at least.
    const wasUp = member.health.failed(now, member.backoff.pausedUntil - now);
    this.events.failed?.(this.network, member.label, fault, failedOver);
    if (wasUp) {
      const { failures, coolUntil } = member.health;
      this.events.health?.({ network: this.network, provider: member.label, up: false, fault, failures, cooldownMs: coolUntil - now });
    }
  }
}

/**
 * The provider's fault in `error`, or undefined for anything else: an answer of the node (it carries a JSON-RPC
 * `error`: a revert, a refused range; but a rate limit or a missing header inside an HTTP 200 is the provider's), an answer larger than we read (every provider holds the same chain), a pause
 * of ours that had not ended (`upstream_rate_limited` thrown before sending), our own bugs.
 */
export function faultOf(error: unknown): ProviderFault | undefined {
  if (error instanceof DomainError) return undefined;
  if (rateLimitOf(error) !== undefined) return "rate_limited";
  // A JSON-RPC error that reports the provider's fault (a missing header) rather than the node's answer.
  const inAnswer = faultInAnswer(error);
  if (inAnswer) return inAnswer;
  if (nodeErrorOf(error)) return undefined;
  const code = errorCodeOf(error);
  if (code === undefined) return undefined;
  if (code === "TIMEOUT") return "timeout";
  if (code === ANSWER_TOO_LARGE) return undefined;
  return upstreamError(error, "") ? "transport_error" : undefined;
}
