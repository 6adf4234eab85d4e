import { SiweMessage } from "siwe";
import { randomString } from "../lib/random";

export const LANGS = ["en", "ja"] as const;
export type Lang = (typeof LANGS)[number];
export const FORMATS = ["text", "siwe"] as const;
export type MessageFormat = (typeof FORMATS)[number];

/** How long a challenge may be signed and redeemed (five minutes, as docs/reference/login.md says). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** 128 bits is the floor a sign-in nonce needs; 192 bits costs nothing more and reads as 32 base64url characters. */
export function newRandom(): string {
  return randomString(24, "base64url");
}

export interface MessageInput {
  header: string;
  clientName: string;
  /** The issuer's host (with port when it has one), as the user sees it in the address bar. */
  issuerHost: string;
  random: string;
  lang: Lang;
}

/**
 * The four-line sign-in message (docs/reference/login.md). Client names are single-line by registration, so no line of the
 * message can be forged from inside another.
 */
export function loginMessage({ header, clientName, issuerHost, random, lang }: MessageInput): string {
  const line = lang === "ja" ? `${issuerHost} で ${clientName} にログインします。` : `Log in to ${clientName} via ${issuerHost}.`;
  return [header, line, "---", random].join("\n");
}

export interface SiweInput {
  issuer: string;
  address: string;
  chainId: number;
  random: string;
  issuedAt: Date;
  expiresAt: Date;
  redirectUri: string;
  statement: string;
}

/**
 * An EIP-4361 message: domain = issuer host, URI = issuer, nonce = the random, Resources = the redirect_uri.
 * The statement is the message's second line (it names the client), which wallets show prominently.
 */
export function siweMessage(input: SiweInput): string {
  return new SiweMessage({
    domain: new URL(input.issuer).host,
    address: input.address,
    statement: input.statement,
    uri: input.issuer,
    version: "1",
    chainId: input.chainId,
    nonce: input.random,
    issuedAt: input.issuedAt.toISOString(),
    expirationTime: input.expiresAt.toISOString(),
    resources: [input.redirectUri],
  }).prepareMessage();
}

/** EIP-4361's statement grammar: RFC 3986 reserved and unreserved characters and spaces, ASCII only. */
const SIWE_STATEMENT = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]*$/;

/**
 * The SIWE statement names the client when its name fits EIP-4361's grammar (ASCII, no quotes or percent signs);
 * otherwise it names the issuer only. Always English: the grammar has no room for Japanese.
 */
export function siweStatement(clientName: string, issuerHost: string): string {
  const named = `Log in to ${clientName} via ${issuerHost}.`;
  return SIWE_STATEMENT.test(named) ? named : `Log in via ${issuerHost}.`;
}
