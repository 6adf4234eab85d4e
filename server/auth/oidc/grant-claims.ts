import type { AdapterPayload } from "oidc-provider";
import { claimOfStored, HOLDINGS_CLAIM } from "../holdings";
import { providerRequest, type HeldWrite } from "./held-writes";

/*
 * Claims a login decided and the code exchange hands on: stored in the grant's row, beside what oidc-provider keeps of
 * a grant. oidc-provider drops what it does not know when it reads a grant, so the adapter, which reads the row whole,
 * keeps them in the request's scope for findAccount (provider.ts). They travel with the grant the login statement
 * stores and the grant this instance remembers with its code (MintedCodes), so the exchange costs no statement more.
 * The holdings claim is stored as what it is made of: the statement that redeems the challenge reads the holdings and
 * stores the grant at once (login-statement.ts), so it adds the rows it read to the configuration the login put in the
 * grant, and the claim is made of them when the grant is read (the grant this instance remembers carries it made).
 */

/** The member of a grant's stored payload that holds them: a name oidc-provider does not use. */
const KEY = "loginClaims";
/** The member that holds the holdings as stored (holdings.ts, StoredHoldings): login-statement.ts names it too. */
const HOLDINGS_KEY = "loginHoldings";

/** Adds `claims` to the grant among `writes` (held by `holdWrites`), before they are stored. */
export function withGrantClaims(writes: HeldWrite[], claims: Record<string, unknown>): void {
  const grant = writes.find((write) => write.kind === "Grant");
  if (grant) grant.payload[KEY] = claims;
}

/** Puts the holdings configuration a login reads in the grant among `writes`, for the redeeming statement to add its rows. */
export function withGrantHoldings(writes: HeldWrite[], config: Record<string, unknown>): void {
  const grant = writes.find((write) => write.kind === "Grant");
  if (grant) grant.payload[HOLDINGS_KEY] = { config };
}

/** The adapter, for each grant it reads: its claims are kept for the rest of the request. */
export function noteGrantClaims(id: string, payload: AdapterPayload): void {
  const stored = payload[KEY];
  const claims = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  const holdings = HOLDINGS_CLAIM in claims ? undefined : claimOfStored(payload[HOLDINGS_KEY]);
  const all = holdings ? { ...claims, [HOLDINGS_CLAIM]: holdings } : claims;
  if (Object.keys(all).length > 0) providerRequest()?.grantClaims.set(id, all);
}

/** The claims stored with grant `grantId`, when this request read it. */
export function grantClaims(grantId: string | undefined): Record<string, unknown> | undefined {
  return grantId === undefined ? undefined : providerRequest()?.grantClaims.get(grantId);
}
