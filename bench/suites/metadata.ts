import { Wallet } from "ethers";
import { startLocalNode } from "../../local/node";
import { boundText, encodeMetadata } from "../../server/signed-metadata/signed-text";
import { BEFORE_ENV, withBeforeTree } from "../lib/before";
import { CONNECTIONS, load, type LoadResult } from "../lib/load";
import { startService, startTogether, type Service } from "../lib/service";
import { personalSign } from "../lib/sign";
import type { Suite } from "../lib/suite";

/** Posts per slice (in the smoke, 100); each variant gets two slices (before, now, now, before) of different statements. */
const FULL_SLICE = 2_000;
const SMOKE_SLICE = 100;

const metadata: Suite = {
  method: [
    "Signed-metadata posts and reads per second at 32 connections; every post is a new statement by an EOA issuer, signed in advance.",
    "Posts are measured on the code as it was (\"before\": ethers' secp256k1 and the node asked for the issuer's code first, checked out from the before ref) and as it is, side by side in the same run; reads on the current code.",
  ],
  run: ({ seconds, log, beforeRef, smoke }) =>
    withBeforeTree(beforeRef, { log, smoke }, async (beforeTree) => {
      const SLICE = smoke ? SMOKE_SLICE : FULL_SLICE;
      const node = await startLocalNode();
      const services: { name: "before" | "now"; app: Service }[] = [];
      try {
        await startTogether(
          [
            () => startService({ RPC_URL_LOCALHOST: node.url, ...BEFORE_ENV }, undefined, { tree: beforeTree }),
            () => startService({ RPC_URL_LOCALHOST: node.url }),
          ],
          (app, i) => services.push({ name: i === 0 ? "before" : "now", app }),
        );
        const issuer = Wallet.createRandom();
        const contract = Wallet.createRandom().address.toLowerCase();
        log(`signing ${2 * SLICE} statements`);
        const bodies: string[] = [];
        for (let id = 0; id < 2 * SLICE; id++) {
          const data = encodeMetadata({
            name: `Item #${id}`,
            description: "A statement for the benchmark",
            attributes: [{ trait_type: "power", value: id % 100 }],
          });
          const target = { kind: "nft" as const, network: "localhost", contract, tokenId: BigInt(id) };
          bodies.push(
            JSON.stringify({ iss: issuer.address, sig: personalSign(issuer.privateKey, boundText(target, data)), metadata: data }),
          );
        }
        const post = async ({ name, app }: { name: string; app: Service }, first: number): Promise<LoadResult> => {
          let posted = first;
          const result = await load({
            what: `metadata posts to ${name}, statements ${first} to ${first + SLICE - 1}`,
            url: app.url,
            connections: CONNECTIONS,
            amount: SLICE,
            next: () => {
              const id = posted++;
              return {
                method: "POST",
                path: `/metadata/localhost/${contract}/${id}`,
                body: bodies[id],
                headers: { "content-type": "application/json" },
              };
            },
          });
          return result;
        };
        log(`POST ${2 * SLICE} statements to each, ${CONNECTIONS} connections (before/now/now/before)`);
        const [before, now] = services;
        const slices = { before: [await post(before, 0)], now: [await post(now, 0), await post(now, SLICE)] };
        slices.before.push(await post(before, SLICE));
        // Equal amounts per slice: the rate over both is the harmonic mean; p99 the worse of the two.
        const rate = (r: LoadResult[]) => r.length / r.reduce((sum, x) => sum + 1 / x.requestsPerSecond, 0);
        const p99 = (r: LoadResult[]) => Math.max(...r.map((x) => x.p99Ms));

        log(`GET statements, ${CONNECTIONS} connections, ${seconds} s`);
        let read = 0;
        const reads = await load({
          what: "metadata reads",
          url: now.app.url,
          connections: CONNECTIONS,
          seconds,
          next: () => ({ path: `/metadata/localhost/${contract}/${read++ % (2 * SLICE)}` }),
        });
        const ratio = rate(slices.now) / rate(slices.before);
        return [
          {
            suite: "metadata",
            metric: `POST (new statement, EOA issuer), ${CONNECTIONS} conn`,
            value: rate(slices.now),
            unit: "req/s",
            reference: { label: "before", value: rate(slices.before) },
            ratio,
            budget: { text: "≥ 1.5", met: ratio >= 1.5 },
          },
          {
            suite: "metadata",
            metric: "POST p99",
            value: p99(slices.now),
            unit: "ms",
            reference: { label: "before", value: p99(slices.before) },
          },
          { suite: "metadata", metric: `GET {issuer: metadata}, ${CONNECTIONS} conn`, value: reads.requestsPerSecond, unit: "req/s" },
          { suite: "metadata", metric: "GET p99", value: reads.p99Ms, unit: "ms" },
        ];
      } finally {
        for (const { app } of services) await app.stop();
        await node.stop();
      }
    }),
};

export default metadata;
