import { firstAccount, personalSign, type Eip1193Provider } from "./eip1193.ts";
import { Http, type CallOptions, type ClientOptions } from "./http.ts";
import type { Address, AuthorizeAnswer, ClientInfo, LoginAnswer } from "./types.ts";

export type { ClientInfo, Eip1193Provider };

/** What an EIP-6963 wallet says of itself. */
export interface WalletInfo {
  uuid: string;
  name: string;
  /** A data: URI of its icon (empty for the `window.ethereum` fallback). */
  icon: string;
  rdns: string;
}

export interface Wallet {
  info: WalletInfo;
  provider: Eip1193Provider;
}

/** The browser globals discovery needs, typed here so that the package needs no DOM typings of its users. */
interface WalletWindow {
  ethereum?: Eip1193Provider;
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
}

/**
 * The wallets of the page: those that announce themselves through EIP-6963 within `timeoutMs` (default 200), each
 * once; when none does, `window.ethereum` (an older injected wallet) as one named "Injected wallet"; else none.
 */
export async function discoverWallets(options: { timeoutMs?: number; window?: WalletWindow } = {}): Promise<Wallet[]> {
  const target = options.window ?? (globalThis as unknown as WalletWindow);
  const found = new Map<string, Wallet>();
  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<Wallet>).detail;
    if (detail?.info?.uuid && typeof detail.provider?.request === "function") found.set(detail.info.uuid, detail);
  };
  target.addEventListener("eip6963:announceProvider", onAnnounce);
  target.dispatchEvent(new Event("eip6963:requestProvider"));
  await new Promise((resolve) => setTimeout(resolve, options.timeoutMs ?? 200));
  target.removeEventListener("eip6963:announceProvider", onAnnounce);
  if (found.size > 0) return [...found.values()];
  return target.ethereum
    ? [{ info: { uuid: "window.ethereum", name: "Injected wallet", icon: "", rdns: "" }, provider: target.ethereum }]
    : [];
}

/** A PKCE pair (S256): send `challenge` with the login, keep `verifier` for the code exchange. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** A random URL-safe string of `bytes` random bytes (state, nonce). */
function randomToken(bytes = 16): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export interface SignInOptions extends ClientOptions, CallOptions {
  /** The wallet that signs (a {@link Wallet}'s provider, or any EIP-1193 provider). */
  provider: Eip1193Provider;
  clientId: string;
  /** Exactly as the client registered it. */
  redirectUri: string;
  /** Default `openid`. */
  scope?: string;
  state?: string;
  nonce?: string;
  /** A PKCE challenge ({@link pkce}); public clients must send one. */
  codeChallenge?: string;
  /** The chain a contract wallet is checked on, and the SIWE Chain ID (default: the service's). */
  network?: string;
  /** `siwe` for an EIP-4361 message, `text` for the four-line one (the service's default). */
  messageFormat?: "siwe" | "text";
  lang?: string;
  /** The address to log in; default: the wallet's first account (`eth_requestAccounts`). */
  address?: Address;
}

export interface SignInResult {
  address: Address;
  /** The authorization code, for the dApp's backend to exchange (it works once, within 60 s). */
  code: string;
  /** The `state` given, or null. */
  state: string | null;
  /** The registered redirect URI with `code`, `state` and `iss`. */
  redirectUrl: string;
}

/**
 * The login of docs/reference/login.md's JSON flow: asks the service for a message (`/api/authorize`), has the
 * wallet sign it (`personal_sign`), redeems the signature (`/api/login`) and gives the code.
 */
export async function signIn(options: SignInOptions): Promise<SignInResult> {
  const http = new Http(options);
  const { provider, signal } = options;
  const address = options.address ?? (await firstAccount(provider));
  const authorize = http.url("/api/authorize", {
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: "code",
    scope: options.scope ?? "openid",
    address,
    state: options.state,
    nonce: options.nonce,
    code_challenge: options.codeChallenge,
    code_challenge_method: options.codeChallenge ? "S256" : undefined,
    network: options.network,
    message_format: options.messageFormat,
    lang: options.lang,
  });
  const { body: challenge } = await http.json<AuthorizeAnswer>(authorize, { signal });
  const signature = await personalSign(provider, address, challenge.message);
  const response = await http.send(http.url("/api/login"), {
    method: "POST",
    signal,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      address,
      signature,
      client_id: options.clientId,
      redirect_uri: options.redirectUri,
      state: options.state,
      network: options.network,
      message: challenge.message,
    }),
  });
  const login = (await response.json()) as LoginAnswer;
  return { address, code: login.code, state: login.state, redirectUrl: login.redirect_url };
}

/** A login client's title, description, logo and home page, in `lang` when it has texts in it (else English). */
export async function clientInfo(options: ClientOptions & CallOptions & { clientId: string; lang?: string }): Promise<ClientInfo> {
  const http = new Http(options);
  const { body } = await http.json<ClientInfo>(http.url("/api/client", { client_id: options.clientId, lang: options.lang }), options);
  return body;
}

/** Where a redirect login's pending request waits for its callback: `sessionStorage` by default (per tab). */
export interface LoginStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  readonly length: number;
  key(index: number): string | null;
}

export interface RedirectLoginOptions {
  /** The service's issuer URL (`ISSUER`), e.g. `https://login.example.com`. */
  issuer: string;
  clientId: string;
  /** Exactly as the client registered it: the page that calls {@link handleRedirectCallback}. */
  redirectUri: string;
  /** Default `openid`. */
  scope?: string;
  /** Default: 16 random bytes, URL-safe. */
  state?: string;
  /** Default: 16 random bytes, URL-safe. */
  nonce?: string;
  /** The hosted page's language (`ui_locales`). */
  lang?: string;
  /** Further authorization parameters (`prompt`, `claims`, `network`…), sent as they are. */
  params?: Record<string, string>;
  /** The `fetch` that reads the service's OpenID discovery (default: the global one). */
  fetch?: typeof fetch;
}

