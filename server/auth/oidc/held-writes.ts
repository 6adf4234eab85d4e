import { AsyncLocalStorage } from "node:async_hooks";
import type { AdapterPayload } from "oidc-provider";
import type { DomainError } from "../../lib/domain-error";
import type { StatementCount } from "../../rate-limits";

/*
 * What the adapter holds back, and the order of oidc-provider's calls it relies on (docs/reference/oidc-provider.md).
 * Each line is one adapter call; [n] is the statement it sends, "-" that it sends none.
 *
 * /api/login (login.ts, in holdWrites):
 *   Grant.upsert              - held
 *   AuthorizationCode.upsert  - held
 *   (login-statement.ts)      [1] WITH counted AS (…the request's count…), (with holdings: their read and the gate,)
 *                                 consumed AS (…challenge…) INSERT grant and code, login_history (siwe proof)
 *
 * /token, grant_type=authorization_code (routes/oidc.ts runs it in inRequestScope):
 *   AuthorizationCode.find    [1] SELECT the code and its grant (or none: the code minted here, from MintedCodes)
 *   Grant.find                - answered from [1]              needs: the code is read before its grant
 *   AuthorizationCode.consume - held                           phase no-code -> code-consumed
 *   AccessToken.upsert        - held (gty authorization_code)  phase code-consumed -> access-token-held
 *   issueRefreshToken hook    - if it answers false: [2] consume + access token (writeHeldTokens)
 *   RefreshToken.upsert       [2] WITH counted AS (…), consumed AS (UPDATE … code) INSERT access + refresh token   -> written
 *   end of request            - if anything is still held (the exchange failed after consume): [2] (writeHeldAfterRequest)
 *
 * /token, grant_type=refresh_token and /userinfo: the token's find reads its grant along ([1]); the grant's find is
 * answered from it; every write goes out as it comes (nothing is held).
 *
 * If oidc-provider read a grant before its token, or saved the access token before consuming the code, nothing
 * breaks: the reads and writes simply go out one by one (one round trip more each). If it consumed a code and never
 * saved a refresh token nor asked the hook, the consumption waits for the end of the request (still before the answer).
 * test/server/auth/held-writes.test.ts asserts this sequence, adapter calls and statements, through the real provider.
 */

/** A record oidc-provider saved while it was held back. */
export interface HeldWrite {
  kind: string;
  id: string;
  payload: AdapterPayload;
  expiresAt: Date | null;
}

