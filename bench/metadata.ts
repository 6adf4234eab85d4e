import { Wallet } from "ethers";
import { boundText, encodeMetadata } from "../server/metadata/signed-text";
import { startLocalNode } from "../server/chain/local-node";
import { load, startService, type Suite } from "./lib";

const CONNECTIONS = 32;
const POSTS = 6_000;

/** Metadata posts and reads per second at 32 connections; every post is a new statement, signed in advance. */
const metadata: Suite = {
  name: "metadata",
  async run({ seconds, log }) {
    const node = await startLocalNode();
    const app = await startService({ RPC_URL_LOCALHOST: node.url });
    try {
      const issuer = Wallet.createRandom();
      const contract = Wallet.createRandom().address.toLowerCase();
      log(`signing ${POSTS} statements`);
      const bodies: string[] = [];
      for (let id = 0; id < POSTS; id++) {
        const data = encodeMetadata({ name: `Item #${id}`, description: "A statement for the benchmark", attributes: [{ trait_type: "power", value: id % 100 }] });
        const target = { kind: "nft" as const, network: "localhost", contract, tokenId: BigInt(id) };
        bodies.push(JSON.stringify({ iss: issuer.address, sig: await issuer.signMessage(boundText(target, data)), metadata: data }));
      }
      log(`POST ${POSTS} statements, ${CONNECTIONS} connections`);
      let posted = 0;
      const posts = await load({
        url: app.url,
        connections: CONNECTIONS,
        amount: POSTS,
        next: () => {
          const id = posted++;
          return { method: "POST", path: `/metadata/localhost/${contract}/${id}`, body: bodies[id], headers: { "content-type": "application/json" } };
        },
      });
      if (posts.errors + posts.non2xx > 0) throw new Error(`metadata posts: ${posts.errors} errors, ${posts.non2xx} non-2xx`);
      log(`GET statements, ${CONNECTIONS} connections, ${seconds} s`);
      let read = 0;
      const reads = await load({
        url: app.url,
        connections: CONNECTIONS,
        seconds,
        next: () => ({ path: `/metadata/localhost/${contract}/${read++ % POSTS}` }),
      });
      if (reads.errors + reads.non2xx > 0) throw new Error(`metadata reads: ${reads.errors} errors, ${reads.non2xx} non-2xx`);
      return [
        { suite: "metadata", metric: `POST (new statement, EOA issuer), ${CONNECTIONS} conn`, value: posts.requestsPerSecond, unit: "req/s" },
        { suite: "metadata", metric: "POST p99", value: posts.p99Ms, unit: "ms" },
        { suite: "metadata", metric: `GET {issuer: metadata}, ${CONNECTIONS} conn`, value: reads.requestsPerSecond, unit: "req/s" },
        { suite: "metadata", metric: "GET p99", value: reads.p99Ms, unit: "ms" },
      ];
    } finally {
      await app.stop();
      await node.stop();
    }
  },
};

export default metadata;