/** What the callback needs of the request that started a redirect login, and the code exchange after it. */
export interface PendingLogin {
  issuer: string;
  clientId: string;
  redirectUri: string;
  state: string;
  nonce: string;
  /** The PKCE verifier ({@link pkce}), for the code exchange (`codeVerifier` of the server entry's `exchangeCode`). */
  codeVerifier: string;
}

/** A redirect login that came back without a code: the authorization server's RFC 6749 `error`, or a check of ours. */
export class LoginRedirectError extends Error {
  override readonly name = "LoginRedirectError";
  /**
   * The `error` the service sent back (`access_denied`, `login_required`…), or `state_mismatch` (no pending login of
   * this tab has that state: a forged or replayed callback), `issuer_mismatch` (`iss` names another issuer), or
   * `invalid_response` (neither a code nor an error).
   */
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** How long a pending redirect login is kept for its callback; older ones are dropped when the next one starts. */
const PENDING_LOGIN_TTL_MS = 10 * 60_000;
const PENDING_PREFIX = "wallet-login-nft-sdk:login:";

/**
 * The standard OpenID Connect authorization request (the authorization code flow with PKCE S256, state and nonce):
 * the URL of the service's authorization endpoint (from its OpenID discovery) to send the browser to, and what the
 * callback and the code exchange need, which the caller keeps until the callback.
 */
export async function authorizationRequest(options: RedirectLoginOptions): Promise<PendingLogin & { url: string }> {
  const http = new Http({ baseUrl: options.issuer, fetch: options.fetch });
  const { body: discovery } = await http.json<{ authorization_endpoint: string }>(http.url("/.well-known/openid-configuration"));
  const { verifier, challenge } = await pkce();
  const pending: PendingLogin = {
    issuer: options.issuer,
    clientId: options.clientId,
    redirectUri: options.redirectUri,
    state: options.state ?? randomToken(),
    nonce: options.nonce ?? randomToken(),
    codeVerifier: verifier,
  };
  const url = new URL(discovery.authorization_endpoint);
  const params = {
    ...options.params,
    response_type: "code",
    client_id: pending.clientId,
    redirect_uri: pending.redirectUri,
    scope: options.scope ?? "openid",
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ui_locales: options.lang,
  };
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return { ...pending, url: url.toString() };
}

const defaultStorage = () => (globalThis as unknown as { sessionStorage: LoginStorage }).sessionStorage;

/**
 * Starts a redirect login: builds the {@link authorizationRequest}, keeps what the callback needs in `storage`
 * (`sessionStorage`, under its state), and sends the browser to the service's hosted sign-in page (`navigate`,
 * default `location.assign`). The service redirects back to `redirectUri`, where {@link handleRedirectCallback} runs.
 */
export async function redirectToLogin(
  options: RedirectLoginOptions & { storage?: LoginStorage; navigate?: (url: string) => void },
): Promise<void> {
  const storage = options.storage ?? defaultStorage();
  const request = await authorizationRequest(options);
  const { url, ...pending } = request;
  const now = Date.now();
  for (let i = storage.length - 1; i >= 0; i--) {
    const key = storage.key(i);
    if (!key?.startsWith(PENDING_PREFIX)) continue;
    const kept = JSON.parse(storage.getItem(key) ?? "{}") as { created?: number };
    if (!(typeof kept.created === "number" && now - kept.created < PENDING_LOGIN_TTL_MS)) storage.removeItem(key);
  }
  storage.setItem(PENDING_PREFIX + pending.state, JSON.stringify({ ...pending, created: now }));
  (options.navigate ?? ((target) => (globalThis as unknown as { location: { assign(url: string): void } }).location.assign(target)))(url);
}

/**
 * Reads the redirect back from the service (`url`, default `location.href`): the pending login of its `state`
 * (taken out of `storage`, so a callback works once), checked against `iss` (RFC 9207), and its `code`. Send the
 * code, `codeVerifier`, `redirectUri` and `nonce` to the dApp's server, which exchanges them (`exchangeCode`).
 * Throws {@link LoginRedirectError} when the service answered an error or the callback is not this tab's.
 */
export function handleRedirectCallback(options: { url?: string; storage?: LoginStorage } = {}): PendingLogin & { code: string } {
  const storage = options.storage ?? defaultStorage();
  const href = options.url ?? (globalThis as unknown as { location: { href: string } }).location.href;
  const url = new URL(href);
  // A fragment response (response_mode=fragment) carries its parameters after the #.
  const params = url.searchParams.has("state") || !url.hash ? url.searchParams : new URLSearchParams(url.hash.slice(1));
  const state = params.get("state");
  const kept = state === null ? null : storage.getItem(PENDING_PREFIX + state);
  if (state === null || kept === null) {
    throw new LoginRedirectError("state_mismatch", "no login of this tab is waiting for this callback (its state is unknown or used)");
  }
  storage.removeItem(PENDING_PREFIX + state);
  const { created: _, ...pending } = JSON.parse(kept) as PendingLogin & { created: number };
  const issuer = params.get("iss");
  if (issuer !== null && issuer.replace(/\/+$/, "") !== pending.issuer.replace(/\/+$/, "")) {
    throw new LoginRedirectError("issuer_mismatch", `the callback names issuer ${issuer}, not ${pending.issuer}`);
  }
  const error = params.get("error");
  if (error !== null) throw new LoginRedirectError(error, params.get("error_description") ?? error);
  const code = params.get("code");
  if (code === null) throw new LoginRedirectError("invalid_response", "the callback carries neither a code nor an error");
  return { ...pending, code };
}
