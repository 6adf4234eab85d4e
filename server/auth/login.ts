import { hashMessage, isHexString } from "ethers";
import type { Networks } from "../chain/networks";
import { verifyEoa, verifySignature } from "../chain/signatures";
import { parseAddress } from "../chain/values";
import type { Database } from "../db/database";
import { isForeignKeyViolation } from "../db/errors";
import type { Clock } from "../lib/clock";
import { holdWrites, mintCode, SCOPES, subjectFor, withGrantClaims, withGrantHoldings, type MintedCodes, type Provider } from "./oidc";
import { requesterOf } from "../lib/requester";
import type { StatementCount } from "../rate-limits";
import { openChallenges, saveChallenge, type Challenge, type RecentChallenges } from "./challenges";
import type { CachedClients, LoginClient } from "./clients";
import * as refuse from "./errors";
import {
  CHALLENGE_TTL_MS,
  FORMATS,
  LANGS,
  loginMessage,
  newRandom,
  siweMessage,
  siweStatement,
  type Lang,
  type MessageFormat,
} from "./messages";
import { DomainError } from "../lib/domain-error";
import { randomString } from "../lib/random";
import { redeemLogin } from "./login-statement";
import { wantsSiweProof } from "./siwe-proofs";
import { caip10Subject } from "./subjects";
import {
  claimedCollections,
  gateRefusalText,
  holdingsAsked,
  holdingsCheck,
  holdingsConfigJson,
  holdingsQuestion,
  HOLDINGS_CLAIM,
  HOLDINGS_LIMITS,
  HOLDINGS_SCOPE,
  withCollections,
  type Collection,
  type HoldingsConfig,
} from "./holdings";

/**
 * The login service (docs/reference/login.md): `authorize` hands out a message to sign, bound to an authorization
 * request; `redeem` turns a signature over one of the caller's open messages into an authorization code. Both refuse
 * with the DomainErrors of errors.ts (and `unknown_network`, `invalid_address`, node failures).
 */

export interface LoginSettings {
  /** ISSUER: the SIWE message's domain and URI, the redirect's `iss`. */
  issuer: string;
  /** Network of a request that names none. */
  defaultNetwork: string;
  /** First line of the text message. */
  messageHeader: string;
  /** Open messages one requester may hold, all addresses together. */
  maxOpenChallenges: number;
}

export interface LoginDeps {
  db: Database;
  /** The clients, as this instance reads them (each login reads its client more than once). */
  clients: CachedClients;
  networks: Networks;
  provider: Provider;
  settings: LoginSettings;
  /** This instance's memory of the challenges it saved, for the logins that follow. */
  recent: RecentChallenges;
  /** This instance's memory of the codes it minted (the provider's adapter reads it), for the exchanges that follow. */
  minted: MintedCodes;
  /** The time a challenge's expiry (and a SIWE message's times) are computed in: the app's. */
  clock: Clock;
  /** ENS profiles (the `profile` scope), looked up in the background when a login asks for the scope. */
  ens?: { refresh(address: string): void };
}

/** `/api/authorize`'s query, as sent: any field may be missing or malformed (authorize refuses it). */
export interface AuthorizeRequest {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  address?: string;
  state?: string;
  nonce?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  lang?: string;
  message_format?: string;
  network?: string;
  /** OpenID Connect's `claims` request parameter (JSON): the holdings claim, and collections of this login only. */
  claims?: string;
}

/** `/api/login`'s body. */
export interface RedeemRequest {
  address: string;
  signature: string;
  client_id: string;
  /** Narrows the candidates to the messages of this redirect URI. */
  redirect_uri?: string;
  /** Replaces the state given to authorize. */
  state?: string;
  /** The chain a contract wallet is asked on, instead of the message's. */
  network?: string;
  /** Narrows the candidates to this exact message. */
  message?: string;
  /** The language of a refusal's message that users read (a gate's): "en" (default) or "ja". */
  lang?: string;
}

export interface Redeemed {
  code: string;
  /** The registered redirect URI with code, state and iss appended. */
  redirectUrl: string;
  state: string | null;
}

/**
 * Who sent a login's request: its IP (as TRUST_PROXY resolves it), and the rate-limit count the request's statement is
 * to make, when the counts are shared (server/http/rate-limit.ts, limitInStatement): a request past its limit is then
 * refused by that statement, with nothing stored.
 */
export interface Caller {
  ip: string;
  count?: StatementCount;
}

/**
 * Checks an authorization request and stores the message for `address` to sign, within the quotas of the requester
 * (`caller.ip`). Returns the message. Of several problems the first is reported, the fields
 * being checked in a fixed order: client, redirect_uri, response_type, scope, address, lang, message_format, network,
 * PKCE.
 */
