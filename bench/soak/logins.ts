import { createHash, randomBytes } from "node:crypto";
import { computeAddress, hexlify } from "ethers";
import { personalSign } from "../lib/sign";
import type { Answers } from "./answers";
import { formPost, jsonPost, send } from "./http";

export interface SoakClient {
  id: string;
  secret: string;
  redirectUri: string;
}

/** Redemptions of a code answered 503 (the database restarting) are tried again this often, within the code's 60 s. */
const REDEEM_RETRIES = 10;
const REDEEM_PAUSE_MS = 3_000;

/**
 * Logins as dApps make them, each by a fresh wallet: the JSON API (`/api/authorize`, `personal_sign`, `/api/login`)
 * and the OIDC redirect flow (`/authorize` with PKCE, state and nonce, then the hosted page's JSON calls), each code
 * redeemed at `/token` and the refresh token used once. It keeps the ledger of the codes given by a 2xx login and the
 * ones redeemed.
 */
export class Logins {
  readonly codesGiven = new Set<string>();
  readonly codesRedeemed = new Set<string>();
  refreshes = 0;

  constructor(
    private readonly answers: Answers,
    private readonly base: string,
    private readonly client: SoakClient,
  ) {}

  /** One login over the JSON API, its code redeemed and its refresh token used. */
  async json(): Promise<void> {
    const query = new URLSearchParams({
      client_id: this.client.id,
      redirect_uri: this.client.redirectUri,
      response_type: "code",
      scope: "openid",
      nonce: randomBytes(8).toString("hex"),
    });
    const code = await this.signIn(query);
    if (code) await this.redeem(code, {});
  }

  /** One login by the OIDC redirect flow (what openid-client sends), its code redeemed with the PKCE verifier. */
  async redirect(): Promise<void> {
    const verifier = randomBytes(32).toString("base64url");
    const state = randomBytes(8).toString("hex");
    const query = new URLSearchParams({
      client_id: this.client.id,
      redirect_uri: this.client.redirectUri,
      response_type: "code",
      scope: "openid",
      state,
      nonce: randomBytes(8).toString("hex"),
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    });
    const authorize = await send(this.answers, this.base, {
      family: "oidc /authorize",
      route: "GET /authorize",
      path: `/authorize?${query}`,
    });
    const location = authorize.headers.get("location");
    if (authorize.status !== 303 && authorize.status !== 302) return;
    if (!location) return;
    // The browser lands on the hosted sign-in page; it signs through the JSON API with the request's parameters.
    const page = new URL(location, this.base);
    const cookie = authorize.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    await send(this.answers, this.base, {
      family: "oidc page",
      route: "GET /interaction/{uid}",
      path: `${page.pathname}${page.search}`,
      init: { headers: { cookie } },
    });
    query.set("message_format", "siwe");
    const code = await this.signIn(query, state);
    if (code) await this.redeem(code, { code_verifier: verifier });
  }

  /** `/api/authorize` and `/api/login` for a fresh wallet: the code of a 2xx login (checked against `state`). */
  private async signIn(query: URLSearchParams, state?: string): Promise<string | undefined> {
    const key = randomBytes(32);
    const address = computeAddress(hexlify(key));
    query.set("address", address);
    const challenge = await send(this.answers, this.base, {
      family: "login",
      route: "GET /api/authorize",
      path: `/api/authorize?${query}`,
    });
    if (challenge.status !== 200) return undefined;
    const signature = personalSign(key, (challenge.body as { message: string }).message);
    const login = await send(this.answers, this.base, {
      family: "login",
      route: "POST /api/login",
      path: "/api/login",
      init: jsonPost({ address, signature, client_id: this.client.id, redirect_uri: this.client.redirectUri }),
    });
    if (login.status !== 200) return undefined;
    const body = login.body as { code: string; redirect_url?: string };
    if (state !== undefined && new URL(body.redirect_url!).searchParams.get("state") !== state)
      throw new Error("the redirect lost the state");
    this.codesGiven.add(body.code);
    return body.code;
  }

  /** Redeems `code` at `/token` (again while the database is unavailable), then refreshes once. */
  private async redeem(code: string, extra: Record<string, string>): Promise<void> {
    const form = {
      grant_type: "authorization_code",
      code,
      redirect_uri: this.client.redirectUri,
      client_id: this.client.id,
      client_secret: this.client.secret,
      ...extra,
    };
    for (let attempt = 0; attempt < REDEEM_RETRIES; attempt++) {
      const tokens = await send(this.answers, this.base, {
        family: "oidc /token",
        route: "POST /token",
        path: "/token",
        init: formPost(form),
      });
      if (tokens.status === 200) {
        this.codesRedeemed.add(code);
        const refresh = await send(this.answers, this.base, {
          family: "oidc /token",
          route: "POST /token",
          path: "/token",
          init: formPost({
            grant_type: "refresh_token",
            refresh_token: (tokens.body as { refresh_token: string }).refresh_token,
            client_id: this.client.id,
            client_secret: this.client.secret,
          }),
        });
        if (refresh.status === 200) this.refreshes++;
        return;
      }
      // Only an answer that says "later" is worth another try; a refused code stays unredeemed and fails the run.
      if (tokens.status !== 503 && tokens.status !== 0) return;
      await new Promise((resolve) => setTimeout(resolve, REDEEM_PAUSE_MS));
    }
  }
}
