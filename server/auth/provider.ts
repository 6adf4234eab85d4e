import type { Provider } from "oidc-provider";
import { checksumAddress } from "../chain/values";
import type { Config } from "../config";
import type { Database } from "../db/database";
import { createAdapterFactory, writeHeldAfterRequest, writeHeldTokens, type MintedCodes } from "./adapter";
import { secretMatches, type CachedClients } from "./clients";
import type { LoginKeys } from "./keys";
import type { ProfileClaims } from "./ens/profiles";
import { loginHistory } from "./logins";
import { errorPage } from "./oidc-guard";

/** The paths oidc-provider answers (all at the root, next to our /api ones). */
export const OIDC_ROUTES = {
  authorization: "/authorize",
  token: "/token",
  userinfo: "/userinfo",
  jwks: "/jwks",
  revocation: "/token/revocation",
  end_session: "/session/end",
} as const;

/** Scopes we grant; anything else asked for is dropped (RFC 6749 §3.3 lets the server narrow the scope). */
export const SCOPES = ["openid", "profile", "offline_access"] as const;

export const CODE_TTL_SECONDS = 60;

/**
 * `sub` (docs/login.md): the lower-case address for EOAs and for contract wallets proven on mainnet (as the
 * predecessor issued it); `eip155:<chainId>:<address>` for a contract wallet proven elsewhere, because the same
 * address on another chain may be someone else's wallet.
 */
export function subjectFor(address: string, kind: "eoa" | "erc1271" | "erc6492", chainId: number): string {
  const lower = address.toLowerCase();
  return kind === "eoa" || chainId === 1 ? lower : `eip155:${chainId}:${lower}`;
}

export function addressOfSubject(sub: string): string | undefined {
  const match = /^(?:eip155:\d+:)?(0x[0-9a-f]{40})$/.exec(sub);
  return match ? checksumAddress(match[1]) : undefined;
}

/**
 * oidc-provider configured for wallet logins. There are no passwords and no sessions here: the authorization
 * endpoint sends the browser to our hosted page, and every code is minted by /api/login after a signature.
 */