export async function authorize(deps: LoginDeps, request: AuthorizeRequest, caller: Caller): Promise<string> {
  const { db, networks, settings } = deps;
  const client = await knownClient(deps.clients, request.client_id);
  const redirectUri = registeredRedirect(client, request.redirect_uri);
  if (request.response_type !== "code") throw refuse.unsupportedResponseType();
  const loginHoldings = holdingsOfRequest(request.claims);
  const holdings = withCollections(client.holdings, loginHoldings.collections);
  // The client's and the login's together: the bound of the statement a login sends and of its claim.
  if (holdings && claimedCollections(holdings).length > HOLDINGS_LIMITS.collections)
    throw refuse.invalidRequest(`claims: at most ${HOLDINGS_LIMITS.collections} collections in all, the client's included`);
  const scope = grantedScope(request.scope, holdings !== null || loginHoldings.asked);
  if (holdings) checkIndexed(networks, holdings);
  if (request.address === undefined) throw refuse.invalidRequest("address is required");
  const address = parseAddress(request.address);
  const lang = oneOf(request.lang ?? "en", LANGS, () => refuse.invalidLang('lang must be "en" or "ja"')) as Lang;
  const siweScope = wantsSiweProof(scope);
  const format = oneOf(request.message_format ?? (siweScope ? "siwe" : "text"), FORMATS, () =>
    refuse.invalidRequest('message_format must be "text" or "siwe"'),
  ) as MessageFormat;
  // The scope hands the signed message to the relying party as an EIP-4361 message, which it can parse and check.
  if (siweScope && format !== "siwe") throw refuse.invalidRequest('the siwe scope needs message_format "siwe"');
  const network = networks.info(request.network ?? settings.defaultNetwork);
  const pkce = readPkce(client, request.code_challenge, request.code_challenge_method);

  const now = new Date(deps.clock());
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  const issuerHost = new URL(settings.issuer).host;
  const message =
    format === "siwe"
      ? siweMessage({
          issuer: settings.issuer,
          address,
          chainId: network.chainId,
          random: newSiweNonce(),
          issuedAt: now,
          expiresAt,
          redirectUri,
          statement: siweStatement(client.name, issuerHost),
        })
      : loginMessage({ header: settings.messageHeader, clientName: client.name, issuerHost, random: newRandom(), lang });
  let saved: boolean;
  try {
    saved = await saveChallenge(
      db,
      {
        address,
        clientId: client.id,
        redirectUri,
        scope,
        state: request.state ?? null,
        nonce: request.nonce ?? null,
        codeChallenge: pkce?.challenge ?? null,
        codeChallengeMethod: pkce?.method ?? null,
        network: network.name,
        message,
        format,
        requester: requesterOf(caller.ip),
        holdings: loginHoldings.collections.length > 0 ? { collections: loginHoldings.collections, gate: null } : null,
      },
      expiresAt,
      settings.maxOpenChallenges,
      { recent: deps.recent, count: caller.count },
    );
  } catch (error) {
    // The client was removed a moment ago (this instance had it cached).
    if (isForeignKeyViolation(error)) throw refuse.invalidClient();
    throw error;
  }
  if (!saved) throw refuse.tooManyChallenges(settings.maxOpenChallenges);
  if (scope.split(" ").includes("profile")) deps.ens?.refresh(address);
  return message;
}

/**
 * Redeems a signature: the caller's open messages of this address and client (see openChallenges) are tried in turn,
 * and the first whose signature verifies is used up and mints the code. The login is recorded. The message this
 * instance remembers for the caller is tried first, without reading the open ones.
 */
