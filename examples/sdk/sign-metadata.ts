// Signs metadata for a token as its issuer, posts it, reads it back and checks the signature: what a game server
// does to publish a token's state. The key signs; any signer works (here ethers; viem's signMessage the same way).
//   ISSUER_KEY=0x… npm run sdk-example -- sign-metadata <contract> <id>
// beside `npm start`; without ISSUER_KEY a new key signs. SERVICE_URL and NETWORK point it elsewhere.
// In your project: import { createDataClient, signMetadata, verifySignedMetadata } from "wallet-login-nft-sdk";
import { Wallet, verifyMessage } from "ethers";
import { createDataClient, signMetadata, verifySignedMetadata } from "../../sdk/src/index.ts";

async function main([contract, id]: string[]) {
  const network = process.env.NETWORK ?? "localhost";
  const client = createDataClient({ baseUrl: process.env.SERVICE_URL ?? "http://localhost:3000", network });
  const issuer = process.env.ISSUER_KEY ? new Wallet(process.env.ISSUER_KEY) : Wallet.createRandom();

  const target = { network, contract, id };
  const body = await signMetadata({
    signer: (message) => issuer.signMessage(message),
    issuer: issuer.address,
    target,
    metadata: { name: "Sword", level: 3 },
  });
  await client.postSignedMetadata({ contract, id }, body);
  console.log(`posted by ${body.iss}`);

  const records = await client.signedMetadata({ contract, id }, { records: true, issuers: [issuer.address] });
  const record = records[issuer.address];
  console.log(`read back: ${JSON.stringify(record.data)}`);

  // A reader trusts a statement only once its signature is checked, for this very token.
  const verified = await verifySignedMetadata({
    record,
    target,
    verifyMessage: ({ address, message, signature }) => verifyMessage(message, signature) === address,
  });
  console.log(`verified: ${verified}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
