import net from "node:net";
import { addClient } from "../../../server/auth/clients";
import { startTestApp, type TestApp, type TestAppOptions } from "../../helpers/app";

/** A port free right now, so the app's ISSUER can name it before the app listens (issuers must match URLs). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The service with the login plugin, its issuer being its own URL, contract wallets asked on the local node. */
export async function startLoginApp(nodeUrl: string, options: TestAppOptions = {}): Promise<TestApp> {
  const port = await freePort();
  return startTestApp({
    ...options,
    port,
    env: {
      RPC_URL_LOCALHOST: nodeUrl,
      DEFAULT_NETWORK: "localhost",
      ISSUER: `http://127.0.0.1:${port}`,
      LOGIN_RATE_LIMIT: "100000",
      ...options.env,
    },
  });
}

export interface RegisteredClient {
  id: string;
  secret?: string;
  redirectUri: string;
  name: string;
}

export async function registerClient(t: TestApp, options: { name?: string; redirectUris?: string[]; public?: boolean } = {}): Promise<RegisteredClient> {
  const redirectUris = options.redirectUris ?? ["https://rp.example/callback"];
  const name = options.name ?? "Example RP";
  const { client, secret } = await addClient(t.app.db, { name, redirectUris, public: options.public ?? false });
  return { id: client.id, secret, redirectUri: redirectUris[0], name };
}

export async function getJson(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

export async function postJson(url: string, payload: unknown) {
  return getJson(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof payload === "string" ? payload : JSON.stringify(payload) });
}

export async function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return getJson(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form).toString() });
}