export async function redeem(deps: LoginDeps, request: RedeemRequest, caller: Caller): Promise<Redeemed> {
  const { db, networks, settings } = deps;
  const address = parseAddress(request.address);
  const lang = oneOf(request.lang ?? "en", LANGS, () => refuse.invalidLang('lang must be "en" or "ja"')) as Lang;
  if (request.network !== undefined) networks.info(request.network);
  const where = {
    address,
    clientId: request.client_id,
    requester: requesterOf(caller.ip),
    redirectUri: request.redirect_uri,
    message: request.message,
  };
  // A challenge this instance saved for the same requester, proven by an EOA signature: that proves this message and
  // no other, so no other candidate could have been used instead, and the database is not asked for the open ones.
  // When it was used or retired meanwhile, the database answers below as if it had been asked first.
  const recent = isHexString(request.signature, 65) ? deps.recent.find(where) : undefined;
  if (recent && verifyEoa(address, hashMessage(recent.message), request.signature).ok) {
    const network = walletNetwork(networks, recent, request);
    const proven: Proven = { address, kind: "eoa", chainId: networks.info(network).chainId };
    const code = await useChallenge(deps, recent, { proven, signature: request.signature, lang, count: caller.count });
    if (code !== undefined) return redeemed(recent, code, request, settings);
  }
  // Challenges exist only for registered clients (foreign key), so the client is looked up only to explain a miss.
  const candidates = await openChallenges(db, where);
  if (candidates.length === 0) {
    await knownClient(deps.clients, request.client_id);
    throw refuse.noOpenChallenge();
  }
  // A candidate whose check needed a node this service lacks: the answer when no other candidate proves the address.
  let unchecked: Error | undefined;
  for (const challenge of candidates) {
    const network = walletNetwork(networks, challenge, request);
    let result: Awaited<ReturnType<typeof verify>>;
    try {
      result = await verify(networks, network, address, challenge.message, request.signature);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== "unsupported_network") throw error;
      // An EOA's signature of another candidate is checked without a node: it may still prove one of them.
      unchecked = error;
      continue;
    }
    if (!result.ok) {
      if (result.reason === "malformed_signature") throw refuse.malformedSignature(result.message);
      continue;
    }
    const proven: Proven = { address, kind: result.kind, chainId: networks.info(network).chainId };
    const code = await useChallenge(deps, challenge, { proven, signature: request.signature, lang, count: caller.count });
    if (code === undefined) throw refuse.challengeGone();
    return redeemed(challenge, code, request, settings);
  }
  throw unchecked ?? refuse.invalidSignature();
}

function redeemed(challenge: Challenge, code: string, request: RedeemRequest, settings: LoginDeps["settings"]): Redeemed {
  const state = request.state ?? challenge.state;
  return { code, redirectUrl: redirectUrl(challenge.redirectUri, { code, state, iss: settings.issuer }), state };
}

/**
 * The network a contract wallet is asked on: the one the login names, else the message's. A SIWE message names its
 * chain in the signed text, so a login naming a network of another chain falls back to the message's, or is refused
 * when it also names the message (it then insists on both).
 */
function walletNetwork(networks: Networks, challenge: Challenge, request: RedeemRequest): string {
  const network = request.network ?? challenge.network;
  if (challenge.format !== "siwe" || networks.info(network).chainId === networks.info(challenge.network).chainId) return network;
  if (request.message !== undefined) throw refuse.networkMismatch(challenge.network);
  return challenge.network;
}

/** An address a signature proved: by which kind of signer, on which chain. */
interface Proven {
  address: string;
  kind: "eoa" | "erc1271" | "erc6492";
  chainId: number;
}

/**
 * Marks the challenge used, mints its code and records the login in the account's history; undefined when another
 * login used it first (or it was retired or expired meanwhile). The code and its grant, and the login's record, are
 * stored by the statement that redeems the challenge (nothing is stored when it was already used): one round trip
 * instead of four (login-statement.ts). The instance remembers the code for its exchange. A client with holdings has
 * them read from the index by the same statement, which redeems the challenge only when they meet the gate: a login
 * that does not is refused, and its challenge stays open (a login once the index has the token succeeds with it).
 */
async function useChallenge(
  deps: LoginDeps,
  challenge: Challenge,
  { proven, signature, lang, count }: { proven: Proven; signature: string; lang: Lang; count: StatementCount | undefined },
): Promise<string | undefined> {
  const { db, provider, recent, minted } = deps;
  // The account in the predecessor's form keys the login history; the client's format makes the sub it is issued.
  const account = subjectFor(proven.address, proven.kind, proven.chainId);
  const client = await deps.clients.find(challenge.clientId);
  // Of the address that signed, whichever wallet kind, on the networks the client names (not the message's chain).
  const config = withCollections(client?.holdings ?? null, challenge.holdings?.collections ?? []);
  const sub = client?.subjectFormat === "caip10" ? caip10Subject(proven.address, proven.kind, proven.chainId) : account;
  const mint = () =>
    mintCode(provider, {
      clientId: challenge.clientId,
      sub,
      redirectUri: challenge.redirectUri,
      scope: challenge.scope,
      nonce: challenge.nonce,
      codeChallenge: challenge.codeChallenge,
      codeChallengeMethod: challenge.codeChallengeMethod,
    });
  const held = await holdWrites(mint);
  const claimed = config !== null && challenge.scope.split(" ").includes(HOLDINGS_SCOPE);
  if (claimed) withGrantHoldings(held.writes, holdingsConfigJson(config));
  // Used now or before, it is open no longer (unless its holdings do not meet the gate: then the database is asked).
  recent.forget(challenge);
  const redemption = await redeemLogin(db, {
    challengeId: challenge.id,
    held: held.writes,
    account,
    clientId: challenge.clientId,
    proof: wantsSiweProof(challenge.scope) ? { message: challenge.message, signature } : null,
    count,
    holdings: config ? { owner: proven.address.toLowerCase(), question: holdingsQuestion(config) } : undefined,
  });
  const holdings = config && redemption.holdings ? holdingsCheck(config, redemption.holdings.read) : undefined;
  if (holdings && !redemption.holdings!.meetsGate)
    throw refuse.accessDenied(
      gateRefusalText({ address: proven.address, clientName: client!.name, gate: config!.gate!, check: holdings, lang }),
    );
  if (!redemption.redeemed) return undefined;
  // The grant this instance remembers carries the claim as made (the one stored, the rows read: grant-claims.ts).
  if (holdings && claimed) withGrantClaims(held.writes, { [HOLDINGS_CLAIM]: holdings.claim });
  minted.remember(held.writes);
  if (challenge.scope.split(" ").includes("profile")) deps.ens?.refresh(challenge.address);
  return held.result;
}

