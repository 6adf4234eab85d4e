import type { Queryable } from "../db/database";

/**
 * The `siwe` scope (docs/reference/login.md): the ID token carries the exact message the wallet signed and the signature, so that
 * a relying party can check the login itself instead of trusting this service. The names are private claim names
 * (RFC 7519 §4.3; no registered claim carries a signed message) prefixed with the standard's usual name, Sign-In with
 * Ethereum (EIP-4361).
 */
export const SIWE_SCOPE = "siwe";
export const SIWE_CLAIMS = ["siwe_message", "siwe_signature"] as const;

export interface SiweProof {
  siwe_message: string;
  siwe_signature: string;
}

export const wantsSiweProof = (scope: string): boolean => scope.split(" ").includes(SIWE_SCOPE);

/** The proof stored with a grant, as ID-token claims; undefined when the grant has none (a login without `siwe`). */
export async function findProof(db: Queryable, grantId: string): Promise<SiweProof | undefined> {
  const { rows } = await db.query<{ message: string; signature: string }>(
    "SELECT message, signature FROM login_siwe_proofs WHERE grant_id = $1",
    [grantId],
  );
  return rows[0] ? { siwe_message: rows[0].message, siwe_signature: rows[0].signature } : undefined;
}
