import type { AdapterPayload } from "oidc-provider";
import { providerRequest, type HeldWrite } from "./held-writes";

/*
 * Claims a login decided and the code exchange hands on: stored in the grant's row, beside what oidc-provider keeps of
 * a grant. oidc-provider drops what it does not know when it reads a grant, so the adapter, which reads the row whole,
 * keeps them in the request's scope for findAccount (provider.ts). They travel with the grant the login statement
 * stores and the grant this instance remembers with its code (MintedCodes), so the exchange costs no statement more.
 */

/** The member of a grant's stored payload that holds them: a name oidc-provider does not use. */
const KEY = "loginClaims";

/** Adds `claims` to the grant among `writes` (held by `holdWrites`), before they are stored. */
export function withGrantClaims(writes: HeldWrite[], claims: Record<string, unknown>): void {
  const grant = writes.find((write) => write.kind === "Grant");
  if (grant) grant.payload[KEY] = claims;
}

/** The adapter, for each grant it reads: its claims are kept for the rest of the request. */
export function noteGrantClaims(id: string, payload: AdapterPayload): void {
  const claims = payload[KEY];
  if (claims && typeof claims === "object") providerRequest()?.grantClaims.set(id, claims as Record<string, unknown>);
}

/** The claims stored with grant `grantId`, when this request read it. */
export function grantClaims(grantId: string | undefined): Record<string, unknown> | undefined {
  return grantId === undefined ? undefined : providerRequest()?.grantClaims.get(grantId);
}