/** The registered URI as registered (no URL normalization), its own query kept, with the answer's parameters. */
function redirectUrl(registered: string, answer: { code: string; state: string | null; iss: string }): string {
  const params = new URLSearchParams({ code: answer.code, ...(answer.state !== null ? { state: answer.state } : {}), iss: answer.iss });
  return `${registered}${registered.includes("?") ? "&" : "?"}${params}`;
}

/**
 * verifySignature, which proves an EOA by recovery before asking the node (an EOA login costs no RPC call). A network of
 * the registry without an RPC URL thus takes EOA logins; a signature that needs its node is `unsupported_network`.
 */
async function verify(networks: Networks, network: string, address: string, message: string, signature: string) {
  const provider = () => {
    if (!networks.configured().includes(network)) throw refuse.unsupportedNetwork(network, networks.configured());
    return networks.provider(network);
  };
  return verifySignature({ provider, network, address, message, signature });
}

async function knownClient(clients: CachedClients, id: string | undefined): Promise<LoginClient> {
  if (id === undefined) throw refuse.invalidRequest("client_id is required");
  const client = await clients.find(id);
  if (!client) throw refuse.invalidClient();
  return client;
}

/** RFC 6749 §3.1.2.3: the exact string registered, compared byte for byte. A mismatch is an error, never a redirect. */
function registeredRedirect(client: LoginClient, uri: string | undefined): string {
  if (uri === undefined) throw refuse.invalidRequest("redirect_uri is required");
  if (!client.redirectUris.includes(uri)) throw refuse.invalidRedirectUri();
  return uri;
}

/**
 * The collections a login names in its `claims` parameter (holdings.ts), checked as a client's are, and whether it
 * asks for the holdings claim at all.
 */
function holdingsOfRequest(claims: string | undefined): { asked: boolean; collections: Collection[] } {
  try {
    return holdingsAsked(claims);
  } catch (error) {
    throw refuse.invalidRequest((error as Error).message);
  }
}

/**
 * The scopes asked for that we grant; a login with holdings (the client's, or its own) gets the holdings scope whether
 * it asks for it or not.
 */
function grantedScope(scope: string | undefined, holdings: boolean): string {
  const asked = (scope ?? "").split(" ").filter(Boolean);
  if (!asked.includes("openid")) throw refuse.invalidScope();
  if (holdings) asked.push(HOLDINGS_SCOPE);
  return SCOPES.filter((s) => asked.includes(s)).join(" ");
}

/** A client's collections on a network this service does not index (any more): refused before anyone signs. */
function checkIndexed(networks: Networks, holdings: HoldingsConfig): void {
  const indexed = networks.configured();
  for (const { network } of claimedCollections(holdings)) if (!indexed.includes(network)) throw refuse.unindexedNetwork(network, indexed);
}

function oneOf(value: string, allowed: readonly string[], refusal: () => Error): string {
  if (!allowed.includes(value)) throw refusal();
  return value;
}

/** PKCE of RFC 7636 with S256 only (plain would let an eavesdropper of the request redeem the code). */
function readPkce(
  client: LoginClient,
  challenge: string | undefined,
  method: string | undefined,
): { challenge: string; method: "S256" } | undefined {
  if (challenge === undefined) {
    if (method !== undefined) throw refuse.invalidRequest("code_challenge_method without code_challenge");
    if (client.public)
      throw refuse.invalidRequest("PKCE is required for public clients: send code_challenge and code_challenge_method=S256");
    return undefined;
  }
  if (method !== "S256") throw refuse.invalidRequest('code_challenge_method must be "S256"');
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
    throw refuse.invalidRequest("code_challenge must be the 43-character base64url SHA-256 of the verifier");
  return { challenge, method: "S256" };
}

/** EIP-4361 nonces are alphanumeric: 32 hex digits carry the same 128 bits as the text message's random. */
function newSiweNonce(): string {
  return randomString(16, "hex");
}
