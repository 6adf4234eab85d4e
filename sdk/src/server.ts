// The relying party's server side (`wallet-login-nft-sdk/server`): the code exchange, the ID token's verification
// against the service's JWKS (with jose), userinfo. It holds the client secret: never bundle it for a browser.
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { Http, type CallOptions, type ClientOptions } from "./http.ts";
import type { Tokens } from "./types.ts";

export type { Tokens };

export interface LoginServerOptions extends Omit<ClientOptions, "baseUrl"> {
  /** The service's issuer URL (`ISSUER`), e.g. `https://login.example.com`. */
  issuer: string;
  clientId: string;
  /** A confidential client's secret (sent in a Basic header); a public client sends a PKCE verifier instead. */
  clientSecret?: string;
}

/** The ID token's claims this service sets, over the registered ones. */
export interface IdTokenClaims extends JWTPayload {
  sub: string;
  /** The checksummed wallet address. */
  address?: string;
  nonce?: string;
}

/** What userinfo answers (docs/reference/login.md#userinfo). */
export interface UserInfo {
  sub: string;
  address: string;
  since?: number;
  first_service?: string;
  services?: Record<string, number>;
  preferred_username?: string;
  picture?: string;
  [claim: string]: unknown;
}

interface Discovery {
  issuer: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint: string;
}

/** Base64 of a string's UTF-8 bytes (btoa takes Latin-1 only). */
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/**
 * A relying party's calls to the login service: `exchangeCode` (then `verifyIdToken`, which `exchangeCode` does for
 * you when given the nonce), `refresh` and `userinfo`. Endpoints come from OpenID discovery, read once.
 */
export class LoginServer {
  private readonly http: Http;
  private readonly options: LoginServerOptions;
  private discovery: Promise<Discovery> | undefined;
  private keys: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(options: LoginServerOptions) {
    this.options = options;
    this.http = new Http({ ...options, baseUrl: options.issuer });
  }

  private discover(options: CallOptions = {}): Promise<Discovery> {
    this.discovery ??= this.http.json<Discovery>(this.http.url("/.well-known/openid-configuration"), options).then(({ body }) => body);
    this.discovery.catch(() => (this.discovery = undefined));
    return this.discovery;
  }

  private async token(form: Record<string, string | undefined>, options: CallOptions): Promise<Tokens> {
    const { token_endpoint } = await this.discover(options);
    const { clientId, clientSecret } = this.options;
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) if (value !== undefined) body.set(name, value);
    // RFC 6749 §2.3.1: the id and secret are form-encoded before they go into the Basic header.
    if (clientSecret) headers.authorization = `Basic ${base64(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`)}`;
    else body.set("client_id", clientId);
    const response = await this.http.send(token_endpoint, { method: "POST", headers, body: body.toString(), signal: options.signal });
    return (await response.json()) as Tokens;
  }

  /**
   * Exchanges a login's code for tokens and verifies the ID token (signature, issuer, audience, expiry, and the nonce
   * when given). Throws `ApiError` with the token endpoint's RFC 6749 code (`invalid_grant`: used, expired or not
   * this client's) on a refusal.
   */
  async exchangeCode(
    input: { code: string; redirectUri: string; codeVerifier?: string; nonce?: string },
    options: CallOptions = {},
  ): Promise<{ tokens: Tokens & { id_token: string }; claims: IdTokenClaims }> {
    const tokens = await this.token(
      { grant_type: "authorization_code", code: input.code, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier },
      options,
    );
    if (tokens.id_token === undefined) throw new Error("the token endpoint gave no ID token: ask for the openid scope");
    return {
      tokens: { ...tokens, id_token: tokens.id_token },
      claims: await this.verifyIdToken(tokens.id_token, { nonce: input.nonce }, options),
    };
  }

  /** New tokens for a refresh token. */
  refresh(refreshToken: string, options: CallOptions = {}): Promise<Tokens> {
    return this.token({ grant_type: "refresh_token", refresh_token: refreshToken }, options);
  }

  /**
   * The claims of an ID token of this service for this client, verified against the service's JWKS (RS256, issuer,
   * audience or `azp`, expiry) with jose; `nonce`, when given, must match. Throws jose's error when it does not verify.
   */
  async verifyIdToken(idToken: string, expected: { nonce?: string } = {}, options: CallOptions = {}): Promise<IdTokenClaims> {
    const { jwks_uri, issuer } = await this.discover(options);
    this.keys ??= createRemoteJWKSet(new URL(jwks_uri));
    const { payload } = await jwtVerify<IdTokenClaims>(idToken, this.keys, { issuer, algorithms: ["RS256"] });
    // A client with a home_url gets `aud: [client_id, home_url]` with `azp` naming it (docs/reference/login.md).
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.includes(this.options.clientId) || (audiences.length > 1 && payload.azp !== this.options.clientId)) {
      throw new Error(`the ID token is not for client ${this.options.clientId}`);
    }
    if (expected.nonce !== undefined && payload.nonce !== expected.nonce) throw new Error("the ID token's nonce is not the login's");
    return payload;
  }

  /** The user's claims for an access token (`/userinfo`). */
  async userinfo(accessToken: string, options: CallOptions = {}): Promise<UserInfo> {
    const { userinfo_endpoint } = await this.discover(options);
    const { body } = await this.http.json<UserInfo>(userinfo_endpoint, { ...options, headers: { authorization: `Bearer ${accessToken}` } });
    return body;
  }
}

export function createLoginServer(options: LoginServerOptions): LoginServer {
  return new LoginServer(options);
}
