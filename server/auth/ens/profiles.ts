import { upstreamError } from "../../chain/errors";
import { primaryProfile } from "../../chain/ens";
import type { Clock } from "../../lib/clock";
import { avatarUrl, type AvatarDeps } from "./avatar";

/** The `profile` scope's claims this service gives: the ENS primary name and its avatar. */
export interface ProfileClaims {
  preferred_username?: string;
  picture?: string;
}

/** Lookups under way at once, and waiting (then a login's lookup is dropped; a later login asks again). */
const CONCURRENCY = 4;
const MAX_QUEUED = 1000;
/** What the memory holds at most: addresses, and their claims' characters (pictures may be data: URLs). */
const MAX_ENTRIES = 20_000;
const MAX_CHARS = 16 * 1024 * 1024;
/** An entry not confirmed for this long (a node down meanwhile) is no longer served. */
const STALE_LIMIT_MS = 86_400_000;

export interface EnsProfilesOptions extends AvatarDeps {
  /** How long an entry is used before a login looks it up again. */
  ttlMs: number;
  clock: Clock;
  log: { warn(object: object, message: string): void };
}

interface Entry {
  claims: ProfileClaims;
  checkedAt: number;
  chars: number;
}

/**
 * Each address's ENS profile, looked up off the login's path: `refresh` (at /api/authorize and /api/login) queues a
 * lookup unless the entry is fresh or one is queued already, and never waits; `claims` (at token and userinfo time)
 * gives what the memory holds, nothing when the lookup has not finished. A lookup that fails keeps the last entry.
 * This instance's memory: another instance looks the address up again at its own logins.
 */
export class EnsProfiles {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  private readonly queue: string[] = [];
  private readonly pending = new Set<string>();
  private running = 0;
  private closed = false;

  constructor(private readonly options: EnsProfilesOptions) {}

  /**
   * The claims of the account `sub` (of `address`). A contract wallet proven on another chain than ENS's
   * (`eip155:<chain id>:…`) gets none: on ENS's chain the same address may be someone else's wallet.
   */
  claims(sub: string, address: string): ProfileClaims {
    const chain = /^eip155:(\d+):/.exec(sub);
    if (chain && Number(chain[1]) !== this.options.networks.info(this.options.network).chainId) return {};
    const entry = this.entries.get(address.toLowerCase());
    if (!entry || this.options.clock() - entry.checkedAt > Math.max(STALE_LIMIT_MS, this.options.ttlMs)) return {};
    return entry.claims;
  }

  refresh(address: string): void {
    const key = address.toLowerCase();
    const entry = this.entries.get(key);
    if (this.closed || this.pending.has(key) || (entry && this.options.clock() - entry.checkedAt < this.options.ttlMs)) return;
    if (this.queue.length >= MAX_QUEUED) return;
    this.pending.add(key);
    this.queue.push(key);
    this.next();
  }

  /** Lookups under way or queued (tests wait for them to settle). */
  get busy(): number {
    return this.pending.size;
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private next(): void {
    while (this.running < CONCURRENCY && this.queue.length > 0) {
      const key = this.queue.shift()!;
      this.running++;
      void this.lookup(key).finally(() => {
        this.running--;
        this.pending.delete(key);
        this.next();
      });
    }
  }

  private async lookup(address: string): Promise<void> {
    const { network, networks } = this.options;
    try {
      const profile = await primaryProfile(networks, network, address);
      const picture = profile.name && profile.avatar ? await avatarUrl(this.options, address, profile.avatar) : null;
      if (this.closed) return;
      this.store(address, { ...(profile.name ? { preferred_username: profile.name } : {}), ...(picture ? { picture } : {}) });
    } catch (error) {
      if (this.closed || upstreamError(error, network)) return;
      this.options.log.warn({ err: error, address }, "ENS profile lookup failed");
    }
  }

  private store(address: string, claims: ProfileClaims): void {
    const old = this.entries.get(address);
    if (old) {
      this.entries.delete(address);
      this.chars -= old.chars;
    }
    const chars = address.length + (claims.preferred_username?.length ?? 0) + (claims.picture?.length ?? 0);
    this.entries.set(address, { claims, checkedAt: this.options.clock(), chars });
    this.chars += chars;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.chars <= MAX_CHARS) break;
      this.entries.delete(oldest);
      this.chars -= entry.chars;
    }
  }
}
