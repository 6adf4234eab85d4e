import { Http, type CallOptions, type ClientOptions } from "./http.ts";
import type { Address, AuthorizeAnswer, ClientInfo, LoginAnswer } from "./types.ts";

export type { ClientInfo };

/** An EIP-1193 provider: what wallets inject, and what viem's and ethers' wallets can be wrapped as. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
}

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

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** `text` as the 0x-hex of its UTF-8 bytes, as `personal_sign` takes a message. */
function utf8Hex(text: string): string {
  return `0x${Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
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
  const address = options.address ?? ((await provider.request({ method: "eth_requestAccounts" })) as Address[])[0];
  if (!address) throw new Error("the wallet gave no account");
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
  const signature = (await provider.request({ method: "personal_sign", params: [utf8Hex(challenge.message), address] })) as string;
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
