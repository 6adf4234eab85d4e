import { rpcEnvName } from "../chain/registry";
import { DomainError } from "../lib/domain-error";

/**
 * The login's refusals (docs/reference/login.md, "Errors"): `/api/authorize` and `/api/login` answer them as
 * `{"error", "message"}`, the oidc-provider routes in their own dialect.
 */

/** A missing or malformed field, or bad PKCE. */
export const invalidRequest = (message: string) => new DomainError("invalid", "invalid_request", message);

export const invalidClient = () => new DomainError("invalid", "invalid_client", "Unknown client_id");

/** Never answered with a redirect: the URI is what cannot be trusted. */
export const invalidRedirectUri = () =>
  new DomainError("invalid", "invalid_redirect_uri", "redirect_uri is not registered for this client");

export const unsupportedResponseType = () => new DomainError("invalid", "unsupported_response_type", 'response_type must be "code"');

export const invalidScope = () => new DomainError("invalid", "invalid_scope", 'scope must contain "openid"');

export const invalidLang = (message: string) => new DomainError("invalid", "invalid_lang", message);

/** Not hex, a wrong length, a high s: no wallet could have made it. */
export const malformedSignature = (problem: string) => new DomainError("invalid", "malformed_signature", `signature: ${problem}`);

/** A SIWE message names its chain: the login cannot ask another. */
export const networkMismatch = (network: string) =>
  new DomainError("invalid", "network_mismatch", `The message was issued for network ${network}`);

/**
 * A signature that is no EOA's for the message, on a network this service has no node for: only the chain's node can
 * say whether a contract wallet accepts it. The request's fault (it names that network), not an outage: nothing will
 * make it work but another network or an EOA.
 */
export const unsupportedNetwork = (network: string, configured: readonly string[]) =>
  new DomainError(
    "invalid",
    "unsupported_network",
    `Contract-wallet signatures are not checked on network ${network}: this service has no node for it (${rpcEnvName(network)}). ` +
      `Sign with an EOA, or ask for a message on a network it has a node for (${configured.join(", ") || "none"})`,
  );

export const noOpenChallenge = () =>
  new DomainError(
    "unauthorized",
    "invalid_challenge",
    "No open sign-in message for this address and client: ask /api/authorize for one (messages expire after 5 minutes and work once)",
  );

/** The signature verified, but another login redeemed the message first (or it expired meanwhile). */
export const challengeGone = () =>
  new DomainError("unauthorized", "invalid_challenge", "This sign-in message was already used or has expired");

export const invalidSignature = () =>
  new DomainError(
    "unauthorized",
    "invalid_signature",
    "The signature does not prove this address signed an open sign-in message of this client",
  );

/** The requester's quota of open messages is used up: one may be signed or have expired a minute later. */
export const tooManyChallenges = (maxOpen: number) =>
  new DomainError(
    "too_many",
    "too_many_challenges",
    `This client address holds ${maxOpen} open sign-in messages; sign or wait for one to expire (5 minutes)`,
    60,
  );

/** A client's holdings configuration names a network this service does not index: the operator's to fix. */
export const unindexedNetwork = (network: string, indexed: readonly string[]) =>
  new DomainError(
    "invalid",
    "unindexed_network",
    `This client asks for holdings on network ${network}, which this service does not index (indexed: ${indexed.join(", ") || "none"})`,
  );

/** The signature proves the address, but it does not meet the client's gate (holdings.ts says why, in the user's language). */
export const accessDenied = (message: string) => new DomainError("forbidden", "access_denied", message);
