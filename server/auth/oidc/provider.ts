import type { Provider } from "oidc-provider";
import { checksumAddress } from "../../chain/values";
import type { Config } from "../../config";
import type { Database } from "../../db/database";
import { secretMatches, type CachedClients } from "../clients";
import type { LoginKeys } from "../keys";
import { loginHistory } from "../login-history";
import { errorPage } from "../error-page";
import { PAGE_HEADERS } from "../../http/html-page";
import { createAdapterFactory, retryAfterWhenUnavailable, type MintedCodes } from "./adapter";
import { countAfterRequest } from "./counted-requests";
import { writeHeldAfterRequest, writeHeldTokens } from "./held-writes";
import { addIdTokenAudience, compareSecretsWith, loadOidcLibrary } from "./internals";
import { logoutSource, postLogoutSuccessSource } from "../logout-page";
import { findProof, SIWE_CLAIMS, SIWE_SCOPE, wantsSiweProof } from "../siwe-proofs";
import { accountOfSubject } from "../subjects";
import { REGISTRATION_PATH } from "../registration";
import type { ProfileClaims } from "../ens/profiles";
import { HOLDINGS_CLAIM, HOLDINGS_SCOPE } from "../holdings";
import { grantClaims } from "./grant-claims";

/**
 * What a client's holdings configuration, and the collections its login reported (`reported`, that login's claim),
 * say of an address now (holdings.ts): the claim, and why it no longer meets the gate; undefined when there are none.
 */
export type CurrentHoldings = (
  clientId: string,
  address: string,
  reported: unknown,
) => Promise<{ claim: unknown; refusal?: string } | undefined>;

/** The paths oidc-provider answers (all at the root, next to our /api ones). */
export const OIDC_ROUTES = {
  authorization: "/authorize",
  token: "/token",
  userinfo: "/userinfo",
  jwks: "/jwks",
  revocation: "/token/revocation",
  introspection: "/token/introspection",
  end_session: "/session/end",
} as const;

/** Scopes we grant; anything else asked for is dropped (RFC 6749 §3.3 lets the server narrow the scope). */
export const SCOPES = ["openid", "profile", "offline_access", SIWE_SCOPE, HOLDINGS_SCOPE] as const;

export const CODE_TTL_SECONDS = 60;

/**
 * `sub` (docs/reference/login.md): the lower-case address for EOAs and for contract wallets proven on mainnet (as the
 * predecessor issued it); `eip155:<chainId>:<address>` for a contract wallet proven elsewhere, because the same
 * address on another chain may be someone else's wallet.
 */
export function subjectFor(address: string, kind: "eoa" | "erc1271" | "erc6492", chainId: number): string {
  const lower = address.toLowerCase();
  return kind === "eoa" || chainId === 1 ? lower : `eip155:${chainId}:${lower}`;
}

export function addressOfSubject(sub: string): string | undefined {
  const match = /^(?:eip155:\d+:)?(0x[0-9a-fA-F]{40})$/.exec(sub);
  return match ? checksumAddress(match[1].toLowerCase()) : undefined;
}

/**
 * oidc-provider configured for wallet logins. There are no passwords and no sessions here: the authorization
 * endpoint sends the browser to our hosted page, and every code is minted by /api/login after a signature.
 */
