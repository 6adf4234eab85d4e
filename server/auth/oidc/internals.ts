import type { Client, Provider } from "oidc-provider";

/**
 * Every use of oidc-provider beyond its documented configuration, in one place (docs/reference/oidc-provider.md): the patch it is
 * installed with, the one comparison method we replace, the one method we wrap, and the order in which it reads a token
 * and its grant. test/server/auth/oidc-library-contract.test.ts names each of them, so an upgrade shows which broke.
 */

/** The library as `import("oidc-provider")` gives it. */
export type OidcLibrary = typeof import("oidc-provider");

/** Why the service does not start: oidc-provider is installed without patches/ applied (one line, for the operator). */
export class UnpatchedLibraryError extends Error {
  constructor() {
    super(
      "oidc-provider is installed without its patch (patches/oidc-provider+*.patch), which an install with --ignore-scripts skips: run `npx patch-package`, then start again",
    );
    this.name = "UnpatchedLibraryError";
  }
}

/**
 * oidc-provider, loaded and checked: it refuses an installation without patches/ applied. Loaded when called, not
 * when this module is: oidc-provider prints a runtime notice as it loads, which must not come before a configuration
 * error (the service stops with exactly one line naming the variable).
 */
export async function loadOidcLibrary(): Promise<OidcLibrary> {
  const library = await import("oidc-provider");
  assertPatched(library.Provider);
  return library;
}

/** For process entries: `loadOidcLibrary`, or the process stops with `UnpatchedLibraryError`'s one line. */
export async function loadOidcLibraryOrExit(): Promise<void> {
  try {
    await loadOidcLibrary();
  } catch (error) {
    if (!(error instanceof UnpatchedLibraryError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const checked = new WeakSet<typeof Provider>();

/**
 * Throws `UnpatchedLibraryError` unless `provider` (a Provider class) gives requests their `ctx.oidc` through one
 * getter on its Koa context prototype, which is what the patch does: unpatched, each request gets an accessor of its
 * own and the prototype has none. Checked on a provider built for the purpose, once per class.
 */
export function assertPatched(provider: typeof Provider): void {
  if (checked.has(provider)) return;
  // Keys, an adapter and no development interactions of its own: oidc-provider warns about none of its defaults.
  const nothing = async () => undefined;
  const probe = new provider("http://127.0.0.1", {
    adapter: () => ({
      upsert: nothing,
      find: nothing,
      findByUid: nothing,
      findByUserCode: nothing,
      consume: nothing,
      destroy: nothing,
      revokeByGrantId: nothing,
    }),
    jwks: { keys: [] },
    features: { devInteractions: { enabled: false } },
  });
  if (typeof Object.getOwnPropertyDescriptor(probe.context, "oidc")?.get !== "function") throw new UnpatchedLibraryError();
  checked.add(provider);
}

/**
 * The models whose `find` oidc-provider follows, in the same request, with a find of their grant (by the `grantId`
 * the token names): a code exchange reads the code then its grant, a refresh the refresh token then its grant,
 * userinfo the access token then its grant; nothing saves that grant in between. The adapter reads both with one query
 * on the first find and answers the second from memory (adapter.ts); in another order it only loses the round trip.
 */
export const READ_BEFORE_THEIR_GRANT: ReadonlySet<string> = new Set(["AuthorizationCode", "RefreshToken", "AccessToken"]);

/**
 * Client secrets are stored hashed (clients.ts), so the stored "client_secret" oidc-provider is handed is a hash and
 * the comparison must hash what the client sent. oidc-provider has no hook for this: its one comparison of a secret
 * is `Client.prototype.compareClientSecret`, called for client_secret_basic and client_secret_post, which this
 * replaces. HS* algorithms (the only other use of the secret) are disabled in provider.ts.
 */
export function compareSecretsWith(provider: Provider, matches: (sent: string, stored: string | null) => boolean): void {
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: Client, sent: string) {
    return matches(sent, this.clientSecret ?? null);
  };
}

/**
 * ID tokens of a client with a second audience (`audienceOf` names it, or not) are for `[client_id, audience]`, with
 * `azp` naming the client (OIDC Core §2). oidc-provider sets `aud` to the client id with no hook to add one; the one
 * method that signs an ID token is `IdToken.prototype.issue`, which reads the client's `clientId` for `aud` and for
 * nothing else there. This wraps it: the client it signs for is seen through a view whose clientId is the list.
 */
export function addIdTokenAudience(provider: Provider, audienceOf: (clientId: string) => Promise<string | undefined>): void {
  // `client` is read-only in @types/oidc-provider; oidc-provider's IdToken keeps it as a plain property.
  type IdToken = InstanceType<Provider["IdToken"]>;
  const prototype: { -readonly [K in keyof IdToken]: IdToken[K] } = provider.IdToken.prototype;
  const issue = prototype.issue;
  prototype.issue = async function issueWithAudiences(this: typeof prototype, options) {
    if (options?.use !== "idtoken") return issue.call(this, options);
    const client = this.client;
    const audience = await audienceOf(client.clientId);
    if (!audience || audience === client.clientId) return issue.call(this, options);
    this.set("azp", client.clientId);
    const audiences = [client.clientId, audience];
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
  };
}