export async function createProvider(
  config: Config,
  db: Database,
  clients: CachedClients,
  keys: LoginKeys,
  minted: MintedCodes,
  /** The `profile` scope's claims of an address, as far as they are known now (never waits for a lookup). */
  profileClaims: (sub: string, address: string) => ProfileClaims = () => ({}),
): Promise<Provider> {
  // Loaded when the plugin starts, not when the module is: oidc-provider prints a runtime notice as it loads, which
  // must not come before a configuration error (the service stops with exactly one line naming the variable).
  const { Provider, errors } = await import("oidc-provider");
  const provider = new Provider(config.issuer, {
    adapter: createAdapterFactory(db, clients, errors.InvalidGrant, minted),
    jwks: { keys: keys.signing },
    cookies: { keys: keys.cookie },
    routes: OIDC_ROUTES,
    responseTypes: ["code"],
    scopes: [...SCOPES],
    // since, first_service and services are the predecessor's account fields this service knows: userinfo only.
    claims: { openid: ["sub", "address", "since", "first_service", "services"], profile: ["preferred_username", "picture"] },
    // Each granted scope's claims go in the ID token too (not only to userinfo): dApps read the ENS name from it.
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, sub: string) {
      const address = addressOfSubject(sub);
      if (!address) return undefined;
      return {
        accountId: sub,
        async claims(use: string) {
          // Filtered by the token's scopes: without `profile` they are left out.
          const profile = profileClaims(sub, address);
          if (use !== "userinfo") return { sub, address, ...profile };
          const { since, firstService, services } = await loginHistory(db, sub);
          return { sub, address, ...(since !== undefined ? { since, first_service: firstService } : {}), services, ...profile };
        },
      };
    },
    pkce: {
      // Public clients cannot keep a secret: PKCE stands in for it. oidc-provider 9 knows S256 only.
      required: (_ctx: unknown, client: { clientAuthMethod: string }) => client.clientAuthMethod === "none",
    },
    clientAuthMethods: ["client_secret_basic", "client_secret_post", "none"],
    enabledJWA: {
      idTokenSigningAlgValues: ["RS256"],
      userinfoSigningAlgValues: ["RS256"],
      clientAuthSigningAlgValues: ["RS256"],
      requestObjectSigningAlgValues: ["RS256"],
    },
    // Codes name their redirect_uri; the token request must repeat it byte for byte.
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: {
      AuthorizationCode: CODE_TTL_SECONDS,
      AccessToken: 3600,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      Interaction: 600,
      Session: 600,
    },
    // The predecessor's clients expect a refresh token from every code exchange. Without one, what the exchange held
    // back for it to take along (the code's consumption, the access token) is written now (adapter.ts).
    async issueRefreshToken(_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) {
      const issue = client.grantTypeAllowed("refresh_token");
      if (!issue) await writeHeldTokens();
      return issue;
    },
    // Our codes are not tied to a browser session (there is none): tokens live by their own TTLs.
    expiresWithSession: async () => false,
    clientBasedCORS(_ctx: unknown, origin: string, client: { redirectUris: string[] }) {
      if (origin === "null") return false;
      return client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin);
    },
    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: true,
        // A client revokes its own tokens only (for another client's token the answer is the same 200 as for an
        // unknown one, which tells the caller nothing).
        allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId: string }) =>
          token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
    },
    // A plain page (no inline style, nothing fetched) for errors shown instead of redirecting, e.g. a bad redirect_uri.
    async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
      ctx.type = "html";
      ctx.body = errorPage(out.error, out.error_description);
    },
    interactions: { url: async (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });
  // Host and scheme are pinned to ISSUER on every request handed to the provider (oidc-guard.ts), through the
  // forwarded headers it reads only in proxy mode.
  provider.proxy = true;
  provider.use(writeHeldAfterRequest);

  // Secrets are stored hashed (clients.ts), so the stored "client_secret" is a hash and the comparison hashes
  // what the client sent. oidc-provider has no hook for this; its one comparison method is replaced. HS*
  // algorithms (the only other use of the secret) are disabled above.
  provider.Client.prototype.compareClientSecret = async function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    return secretMatches(actual, this.clientSecret ?? null);
  };
  withHomeUrlAudience(provider, clients);
  return provider;
}

/**
 * ID tokens of a client with a home_url are for `[client_id, home_url]`, with `azp` naming the client (OIDC Core
 * §2): the predecessor's Go client accepts an ID token only when its audience contains the client's home_url.
 * oidc-provider sets `aud` to the client id with no hook to add one, so the client it signs for is seen through a
 * view whose clientId is the list (`aud` is the one thing it takes clientId for when signing an ID token).
 */
function withHomeUrlAudience(provider: Provider, clients: CachedClients) {
  const issue = provider.IdToken.prototype.issue;
  provider.IdToken.prototype.issue = async function issueWithAudiences(
    this: { client: { clientId: string }; set(claim: string, value: unknown): void },
    options: { use?: string } = {},
  ) {
    if (options.use === "idtoken") {
      const client = this.client;
      const homeUrl = (await clients.find(client.clientId))?.profile.homeUrl;
      if (homeUrl && homeUrl !== client.clientId) {
        this.set("azp", client.clientId);
        const audiences = [client.clientId, homeUrl];
        this.client = new Proxy(client, {
          get: (target, property) => {
            if (property === "clientId") return audiences;
            const value = Reflect.get(target, property, target);
            return typeof value === "function" ? value.bind(target) : value;
          },
        });
        try {
          return await issue.call(this, options);
        } finally {
          this.client = client;
        }
      }
    }
    return issue.call(this, options);
  };
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
  const code = new provider.AuthorizationCode({
    client,
    grantId,
    accountId: input.sub,
    redirectUri: input.redirectUri,
    scope: input.scope,
    authTime: Math.floor(Date.now() / 1000),
    expiresWithSession: false,
    ...(input.nonce ? { nonce: input.nonce } : {}),
    ...(input.codeChallenge ? { codeChallenge: input.codeChallenge, codeChallengeMethod: input.codeChallengeMethod ?? "S256" } : {}),
  });
  return code.save();
}
