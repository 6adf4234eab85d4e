import formbody from "@fastify/formbody";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { limitInStatement, limitRequests } from "../http/rate-limit";
import { EnsProfiles } from "./ens/profiles";
import { RecentChallenges } from "./challenges";
import { CachedClients } from "./clients";
import { loadKeys, publicPems } from "./keys";
import type { LoginDeps } from "./login";
import fp from "fastify-plugin";
import { clientOfAccessToken, createProvider, MintedCodes, type CurrentHoldings, type Provider } from "./oidc";
import { checkHoldings, collectionsOfClaim, gateRefusalText, withCollections } from "./holdings";
import apiRoutes from "./routes/api";
import clientInfoRoutes from "./routes/client-info";
import hostedPageRoutes from "./routes/hosted-page";
import oidcRoutes from "./routes/oidc";
import registrationRoutes from "./routes/registration";
import x509Routes from "./routes/x509";
import { LOGIN_SWEEP, LoginSweeper } from "./sweep";

declare module "fastify" {
  interface FastifyInstance {
    /** The OAuth client a client-credentials access token (a `Bearer` of the APIs a client manages its own things with) names. */
    clientTokens: { clientOf(token: string): Promise<string | undefined> };
  }
}

/**
 * The login service (docs/reference/login.md): the JSON API (`/api/authorize`, `/api/login`) that dApps and the hosted
 * page use, oidc-provider mounted for the standard endpoints, the hosted page, and the predecessor's `/api/client` and
 * `/api/metadata/x509`. This plugin wires them: the signing keys, the provider, forms, the rate limit and the sweep of
 * expired rows.
 */
const auth: FastifyPluginAsyncTypebox<{ onProvider(provider: Provider): void }> = async (app, { onProvider }) => {
  const { issuer, defaultNetwork, login: settings } = app.config;
  const keys = await loadKeys(app.db, settings.jwks);
  const minted = new MintedCodes(app.clock);
  const clients = new CachedClients(app.db, app.clock);
  const { tokenMetadata: tokenConfig } = app.config;
  const ens = settings.ensNetwork
    ? new EnsProfiles({
        networks: app.networks,
        network: settings.ensNetwork,
        ttlMs: settings.ensTtlMs,
        clock: app.clock,
        log: app.log,
        gateways: { ipfs: tokenConfig.ipfsGateway, arweave: tokenConfig.arweaveGateway },
        // The token plugin registers after this one; lookups run once the app is up.
        tokens: () => app.tokenMetadata,
      })
    : undefined;
  if (ens) app.addHook("preClose", async () => ens.close());
  // A refresh and userinfo read a client's holdings again, on the primary: a token sold must not pass on a lagging replica.
  const currentHoldings: CurrentHoldings = async (clientId, address, reported) => {
    const client = await clients.find(clientId);
    const config = withCollections(client?.holdings ?? null, collectionsOfClaim(reported));
    if (!client || !config) return undefined;
    const check = await checkHoldings(app.db, address, config);
    const { gate } = config;
    return {
      claim: check.claim,
      refusal: check.meetsGate || !gate ? undefined : gateRefusalText({ address, clientName: client.name, gate, check, lang: "en" }),
    };
  };
  const provider = await createProvider({
    config: app.config,
    db: app.db,
    clients,
    keys,
    minted,
    profileClaims: ens && ((sub, address) => ens.claims(sub, address)),
    currentHoldings,
  });
  onProvider(provider);
  const login: LoginDeps = {
    db: app.db,
    clients,
    networks: app.networks,
    provider,
    settings: { issuer, defaultNetwork, messageHeader: settings.messageHeader, maxOpenChallenges: settings.maxOpenChallenges },
    recent: new RecentChallenges(app.clock),
    minted,
    clock: app.clock,
    ens,
  };

  const sweeper = new LoginSweeper(app.db, { ...LOGIN_SWEEP, clock: app.clock }, (error) =>
    app.log.warn({ err: error }, "login: sweep of expired challenges and tokens failed"),
  );
  app.addHook("onReady", async () => sweeper.start());
  app.addHook("preClose", async () => sweeper.stop());

  // Forms (the predecessor's clients, the token endpoint) in this plugin's scope only.
  await app.register(formbody);
  // For the routes that opt in (RATE_LIMITED), and the login's three steps, whose own statements count them
  // (COUNTED_IN_STATEMENT): one statement per step, the count included.
  await limitRequests(app, { max: settings.rateLimit, global: false });
  await limitInStatement(app, { max: settings.rateLimit });

  await app.register(apiRoutes, { login });
  await app.register(x509Routes, { pems: await publicPems(keys.signing) });
  await app.register(clientInfoRoutes, { clients });
  await app.register(oidcRoutes, { provider, issuer });
  await app.register(hostedPageRoutes, { provider });
  if (settings.registrationAccessToken) await app.register(registrationRoutes, { accessToken: settings.registrationAccessToken });
};

/**
 * The login service in a scope of its own (its forms and rate limit stay inside), with `app.clientTokens` for the
 * features beside it.
 */
export default fp(
  async (app) => {
    let provider: Provider | undefined;
    app.decorate("clientTokens", {
      clientOf: async (token: string) => (provider ? clientOfAccessToken(provider, token) : undefined),
    });
    await app.register(auth, { onProvider: (made) => (provider = made) });
  },
  { name: "auth" },
);
