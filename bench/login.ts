import http from "node:http";
import { performance } from "node:perf_hooks";
import { hashMessage, Wallet } from "ethers";
import { addClient } from "../server/auth/clients";
import { startLocalNode } from "../server/chain/local-node";
import { verifyEoa } from "../server/chain/signatures";
import { percentile, startService, type Suite } from "./lib";

const CLIENTS = 8;
const RECOVERY_SAMPLES = 400;

/**
 * Full logins per second at 8 concurrent clients, each login being what a dApp and its backend do: GET
 * /api/authorize, personal_sign (here, in the client), POST /api/login, POST /token. Beside it, in the same run and
 * on the same machine, the rate of bare EOA signature recoveries (the service's own verifyEoa) on one core: the cost
 * floor of a login. The budget, on PostgreSQL: logins/s ≥ 0.25 × recoveries/s.
 */
const login: Suite = {
  name: "login",
  async run({ seconds, database, log }) {
    const node = await startLocalNode();
    let client: { id: string; secret: string } | undefined;
    let agent: http.Agent | undefined;
    const redirectUri = "https://rp.example/callback";
    const app = await startService({ RPC_URL_LOCALHOST: node.url, DEFAULT_NETWORK: "localhost", LOGIN_RATE_LIMIT: "1000000" }, async (db) => {
      const added = await addClient(db, { name: "Bench RP", redirectUris: [redirectUri], public: false });
      client = { id: added.client.id, secret: added.secret! };
    });
    try {
      const { id, secret } = client!;
      // Plain keep-alive HTTP: the load generator shares the machine with the service, so it should cost little.
      agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
      const call = (method: string, path: string, body?: string, type?: string) =>
        new Promise<any>((resolve, reject) => {
          const request = http.request(`${app.url}${path}`, { method, agent, headers: body ? { "content-type": type!, "content-length": Buffer.byteLength(body) } : {} }, (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk) => (text += chunk));
            response.on("end", () => (response.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${method} ${path}: ${response.statusCode} ${text}`))));
          });
          request.on("error", reject);
          request.end(body);
        });
      const once = async (wallet: Wallet) => {
        const query = new URLSearchParams({ client_id: id, redirect_uri: redirectUri, response_type: "code", scope: "openid", address: wallet.address, nonce: "n" });
        const { message } = await call("GET", `/api/authorize?${query}`);
        const signature = await wallet.signMessage(message);
        const { code } = await call("POST", "/api/login", JSON.stringify({ address: wallet.address, signature, client_id: id }), "application/json");
        const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: id, client_secret: secret });
        await call("POST", "/token", form.toString(), "application/x-www-form-urlencoded");
      };

      const wallets = Array.from({ length: CLIENTS }, () => new Wallet(Wallet.createRandom().privateKey));
      const signer = new Wallet(Wallet.createRandom().privateKey);
      const samples = await Promise.all(
        Array.from({ length: RECOVERY_SAMPLES }, async (_, i) => {
          const message = `bench message ${i}`;
          return { hash: hashMessage(message), signature: await signer.signMessage(message) };
        }),
      );
      /** verifyEoa in a loop on this process's one thread, for `ms`. */
      const recoveries = (ms: number) => {
        let recovered = 0;
        const start = performance.now();
        while (performance.now() - start < ms) {
          const sample = samples[recovered % RECOVERY_SAMPLES];
          if (!verifyEoa(signer.address, sample.hash, sample.signature).ok) throw new Error("recovery failed");
          recovered++;
        }
        return recovered / ((performance.now() - start) / 1000);
      };

      log("warming up");
      await Promise.all(wallets.map((w) => once(w)));
      // Recoveries are measured right before and right after the logins and averaged, so that whatever else the
      // machine does weighs on both figures alike.
      log("bare signature recoveries (verifyEoa), one core");
      const before = recoveries(1500);
      log(`full logins, ${CLIENTS} concurrent clients, ${seconds} s`);
      let done = 0;
      const latencies: number[] = [];
      const start = performance.now();
      const deadline = start + seconds * 1000;
      await Promise.all(
        wallets.map(async (wallet) => {
          while (performance.now() < deadline) {
            const t0 = performance.now();
            await once(wallet);
            latencies.push(performance.now() - t0);
            done++;
          }
        }),
      );
      const loginsPerSecond = done / ((performance.now() - start) / 1000);
      const p99 = percentile(latencies, 99);
      log("bare signature recoveries again");
      const recoveriesPerSecond = (before + recoveries(1500)) / 2;
      const ratio = loginsPerSecond / recoveriesPerSecond;
      return [
        {
          suite: "login",
          metric: `full logins (authorize, sign, login, token), ${CLIENTS} clients`,
          value: loginsPerSecond,
          unit: "/s",
          reference: { label: "bare recoveries, 1 core", value: recoveriesPerSecond },
          ratio,
          // The budget is for PostgreSQL; on the embedded PGlite (one process, WebAssembly) the figure is shown only.
          ...(database === "PostgreSQL" ? { budget: { text: "≥ 0.25", met: ratio >= 0.25 } } : {}),
        },
        { suite: "login", metric: "full login p99", value: p99, unit: "ms" },
      ];
    } finally {
      agent?.destroy();
      await app.stop();
      await node.stop();
    }
  },
};

export default login;
