import http from "node:http";
import { listenLocally } from "../../support/net";
import { MetadataERC1155__factory } from "../../typechain-types";
import { expectOk } from "../lib/answers";
import { ServerCpu } from "../lib/cpu";
import { CONNECTIONS, load } from "../lib/load";
import { withLocalChain } from "../lib/local-chain";
import { startService } from "../lib/service";
import type { Row, Suite } from "../lib/suite";

/** ERC-1155 ids read (100 in the smoke), minted BATCH at a time. */
const FULL_TOKENS = 1_000;
const SMOKE_TOKENS = 100;
const BATCH = 250;

const token: Suite = {
  method: [
    "Token metadata at 32 connections, the service in its own process, over 1,000 ERC-1155 ids whose `uri` points at a local HTTP host.",
    "Reads that resolve (an `eth_call`, a fetch and a write), reads from the cache, and an inventory page of 100 with `?metadata=true` beside the same page without it.",
    "Beside the reads from the cache and the pages, their server CPU per request, read from /proc over each load: the service process's and, on PostgreSQL, its backends'.",
  ],
  async run({ seconds, log, smoke, database }) {
    const TOKENS = smoke ? SMOKE_TOKENS : FULL_TOKENS;
    const host = http.createServer((request, response) => {
      const id = BigInt(`0x${/([0-9a-f]{64})\.json$/.exec(request.url!)?.[1] ?? "0"}`);
      const metadata = {
        name: `Item #${id}`,
        image: `ipfs://bafybench/${id}.png`,
        attributes: [{ trait_type: "power", value: Number(id % 100n) }],
      };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(metadata));
    });
    const { url: hostUrl, close: closeHost } = await listenLocally(host);
    try {
      return await withLocalChain(async ({ node, provider }) => {
        const deployer = await provider.getSigner(0);
        const holder = await (await provider.getSigner(1)).getAddress();
        const contract = await new MetadataERC1155__factory(deployer).deploy(`${hostUrl}/meta/{id}.json`);
        const address = await contract.getAddress();
        log(`minting ${TOKENS} ERC-1155 ids`);
        for (let first = 1; first <= TOKENS; first += BATCH) {
          const ids = Array.from({ length: Math.min(BATCH, TOKENS - first + 1) }, (_, i) => BigInt(first + i));
          await (
            await contract.mintBatch(
              holder,
              ids,
              ids.map(() => 1n),
            )
          ).wait();
        }
        const app = await startService({
          RPC_URL_LOCALHOST: node.url,
          INDEXER_POLL_MS: "100",
          INDEXER_CONTRACTS_LOCALHOST: address,
          METADATA_FETCH_ALLOW_PRIVATE: "true",
          // Cold reads wait for their metadata: the figure is resolutions per second, not "pending" answers.
          METADATA_FETCH_WAIT_MS: "30000",
        });
        const cpu = await ServerCpu.forService(app);
        try {
          const path = (id: number) => `/token/localhost/${address}/${id}`;
          for (let tries = 0; (await fetch(`${app.url}${path(TOKENS)}`, { method: "HEAD" })).status !== 200; tries++) {
            if (tries > 300) throw new Error("the index did not reach the minted tokens");
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          log(`GET ${TOKENS} tokens never read (each: eth_call, fetch, store), ${CONNECTIONS} connections`);
          let cold = 1;
          const resolving = await load({
            what: "tokens never read",
            url: app.url,
            connections: CONNECTIONS,
            amount: TOKENS - 1,
            next: () => ({ path: path(cold++) }),
          });
          const sample = (await (await expectOk(`GET ${path(7)}`, await fetch(`${app.url}${path(7)}`))).json()) as {
            metadata: { name: string } | null;
            metadataError: string | null;
          };
          if (sample.metadata?.name !== "Item #7") throw new Error(`token 7 did not resolve: ${sample.metadataError}`);
          log(`GET tokens from the cache, ${CONNECTIONS} connections, ${seconds} s`);
          let hot = 0;
          const cpuRows: Row[] = [];
          /** A load and its server CPU per request (µs), as rows named after `metric`. */
          const measured = async (metric: string, options: Omit<Parameters<typeof load>[0], "connections" | "seconds">) => {
            const start = await cpu.sample();
            const result = await load({ ...options, connections: CONNECTIONS, seconds });
            const used = ServerCpu.between(start, await cpu.sample());
            const requests = result.requestsPerSecond * seconds;
            cpuRows.push({
              suite: "token",
              metric: `${metric}, server CPU per request: the service`,
              value: (used.service * 1000) / requests,
              unit: "µs",
            });
            if (database === "PostgreSQL")
              cpuRows.push({
                suite: "token",
                metric: `${metric}, server CPU per request: PostgreSQL backends`,
                value: (used.database * 1000) / requests,
                unit: "µs",
              });
            return result;
          };
          const cached = await measured("GET /token from the cache", {
            what: "tokens from the cache",
            url: app.url,
            next: () => ({ path: path((hot++ % TOKENS) + 1) }),
          });
          const page = `/inventory/localhost/${holder}/${address}?limit=100`;
          log(`inventory page of 100 with and without ?metadata=true, ${CONNECTIONS} connections, ${seconds} s each`);
          const plain = await measured("inventory page of 100", { what: "inventory page", url: `${app.url}${page}` });
          const withMetadata = await measured("inventory page of 100 ?metadata=true (cached)", {
            what: "inventory page with metadata",
            url: `${app.url}${page}&metadata=true`,
          });
          return [
            {
              suite: "token",
              metric: `GET /token, metadata never read (eth_call + fetch + store), ${CONNECTIONS} conn`,
              value: resolving.requestsPerSecond,
              unit: "req/s",
            },
            { suite: "token", metric: "GET /token never read, p99", value: resolving.p99Ms, unit: "ms" },
            { suite: "token", metric: `GET /token from the cache, ${CONNECTIONS} conn`, value: cached.requestsPerSecond, unit: "req/s" },
            { suite: "token", metric: "GET /token from the cache, p99", value: cached.p99Ms, unit: "ms" },
            {
              suite: "token",
              metric: `inventory page of 100 ?metadata=true (cached), ${CONNECTIONS} conn`,
              value: withMetadata.requestsPerSecond,
              unit: "req/s",
              reference: { label: "same page without metadata", value: plain.requestsPerSecond },
              ratio: withMetadata.requestsPerSecond / plain.requestsPerSecond,
            },
            {
              suite: "token",
              metric: "inventory page of 100 ?metadata=true, p99",
              value: withMetadata.p99Ms,
              unit: "ms",
              reference: { label: "without", value: plain.p99Ms },
            },
            ...cpuRows,
          ];
        } finally {
          await cpu.close();
          await app.stop();
        }
      });
    } finally {
      await closeHost();
    }
  },
};

export default token;