export async function createProvider(options: {
  config: Config;
  db: Database;
  clients: CachedClients;
  keys: LoginKeys;
  minted: MintedCodes;
  /** The `profile` scope's claims of an address, as far as they are known now (never waits for a lookup). */
  profileClaims?: (sub: string, address: string) => ProfileClaims;
  /** A client's holdings claim and gate for a refresh or userinfo, read again now. */
  currentHoldings?: CurrentHoldings;
}): Promise<Provider> {
  const { config, db, clients, keys, minted, profileClaims = () => ({}), currentHoldings = async () => undefined } = options;
  const { Provider, errors } = await loadOidcLibrary();
  const provider = new Provider(config.issuer, {
    adapter: createAdapterFactory(db, clients, errors.InvalidGrant, minted),
    jwks: { keys: keys.signing },
    cookies: { keys: keys.cookie },
    routes: OIDC_ROUTES,
    responseTypes: ["code"],
    scopes: [...SCOPES],
    // since, first_service and services are the predecessor's account fields this service knows: userinfo only.
    claims: {
      openid: ["sub", "address", "since", "first_service", "services"],
      [SIWE_SCOPE]: [...SIWE_CLAIMS],
      profile: ["preferred_username", "picture"],
      [HOLDINGS_SCOPE]: [HOLDINGS_CLAIM],
    },
    // The ID token carries the claims of every scope granted (the siwe scope's proof, the ENS profile that dApps read
    // from it), not of openid alone; what each use gets is findAccount's choice.
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, sub: string, token?: { grantId?: string; kind?: string; clientId?: string }) {
      const address = addressOfSubject(sub);
      if (!address) return undefined;
      // Holdings: the code exchange hands on what the login read (grant-claims.ts); a refresh reads them again and
      // checks the gate again, so a token sold after the login stops renewing access; userinfo reads them now.
      let holdings: unknown;
      if (token?.kind === "AuthorizationCode") holdings = grantClaims(token.grantId)?.[HOLDINGS_CLAIM];
      else if ((token?.kind === "RefreshToken" || token?.kind === "AccessToken") && token.clientId) {
        const now = await currentHoldings(token.clientId, address, grantClaims(token.grantId)?.[HOLDINGS_CLAIM]);
        // RFC 6749's error of a refresh token that no longer works, with the gate's words (InvalidGrant keeps a
        // description of its own otherwise, and shows the one it is given to its log only).
        if (now?.refusal !== undefined && token.kind === "RefreshToken")
          throw Object.assign(new errors.InvalidGrant(now.refusal), { error_description: now.refusal });
        holdings = now?.claim;
      }
      const held = holdings === undefined ? {} : { [HOLDINGS_CLAIM]: holdings };
      return {
        accountId: sub,
        async claims(use: string, scope: string) {
          // The siwe scope's proof is read only for the tokens that ask for it (siwe-proofs.ts); the profile claims are
          // filtered by the token's scopes: without `profile` they are left out.
          const proof = wantsSiweProof(scope) && token?.grantId ? await findProof(db, token.grantId) : undefined;
          const profile = profileClaims(sub, address);
          if (use !== "userinfo") return { sub, address, ...profile, ...proof, ...held };
          const { since, firstService, services } = await loginHistory(db, accountOfSubject(sub));
          return {
            sub,
            address,
            ...(since !== undefined ? { since, first_service: firstService } : {}),
            services,
            ...profile,
            ...proof,
            ...held,
          };
        },
      };
    },
    pkce: {
      // Public clients cannot keep a secret: PKCE stands in for it. oidc-provider 9 knows S256 only.
      required: (_ctx, client) => client.clientAuthMethod === "none",
    },
    clientAuthMethods: ["client_secret_basic", "client_secret_post", "none"],
    enabledJWA: {
      idTokenSigningAlgValues: ["RS256"],
      userinfoSigningAlgValues: ["RS256"],
      clientAuthSigningAlgValues: ["RS256"],
      requestObjectSigningAlgValues: ["RS256"],
    },
    // Dynamic client registration is ours (registration.ts), published when it is on.
    discovery: config.login.registrationAccessToken ? { registration_endpoint: `${config.issuer}${REGISTRATION_PATH}` } : {},
    // Codes name their redirect_uri; the token request must repeat it byte for byte.
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: {
      AuthorizationCode: CODE_TTL_SECONDS,
      AccessToken: 3600,
      ClientCredentials: 3600,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      Interaction: 600,
      Session: 600,
    },
    // The predecessor's clients expect a refresh token from every code exchange. Without one, what the exchange held
    // back for it to take along (the code's consumption, the access token) is written now (held-writes.ts).
    async issueRefreshToken(_ctx, client) {
      const issue = client.grantTypeAllowed("refresh_token");
      if (!issue) await writeHeldTokens();
      return issue;
    },
    // Our codes are not tied to a browser session (there is none): tokens live by their own TTLs.
    expiresWithSession: async () => false,
    clientBasedCORS(_ctx, origin, client) {
      if (origin === "null") return false;
      return (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin);
    },
    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: true,
        // A client revokes its own tokens only (for another client's token the answer is the same 200 as for an
        // unknown one, which tells the caller nothing).
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      introspection: {
        enabled: true,
        // RFC 7662 lets the server decide who may ask: confidential clients, about their own tokens (another client's
        // token is answered as an unknown one, `active: false`). A public client has no secret to prove it is itself.
        allowedPolicy: async (_ctx, client, token) => {
          if (client.clientAuthMethod === "none") throw new errors.UnauthorizedClient("token introspection is for confidential clients");
          return token.clientId === client.clientId;
        },
      },
      // There is no session to end (logout-page.ts): the request is checked and the browser sent back.
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      // A confidential client's own access token, with no user behind it, for the APIs that manage the client's own
      // resources (its webhook subscriptions).
      clientCredentials: { enabled: true },
      pushedAuthorizationRequests: { enabled: false },
      // The `claims` request parameter reaches the hosted page, which hands it to /api/authorize (holdings.ts).
      claimsParameter: { enabled: true },
      dPoP: { enabled: false },
    },
    // Errors shown instead of redirecting, e.g. a bad redirect_uri: the hosted page's error page.
    async renderError(ctx, out) {
      const clientId = ctx.oidc?.client?.clientId;
      // Only the link back needs the client: a failed lookup (the database down) leaves it pointing to our root.
      const client = clientId === undefined ? undefined : await clients.find(clientId).catch(() => undefined);
      for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
      ctx.type = "html";
      ctx.body = errorPage({
        error: out.error,
        description: out.error_description,
        client,
        uiLocales: ctx.oidc?.params?.ui_locales,
        acceptLanguage: ctx.get("accept-language"),
      });
    },
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  // Host and scheme are pinned to ISSUER on every request handed to the provider (oidc-guard.ts), through the
  // forwarded headers it reads only in proxy mode.
  provider.proxy = true;
  provider.use(retryAfterWhenUnavailable);
  provider.use(countAfterRequest);
  provider.use(writeHeldAfterRequest);

  compareSecretsWith(provider, secretMatches);
  // The predecessor's Go client accepts an ID token only when its audience contains the client's home_url.
  addIdTokenAudience(provider, async (clientId) => (await clients.find(clientId))?.profile.homeUrl ?? undefined);
  return provider;
}

