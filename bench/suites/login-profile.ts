import { performance } from "node:perf_hooks";
import { getBytes, Wallet } from "ethers";
import { decodeJwt } from "jose";
import { deployEns } from "../../support/ens";
import { processCpuMs, ServerCpu } from "../lib/cpu";
import { KeepAliveConnection } from "../lib/keep-alive-client";
import { withLocalChain } from "../lib/local-chain";
import type { BenchContext, Row, Suite } from "../lib/suite";
import { startTogether } from "../lib/service";
import { eachUntil, fullLogin, keptConnection, startLoginService, type LoginService } from "../lib/login-flow";

const CLIENTS = 8;
/** Seconds of warm-up and rounds: the full run's, then the smoke's. */
const FULL = { warmUpSeconds: 10, rounds: 3 };
const SMOKE = { warmUpSeconds: 1, rounds: 1 };
/** The 10 % the `profile` scope may cost, on logins/s and on server CPU per login. */
const BUDGET = 0.1;

type RunName = "openid" | "openid profile";

const loginProfile: Suite = {
  onlyWhenNamed: true,
  method: [
    "Full logins (as in the login suite: `GET /api/authorize`, `personal_sign`, `POST /api/login`, `POST /token`) at 8 clients, with `scope=openid` and with `scope=openid profile`.",
    "ENS runs on the local chain (the tests' registry, resolver and reverse registrar), each client's address has a primary name with an `https://` avatar, and `LOGIN_ENS_NETWORK=localhost`.",
    "`LOGIN_ENS_TTL_MS` is at its least, 1 second, so every client's profile is looked up again each second of the run (at the default 5 minutes a client is looked up once): the lookups' worst case.",
    "Two services, the same code and settings, one per scope, each on its own database; slices in the order A B B A, three rounds, after 10 seconds of warm-up logins each.",
    "Server CPU per login is the service process and its PostgreSQL backends, read from /proc, the background lookups included; the Hardhat node's CPU (the lookups' eth_calls) is shown beside it.",
  ],
  run: (context) => runLoginProfile(context),
};

interface Measure {
  logins: number;
  seconds: number;
  serverCpuMs: number;
  nodeCpuMs: number;
}

async function runLoginProfile({ seconds, database, log, smoke }: BenchContext): Promise<Row[]> {
  // Rounds of A B B A slices: more rounds spread whatever else the shared machine does over both runs alike.
  const { warmUpSeconds: WARMUP_SECONDS, rounds: ROUNDS } = smoke ? SMOKE : FULL;
  return withLocalChain(async ({ node, provider }) => {
    const redirectUri = "https://rp.example/callback";
    const services: ({ name: RunName } & LoginService)[] = [];
    const connections: KeepAliveConnection[] = [];
    try {
      log("ENS on the local chain, a primary name for each client");
      const ens = await deployEns(await provider.getSigner(0));
      const users = Array.from({ length: CLIENTS }, () => {
        const wallet = new Wallet(Wallet.createRandom().privateKey);
        return { wallet, key: getBytes(wallet.privateKey), address: wallet.address, connections: new Map<RunName, KeepAliveConnection>() };
      });
      for (const [i, user] of users.entries()) {
        const name = `bench${i}.eth`;
        await ens.register(name, { addr: user.address, text: { avatar: `https://img.example/${i}.png` } });
        await ens.setPrimary(user.address, name, user.wallet);
      }

      const names = ["openid", "openid profile"] as const;
      await startTogether(
        names.map(() => () => startLoginService(node.url, redirectUri, { LOGIN_ENS_NETWORK: "localhost", LOGIN_ENS_TTL_MS: "1000" })),
        (started, i) => services.push({ name: names[i], ...started }),
      );

      const once = (service: (typeof services)[number], user: (typeof users)[number]) =>
        fullLogin(keptConnection(user.connections, service, connections), service.client, user.key, user.address, service.name);

      log(`warming up, ${WARMUP_SECONDS} s per service`);
      for (const service of services) await eachUntil(users, WARMUP_SECONDS, (u) => once(service, u));
      // The lookups ran meanwhile: the profile run's ID tokens now carry the names, the other's none.
      const [plain, profiled] = [await once(services[0], users[0]), await once(services[1], users[0])].map((t) => decodeJwt(t));
      if (plain.preferred_username !== undefined || profiled.preferred_username !== "bench0.eth" || profiled.picture === undefined) {
        throw new Error(`the profile scope did not give the ENS claims: ${JSON.stringify({ plain, profiled })}`);
      }

      const measures = new Map<RunName, Measure>(services.map((s) => [s.name, { logins: 0, seconds: 0, serverCpuMs: 0, nodeCpuMs: 0 }]));
      const slice = seconds / 2;
      for (let round = 1; round <= ROUNDS; round++) {
        log(`round ${round}/${ROUNDS}: ${CLIENTS} clients, ${slice} s slices (openid / profile / profile / openid)`);
        for (const service of [services[0], services[1], services[1], services[0]]) {
          const m = measures.get(service.name)!;
          const cpuStart = await service.cpu.sample();
          const nodeStart = processCpuMs(node.process.pid!) ?? NaN;
          const start = performance.now();
          const deadline = start + slice * 1000;
          await Promise.all(
            users.map(async (u) => {
              while (performance.now() < deadline) {
                await once(service, u);
                m.logins++;
              }
            }),
          );
          m.seconds += (performance.now() - start) / 1000;
          const used = ServerCpu.between(cpuStart, await service.cpu.sample());
          m.serverCpuMs += used.service + used.database;
          m.nodeCpuMs += (processCpuMs(node.process.pid!) ?? NaN) - nodeStart;
        }
      }

      const stat = (name: RunName) => {
        const m = measures.get(name)!;
        return { rate: m.logins / m.seconds, cpu: m.serverCpuMs / m.logins, node: m.nodeCpuMs / m.logins };
      };
      const without = stat("openid");
      const withProfile = stat("openid profile");
      const server = database === "PostgreSQL" ? "service + PostgreSQL" : "service with PGlite";
      return [
        {
          suite: "login-profile",
          metric: `full logins/s with the profile scope, ${CLIENTS} clients`,
          value: withProfile.rate,
          unit: "/s",
          reference: { label: "openid only", value: without.rate },
          ratio: withProfile.rate / without.rate,
          budget: { text: "≥ 0.9", met: withProfile.rate >= (1 - BUDGET) * without.rate },
        },
        {
          suite: "login-profile",
          metric: `server CPU per login with the profile scope (${server}), ${CLIENTS} clients`,
          value: withProfile.cpu,
          unit: "ms",
          reference: { label: "openid only", value: without.cpu },
          ratio: withProfile.cpu / without.cpu,
          budget: { text: "≤ 1.1", met: withProfile.cpu <= (1 + BUDGET) * without.cpu },
        },
        {
          suite: "login-profile",
          metric: `  besides: the Hardhat node (the lookups' eth_calls), ${CLIENTS} clients`,
          value: withProfile.node,
          unit: "ms",
          reference: { label: "openid only", value: without.node },
        },
      ];
    } finally {
      for (const connection of connections) connection.close();
      for (const service of services) {
        await service.cpu.close();
        await service.app.stop();
      }
    }
  });
}

export default loginProfile;
