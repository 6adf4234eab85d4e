import type { Queryable } from "../db/database";
import type { AlongWrite } from "./challenges";

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

/**
 * Stores the message and signature with the grant `grantId` as a write of the statement that redeems the login's
 * challenge (see consumeChallenge), after the grant's own insert: the row refers to it.
 */
export function saveProofAlong(grantId: string, message: string, signature: string): AlongWrite {
  return (condition, first) => ({
    sql: `INSERT INTO login_siwe_proofs (grant_id, message, signature) SELECT $${first}::text, $${first + 1}::text, $${first + 2}::text WHERE ${condition}`,
    params: [grantId, message, signature],
  });
}

/** The proof stored with a grant, as ID-token claims; undefined when the grant has none (a login without `siwe`). */
export async function findProof(db: Queryable, grantId: string): Promise<SiweProof | undefined> {
  const { rows } = await db.query<{ message: string; signature: string }>(
    "SELECT message, signature FROM login_siwe_proofs WHERE grant_id = $1",
    [grantId],
  );
  return rows[0] ? { siwe_message: rows[0].message, siwe_signature: rows[0].signature } : undefined;
}
