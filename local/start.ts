import type { FastifyInstance } from "fastify";
import pino from "pino";
import { loadOidcLibraryOrExit } from "../server/auth/oidc";
import { loadConfig } from "../server/config";
import { DatabaseInUse } from "../server/db/errors";
import { checkDataDirFree } from "../server/db/pglite-lock";
import { readCursor } from "../server/indexer/store/blocks";
import { serviceProcess } from "../server/main";
import { printBanner } from "./banner";
import { prepareDemo, type Demo } from "./demo";
import { demoApiExamples, postDemoStatements, signDemoStatements, type DemoStatements } from "./demo-api";
import { ensureDemoClient, type DemoClient } from "./demo-client";
import { DemoReceiver } from "./demo-webhook";
import { startLocalNode, type LocalNode } from "./node";

/**
 * Process entry (`npm start`). With no RPC_URL_* set (LOCAL_CHAIN on) it runs everything on this machine before the
 * service: a Hardhat node, the demo contracts, the embedded PGlite database under .data/, a demo login client. Then
 * the service runs as server/main.ts has it; Ctrl-C stops it and then the node.
 */
async function start(): Promise<void> {
  // What the change log records from here on is this start's demo: the local receiver is sent it again.
  const since = new Date();
  let config = loadConfig(process.env, { exitOnError: true });
  // A second start on a database already in use stops here, before it starts a chain or writes under DATA_DIR.
  if (config.database.kind === "pglite" && config.database.dataDir) checkDataDirFree(config.database.dataDir);
  // Before anything is started: without patches/ applied the service would refuse later, with the local chain running.
  await loadOidcLibraryOrExit();
  const service = serviceProcess(config);

  let node: LocalNode | undefined;
  let demo: Demo | undefined;
  let statements: DemoStatements | undefined;
  let receiver: DemoReceiver | undefined;
  if (config.localChain) {
    const started = await startLocalNode({ port: config.localChainPort }).catch(() => startLocalNode({ port: 0 }));
    node = started;
    service.onShutdown(() => started.stop());
    config = { ...config, rpcUrls: { ...config.rpcUrls, localhost: [started.url] } };
    demo = await prepareDemo(started.url, config.dataDir, (line) => console.log(line));
    statements = await signDemoStatements(started.url, demo);
    // The conversion page offers the demo converter unless CONVERTERS names others.
    if (config.converters.length === 0) config = { ...config, converters: [{ network: "localhost", address: demo.converter }] };
    // A webhook receiver of the dApp's kind, on this machine (the local setup lets webhooks reach it over http).
    if (config.webhooks.secretKeys && config.webhooks.concurrency > 0 && config.indexer.enabled) {
      const started = new DemoReceiver((line) => console.log(line));
      await started.start();
      service.onShutdown(() => started.close());
      receiver = started;
    }
  }

  // The local setup gets a relying party to try logins with; a production deployment registers its own.
  let demoClient: DemoClient | undefined;
  const localDemo = demo && statements ? { demo, statements } : undefined;
  const app = await service.serve(config, {
    beforeListen: async (built) => {
      if (config.localChain) demoClient = await ensureDemoClient(built.db, config.dataDir);
      // The metadata routes' examples (/docs) read what is posted here.
      if (localDemo) await postDemoStatements(built, localDemo.demo, localDemo.statements);
    },
    app: {
      // The banner is the last thing printed: a line per curl would scroll it, and the demo secret, away.
      // LOG_LEVEL=debug brings the request lines back.
      requestLog: pino.levels.values[config.logLevel] <= pino.levels.values.debug,
      // The API document's examples are the demo's: "Try it out" works on it as it comes (read when first asked, after the client exists).
      apiExamples: localDemo && (() => demoApiExamples(localDemo.demo, demoClient!, localDemo.statements)),
    },
  });
  // The printed inventory lines answer from the index: let it take in the demo first (a second or so).
  if (node && config.indexer.enabled) await indexedToHead(app);
  if (receiver && demo) await receiver.subscribe(app.db, { config, user: demo.user, since });
  if (service.stopping) return;
  printBanner({ config, app, node, demo, demoClient, receiver });
  if (receiver) receiver.announce = true;
}

async function indexedToHead(app: FastifyInstance, timeoutMs = 20_000): Promise<void> {
  const provider = app.networks.provider("localhost");
  const head = await provider.getBlockNumber();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const cursor = await readCursor(app.db, "localhost");
    // Of this chain: on a start after an earlier one's, the cursor first names the old chain's blocks.
    if (cursor && cursor.block >= head && (await provider.getBlock(cursor.block))?.hash === cursor.hash) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  app.log.warn("the index of the local chain is still catching up; inventory answers 503 until it has started");
}

start().catch((error) => {
  // A database in use is not a fault of ours: its message says what holds it and what to do, in one line.
  console.error(error instanceof DatabaseInUse ? error.message : error);
  process.exit(1);
});