/** The shape of oidc-provider's opaque access tokens: anything else is not looked up. */
const OPAQUE_TOKEN = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * The client a client-credentials access token was issued to; undefined when the token is unknown, expired or
 * revoked, or is not a client's own (a user's access token from a login does not count).
 */
export async function clientOfAccessToken(provider: Provider, token: string): Promise<string | undefined> {
  if (!OPAQUE_TOKEN.test(token)) return undefined;
  return (await provider.ClientCredentials.find(token))?.clientId;
}

export interface MintInput {
  clientId: string;
  sub: string;
  redirectUri: string;
  scope: string;
  nonce?: string | null;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
}

/** An authorization code minted by oidc-provider (stored through the adapter) for a login proven by signature. */
export async function mintCode(provider: Provider, input: MintInput): Promise<string> {
  const client = await provider.Client.find(input.clientId);
  if (!client) throw new Error(`client ${input.clientId} vanished during the login`);
  const grant = new provider.Grant({ accountId: input.sub, clientId: input.clientId });
  grant.addOIDCScope(input.scope);
  grant.addOIDCClaims(["sub", "address"]);
  const grantId: string = await grant.save();
  // @types/oidc-provider has the constructor require `gty`, which oidc-provider sets on access and refresh tokens only.
  type CodeProperties = ConstructorParameters<Provider["AuthorizationCode"]>[0];
  const code = new provider.AuthorizationCode({
    client,
    grantId,
    accountId: input.sub,
    redirectUri: input.redirectUri,
    scope: input.scope,
    // The ID token's auth_time: wall-clock data, as the iat oidc-provider sets beside it (no expiry is computed from it).
    authTime: Math.floor(Date.now() / 1000),
    expiresWithSession: false,
    ...(input.nonce ? { nonce: input.nonce } : {}),
    ...(input.codeChallenge ? { codeChallenge: input.codeChallenge, codeChallengeMethod: input.codeChallengeMethod ?? "S256" } : {}),
  } as Omit<CodeProperties, "gty"> as CodeProperties);
  return code.save();
}
