import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { errorCodeOf } from "../chain/errors";
import { forbiddenAddress } from "./address-guard";

/**
 * Why a host named by someone else is not reached: `forbidden`, it is or resolves to an address `forbiddenAddress`
 * refuses (any of its addresses, not only the first); `unresolved`, its name does not resolve; `failed`, resolving
 * failed otherwise. The caller words it for its own domain (a metadata fetch, a webhook endpoint).
 */
export class OutboundRefusal extends Error {
  constructor(
    readonly reason: "forbidden" | "unresolved" | "failed",
    readonly host: string,
    /** What is wrong, without the host (e.g. "127.0.0.1 is a loopback, private, link-local or reserved address"). */
    readonly detail: string,
  ) {
    super(`${host}: ${detail}`);
    this.name = "OutboundRefusal";
  }
}

/** The code a refused lookup fails with inside Node's HTTP client (its error's `cause` is the `OutboundRefusal`). */
export const FORBIDDEN_CODE = "EFORBIDDEN";

/** The host of `url` without the brackets of an IPv6 literal. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "");

/** Refuses `url` when its host is an IP literal `forbiddenAddress` refuses (a name is checked as it resolves). */
export function checkLiteralHost(url: URL): void {
  const host = bareHost(url);
  if (isIP(host) === 0) return;
  const why = forbiddenAddress(host);
  if (why) throw new OutboundRefusal("forbidden", url.host, why);
}

/** Every address a name resolves to, as `dns.lookup` with `all` answers them (the system's resolver, unless a test gives its own). */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolveAll: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, { ...options, all: true }, callback);

/**
 * Every address `url`'s host connects to: its IP literal, or its name resolved; `guarded`, refused (`OutboundRefusal`)
 * when any of them is forbidden, so that no DNS answer can slip a private address in beside a public one.
 */
export async function resolveHost(url: URL, guarded: boolean, resolveAll: ResolveAll = systemResolveAll): Promise<LookupAddress[]> {
  const hostname = bareHost(url);
  const family = isIP(hostname);
  if (family !== 0) {
    if (guarded) checkLiteralHost(url);
    return [{ address: hostname, family }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      resolveAll(hostname, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
    );
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA")
      throw new OutboundRefusal("unresolved", hostname, "does not resolve");
    throw new OutboundRefusal("failed", hostname, `resolving failed${code ? ` (${code})` : ""}`);
  }
  if (addresses.length === 0) throw new OutboundRefusal("unresolved", hostname, "does not resolve");
  const bad = guarded ? addresses.map((a) => forbiddenAddress(a.address)).find((why) => why !== undefined) : undefined;
  if (bad) throw new OutboundRefusal("forbidden", hostname, bad);
  return addresses;
}

/**
 * dns.lookup for Node's HTTP clients, refusing a host when any address it resolves to is forbidden (both the one- and
 * all-address forms): the connection goes to an address that was checked, with no second resolution an attacker's DNS
 * could answer differently. A socket a keep-alive agent with this lookup pools was checked when it connected.
 */
export const guardedLookup =
  (resolveAll: ResolveAll = systemResolveAll): LookupFunction =>
  (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const bad = addresses.map((a) => forbiddenAddress(a.address)).find((why) => why !== undefined);
      if (bad) return callback(Object.assign(new OutboundRefusal("forbidden", hostname, bad), { code: FORBIDDEN_CODE }), "", 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };

/** {@link guardedLookup} with the system's resolver. */
export const checkedLookup: LookupFunction = guardedLookup();

/** A lookup that answers `address` (already resolved, and checked when the request is guarded). */
export const pinnedLookup =
  (address: LookupAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [address]);
    callback(null, address.address, address.family);
  };
