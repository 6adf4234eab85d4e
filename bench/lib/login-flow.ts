import { performance } from "node:perf_hooks";
import type * as Clients from "../../server/auth/clients";
import type * as Holdings from "../../server/auth/holdings";
import { moduleOf } from "./before";
import { ServerCpu } from "./cpu";
import { KeepAliveConnection } from "./keep-alive-client";
import { startService, type Service } from "./service";
import { personalSign } from "./sign";

/**
 * A service for login benches, with its CPU meter and one confidential client registered for `redirectUri`; with
 * `holdings`, one more per named holdings configuration (docs/reference/login.md), in `gated` by the same name.
 */
export interface LoginService {
  app: Service;
  cpu: ServerCpu;
  client: { id: string; secret: string; redirectUri: string };
  gated: Record<string, { id: string; secret: string; redirectUri: string }>;
}

/** Starts the service as the login benches run it (`env` added to their settings) and registers its client. */
export async function startLoginService(
  nodeUrl: string,
  redirectUri: string,
  env: Record<string, string>,
  options: { tree?: string; countQueries?: boolean; holdings?: Record<string, unknown>; nodeArgs?: string[] } = {},
): Promise<LoginService> {
  let client: { id: string; secret: string } | undefined;
  const gated: LoginService["gated"] = {};
  // No indexer polling the node and no sweep of token metadata in the background: the CPU measured and the
  // statements counted are the logins'.
  const app = await startService(
    { RPC_URL_LOCALHOST: nodeUrl, DEFAULT_NETWORK: "localhost", INDEXER: "false", METADATA_SWEEP_BATCH: "0", ...env },
    async (db) => {
      // The client is written by the code of the tree measured: a later column is not in a before ref's database.
      const { addClient } = moduleOf<typeof Clients>(options.tree, "server/auth/clients");
      const added = await addClient(db, { name: "Bench RP", redirectUris: [redirectUri], public: false });
      client = { id: added.client.id, secret: added.secret! };
      for (const [name, config] of Object.entries(options.holdings ?? {})) {
        const { parseHoldingsConfig } = moduleOf<typeof Holdings>(options.tree, "server/auth/holdings");
        const holdings = parseHoldingsConfig(config, ["localhost"]);
        const withGate = await addClient(db, { name: `Bench RP (${name})`, redirectUris: [redirectUri], public: false, holdings });
        gated[name] = { id: withGate.client.id, secret: withGate.secret!, redirectUri };
      }
    },
    options,
  );
  const cpu = await ServerCpu.forService(app);
  return { app, cpu, client: { ...client!, redirectUri }, gated };
}

/**
 * A client's kept-alive connection to `service` (one per client and service, as a dApp backend holds one), opened at
 * its first use and added to `all` for closing.
 */
export function keptConnection<Name>(
  mine: Map<Name, KeepAliveConnection>,
  service: { name: Name; app: Service },
  all: KeepAliveConnection[],
): KeepAliveConnection {
  let connection = mine.get(service.name);
  if (!connection) {
    connection = new KeepAliveConnection(service.app.url);
    all.push(connection);
    mine.set(service.name, connection);
  }
  return connection;
}

/** Runs `each` for every user, one after another per user and all users at once, for `seconds`. */
export async function eachUntil<U>(users: U[], seconds: number, each: (user: U) => Promise<unknown>): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    users.map(async (u) => {
      while (performance.now() < deadline) await each(u);
    }),
  );
}

/**
 * One full login on `connection`, as a dApp and its backend make it: `/api/authorize` with `scope`, `personal_sign`,
 * `/api/login`, and the code exchanged at `/token` by a confidential client. Returns the ID token.
 */
export async function fullLogin(
  connection: KeepAliveConnection,
  client: { id: string; secret: string; redirectUri: string },
  key: Uint8Array,
  address: string,
  scope = "openid",
): Promise<string> {
  // The fields read from the answers (message, code, id_token) are strings.
  const call = async (method: string, path: string, body?: string, type?: string): Promise<Record<string, string>> => {
    const answer = await connection.request(method, path, body, type);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.body}`);
    return JSON.parse(answer.body);
  };
  const query = new URLSearchParams({
    client_id: client.id,
    redirect_uri: client.redirectUri,
    response_type: "code",
    scope,
    address,
    nonce: "n",
  });
  const { message } = await call("GET", `/api/authorize?${query}`);
  const signature = personalSign(key, message);
  const { code } = await call("POST", "/api/login", JSON.stringify({ address, signature, client_id: client.id }), "application/json");
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    client_id: client.id,
    client_secret: client.secret,
  });
  const tokens = await call("POST", "/token", form.toString(), "application/x-www-form-urlencoded");
  if (typeof tokens.id_token !== "string") throw new Error("no ID token");
  return tokens.id_token;
}
