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
  const file = path.join(dataDir, "demo-client.json");
  if (fs.existsSync(file)) {
    const recorded = JSON.parse(fs.readFileSync(file, "utf8")) as DemoClient;
    const stored = await findClient(db, recorded.id);
    if (stored && secretMatches(recorded.secret, stored.secretHash)) {
      // Registered by an earlier version, without a home page.
      if (!stored.profile.homeUrl) await updateClient(db, stored.id, { profile: { homeUrl: DEMO_HOME_URL } });
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
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}
