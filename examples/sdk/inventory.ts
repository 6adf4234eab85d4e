// Reads what a wallet shows of an owner: the newest indexed block, the owner's tokens of a contract page after page,
// the contract's holders one page at a time, and a refusal as the ApiError it is.
//   npm run sdk-example -- inventory <owner> <contract>
// beside `npm start`, whose banner names the demo user and contracts; SERVICE_URL and NETWORK point it elsewhere.
// In your project: import { ApiError, createDataClient } from "wallet-login-nft-sdk";
import { ApiError, createDataClient } from "../../sdk/src/index.ts";

async function main([owner, contract]: string[]) {
  const client = createDataClient({
    baseUrl: process.env.SERVICE_URL ?? "http://localhost:3000",
    network: process.env.NETWORK ?? "localhost",
  });
  console.log(`latest block ${await client.latestBlock()}`);

  // Every token, following the Link cursors: 2 a page here, to show the paging.
  for await (const nft of client.inventory(owner, contract, { limit: 2 })) console.log(`holds ${nft.id}`);

  // One page, with the block the index was complete to when it answered.
  const page = await client.holders(contract, { limit: 100 }).page();
  console.log(`first page of holders: ${page.items.length}, indexed to block ${page.indexedBlock}`);

  try {
    await client.ownerOf(contract, "115792089237316195423570985008687907853269984665640564039457584007913129639935");
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    console.log(`refused: ${error.status} ${error.code}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
