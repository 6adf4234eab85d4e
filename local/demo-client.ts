import fs from "node:fs";
import path from "node:path";
import { addClient, findClient, secretMatches, updateClient } from "../server/auth/clients";
import type { Database } from "../server/db/database";

export interface DemoClient {
  id: string;
  secret: string;
  name: string;
  redirectUri: string;
}

/** `<dataDir>/demo-client.json`: the OAuth names, as the banner prints them and a relying party's settings take them. */
export interface DemoClientFile {
  client_id: string;
  client_secret: string;
  redirect_uri: string;
  name: string;
}

export const DEMO_REDIRECT_URI = "http://localhost:8080/callback";
/**
 * The demo dApp's home page: the predecessor's Go client accepts an ID token only when its audience names the
 * client's home_url, so a demo client without one would fail with that client out of the box.
 */
const DEMO_HOME_URL = new URL(DEMO_REDIRECT_URI).origin;

/**
 * The demo relying party `npm start` registers once on the local setup. Unlike real clients, its secret is also
 * written to `<dataDir>/demo-client.json` (mode 600) so every start can print it: it is a local demo, on a local
 * chain, and a secret nobody can see again would make the banner useless after the first start.
 */
export async function ensureDemoClient(db: Database, dataDir: string): Promise<DemoClient> {
  const recorded = readDemoClient(dataDir);
  if (recorded) {
    const stored = await findClient(db, recorded.id);
    if (stored && secretMatches(recorded.secret, stored.secretHash)) {
      // Registered by an earlier version, without a home page.
      if (!stored.profile.homeUrl) await updateClient(db, stored.id, { profile: { homeUrl: DEMO_HOME_URL } });
      // An earlier version wrote `id` and `secret`: the file now says what the banner says.
      writeDemoClient(dataDir, recorded);
      return recorded;
    }
  }
  const name = "Demo dApp";
  const { client, secret } = await addClient(db, {
    name,
    redirectUris: [DEMO_REDIRECT_URI],
    public: false,
    profile: { homeUrl: DEMO_HOME_URL },
  });
  const demo = { id: client.id, secret: secret!, name, redirectUri: DEMO_REDIRECT_URI };
  writeDemoClient(dataDir, demo);
  return demo;
}

export const demoClientFile = (dataDir: string) => path.join(dataDir, "demo-client.json");

/** The demo client `dataDir` records, in the file's current form or an earlier version's (`id`, `secret`, `redirectUri`). */
export function readDemoClient(dataDir: string): DemoClient | undefined {
  const file = demoClientFile(dataDir);
  if (!fs.existsSync(file)) return undefined;
  const recorded = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<DemoClientFile> & Partial<DemoClient>;
  const id = recorded.client_id ?? recorded.id;
  const secret = recorded.client_secret ?? recorded.secret;
  if (typeof id !== "string" || typeof secret !== "string") return undefined;
  return {
    id,
    secret,
    name: recorded.name ?? "Demo dApp",
    redirectUri: recorded.redirect_uri ?? recorded.redirectUri ?? DEMO_REDIRECT_URI,
  };
}

function writeDemoClient(dataDir: string, demo: DemoClient): void {
  const file: DemoClientFile = { client_id: demo.id, client_secret: demo.secret, redirect_uri: demo.redirectUri, name: demo.name };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(demoClientFile(dataDir), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}