/** A record as read from the database: its payload, and when it was consumed. */
export interface StoredRecord {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/** Consumes the exchange's code and stores `writes` with it, in one statement (the adapter's `consumeWith`). */
export type ConsumeCodeWith = (writes: HeldWrite[]) => Promise<void>;

/** Where a code exchange is in holding back its writes. */
type Exchange =
  /** No code consumed in this request: every write is stored as it comes. */
  | { phase: "no-code" }
  /** The code's consumption is held: the access token, or the refresh token, comes next. */
  | { phase: "code-consumed"; consumeWith: ConsumeCodeWith }
  /** The consumption and the access token are held: the refresh token takes them along. */
  | { phase: "access-token-held"; consumeWith: ConsumeCodeWith; accessToken: HeldWrite }
  /** What was held is stored: later writes are stored as they come. */
  | { phase: "written" };

/** A request oidc-provider handles (every one routes/oidc.ts hands it). */
export interface ProviderRequest {
  kind: "provider-request";
  /** Whether it authenticates its client with a Basic header (the adapter's client record says so). */
  basic: boolean;
  /** Grants read along with their token, by id, for the grant's find that follows; each is handed out once. */
  grantsAhead: Map<string, StoredRecord>;
  exchange: Exchange;
  /** Of a database refusal the adapter turned into a 503: when to try again (seconds), for the Retry-After header. */
  retryAfterSeconds: number | undefined;
  /** The claims stored with the grants read in this request (grant-claims.ts), by grant id. */
  grantClaims: Map<string, Record<string, unknown>>;
  /**
   * The request's rate-limit count, made by the code's statement of an exchange (adapter.ts), else before the answer
   * goes out (counted-requests.ts); undefined when it was made before the request reached oidc-provider.
   */
  count: RequestCount | undefined;
}

/** A request's count for its statement to make, and its settling when none did (server/http/rate-limit.ts). */
export interface RequestCount {
  statement: StatementCount;
  settle(): Promise<DomainError | undefined>;
}

/** `mintCode` run by /api/login: every write is held and handed to login.ts, which stores them with its own. */
interface Minting {
  kind: "minting";
  writes: HeldWrite[];
}

const requestScope = new AsyncLocalStorage<ProviderRequest | Minting>();

/**
 * Runs one oidc-provider request in its scope: `basic`, whether it authenticates its client with a Basic header;
 * `count`, its rate-limit count when a statement of the request is to make it.
 */
export function inRequestScope<T>({ basic, count }: { basic: boolean; count?: RequestCount }, fn: () => T): T {
  return requestScope.run(
    {
      kind: "provider-request",
      basic,
      count,
      grantsAhead: new Map(),
      exchange: { phase: "no-code" },
      retryAfterSeconds: undefined,
      grantClaims: new Map(),
    },
    fn,
  );
}

/** The oidc-provider request being handled, if any. */
export function providerRequest(): ProviderRequest | undefined {
  const scope = requestScope.getStore();
  return scope?.kind === "provider-request" ? scope : undefined;
}

/**
 * Runs `fn` (which saves oidc-provider models, e.g. a grant and its code) with the adapter's writes held back and
 * handed over instead, so that the caller stores them together with its own write in one statement.
 */
export async function holdWrites<T>(fn: () => Promise<T>): Promise<{ result: T; writes: HeldWrite[] }> {
  const scope: Minting = { kind: "minting", writes: [] };
  const result = await requestScope.run(scope, fn);
  return { result, writes: scope.writes };
}

/** The adapter's `upsert`: `write` is held, or stored now by `store` (with what it completes, by the code's statement). */
export async function saveOrHold(write: HeldWrite, store: (write: HeldWrite) => Promise<void>): Promise<void> {
  const scope = requestScope.getStore();
  if (scope?.kind === "minting") {
    scope.writes.push(write);
    return;
  }
  if (scope !== undefined) {
    const { exchange } = scope;
    if (exchange.phase === "code-consumed" && write.kind === "AccessToken" && write.payload.gty === "authorization_code") {
      scope.exchange = { phase: "access-token-held", consumeWith: exchange.consumeWith, accessToken: write };
      return;
    }
    if (exchange.phase !== "no-code" && exchange.phase !== "written" && write.kind === "RefreshToken") return flush(scope, [write]);
  }
  await store(write);
}

/**
 * The adapter's `consume`: a code's consumption in an oidc-provider request is held (see the sketch above), any other
 * consumption made now by `consumeNow`.
 */
export async function consumeOrHold(kind: string, consumeNow: () => Promise<void>, consumeWith: ConsumeCodeWith): Promise<void> {
  const scope = providerRequest();
  if (scope && kind === "AuthorizationCode" && scope.exchange.phase === "no-code") {
    scope.exchange = { phase: "code-consumed", consumeWith };
    return;
  }
  await consumeNow();
}

/**
 * Writes what a code exchange holds back (the code's consumption, the access token) now, when no refresh token
 * follows to take them along. Throws oidc-provider's error for a reused code, as the code's `consume` would.
 */
export async function writeHeldTokens(): Promise<void> {
  const scope = providerRequest();
  if (scope) await flush(scope, []);
}

/**
 * oidc-provider middleware: after a request, before its answer goes out, writes what it still holds. That is the
 * code of an exchange that failed after the code was consumed (e.g. on a bad `resource`): consumed all the same, as
 * it would have been without holding it back (a reuse found then only revokes the grant; the answer is an error
 * already).
 */
export async function writeHeldAfterRequest(_ctx: unknown, next: () => Promise<void>): Promise<void> {
  await next();
  await writeHeldTokens().catch(() => undefined);
}

/** Stores what the exchange holds, with `writes` after it, by the code's statement; nothing when nothing is held. */
async function flush(scope: ProviderRequest, writes: HeldWrite[]): Promise<void> {
  const exchange = scope.exchange;
  if (exchange.phase !== "code-consumed" && exchange.phase !== "access-token-held") return;
  scope.exchange = { phase: "written" };
  await exchange.consumeWith(exchange.phase === "access-token-held" ? [exchange.accessToken, ...writes] : writes);
}
