// Follows an owner's transfers as the service indexes them, with what a reorg undid, until Ctrl-C (or `count` events).
//   npm run sdk-example -- live <owner> [lastEventId] [count]
// `lastEventId` resumes after an event id printed before (0: from the oldest change the service keeps).
// In your project: import { createDataClient } from "wallet-login-nft-sdk";
import { createDataClient } from "../../sdk/src/index.ts";

async function main([owner, lastEventId, count]: string[]) {
  const client = createDataClient({
    baseUrl: process.env.SERVICE_URL ?? "http://localhost:3000",
    network: process.env.NETWORK ?? "localhost",
  });
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());

  let seen = 0;
  for await (const event of client.events({ owner, lastEventId, signal: stop.signal })) {
    if (event.type === "transfer") console.log(`${event.id} transfer ${event.transfer.id} ${event.transfer.from} -> ${event.transfer.to}`);
    else if (event.type === "removed") console.log(`${event.id} removed ${event.transfer.tx} (a reorg undid it)`);
    else if (event.type === "reset") console.log(`${event.id} reset ${event.network}: reload everything shown`);
    else console.log(`${event.id} metadata ${event.change.contract}`);
    if (++seen === Number(count)) stop.abort();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
