/**
 * oidc-provider, behind one module (docs/reference/oidc-provider.md): its configuration for wallet logins (provider.ts), its
 * storage on our database (adapter.ts), the writes that storage holds back to save round trips (held-writes.ts), and
 * every reliance on its internals (internals.ts). The rest of server/auth imports this entry, never the modules beside
 * it, and nothing outside this folder imports oidc-provider (test/server/http/layers.test.ts).
 */
export type { Provider } from "oidc-provider";
export { deleteClientPayloads, deleteExpiredPayloads, heldColumns, MintedCodes } from "./adapter";
export { grantClaims, withGrantClaims, withGrantHoldings } from "./grant-claims";
export { holdWrites, inRequestScope, type HeldWrite } from "./held-writes";
export { assertPatched, loadOidcLibrary, loadOidcLibraryOrExit, UnpatchedLibraryError } from "./internals";
export {
  clientOfAccessToken,
  createProvider,
  mintCode,
  OIDC_ROUTES,
  SCOPES,
  subjectFor,
  type CurrentHoldings,
  type MintInput,
} from "./provider";
