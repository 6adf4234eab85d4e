import { parseArgs } from "node:util";
import { addClient, listClients, removeClient } from "../server/auth/clients";
import { loadConfigOrExit } from "../server/config";
import { openDatabase } from "../server/db/database";
import { migrate } from "../server/db/migrate";

const USAGE = `Registers the relying parties of the login service, in the service's database (DATABASE_URL, or the
embedded PGlite database under DATA_DIR, default .data/).

  npm run client -- add --name "My dApp" --redirect-uri https://app.example/callback [--redirect-uri ...] [--public] [--json]
  npm run client -- list [--json]
  npm run client -- remove <client_id>

A confidential client gets a secret, printed once: only its hash is stored, so a lost secret means removing the
client and adding it again. --public makes a client without a secret (single-page and native apps), which must use
PKCE (S256). Redirect URIs are compared byte for byte: register each exactly as the client will send it.`;

function fail(message: string): never {
  console.error(`client: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        name: { type: "string" },
        "redirect-uri": { type: "string", multiple: true },
        public: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return console.log(USAGE);
  const [command, ...rest] = positionals;
  if (!command) fail("a command is required: add, list or remove");
  if (!["add", "list", "remove"].includes(command)) fail(`unknown command "${command}"`);

  const config = loadConfigOrExit();
  const db = await openDatabase(config.database);
  try {
    await migrate(db);
    if (command === "add") {
      if (rest.length > 0) fail(`unexpected argument "${rest[0]}"`);
      if (!values.name) fail("--name is required");
      const redirectUris = values["redirect-uri"] ?? [];
      if (redirectUris.length === 0) fail("--redirect-uri is required (repeat it for several)");
      let added;
      try {
        added = await addClient(db, { name: values.name, redirectUris, public: Boolean(values.public) });
      } catch (error) {
        fail((error as Error).message);
      }
      const { client, secret } = added;
      if (values.json) {
        console.log(JSON.stringify({ client_id: client.id, client_secret: secret ?? null, name: client.name, redirect_uris: client.redirectUris, public: client.public }));
      } else {
        console.log(`Added ${client.public ? "public" : "confidential"} client "${client.name}"`);
        console.log(`  client_id      ${client.id}`);
        if (secret) console.log(`  client_secret  ${secret}\n                 (shown this once: only its hash is stored)`);
        else console.log("  no secret: the client must use PKCE (code_challenge_method=S256)");
        for (const uri of client.redirectUris) console.log(`  redirect_uri   ${uri}`);
      }
    } else if (command === "list") {
      const clients = await listClients(db);
      if (values.json) {
        console.log(JSON.stringify(clients.map((c) => ({ client_id: c.id, name: c.name, redirect_uris: c.redirectUris, public: c.public, created_at: c.createdAt }))));
      } else if (clients.length === 0) {
        console.log("No clients. Add one with: npm run client -- add --name N --redirect-uri U");
      } else {
        for (const c of clients) console.log(`${c.id}  ${c.public ? "public      " : "confidential"}  ${c.name}  ${c.redirectUris.join(" ")}`);
      }
    } else {
      if (rest.length !== 1) fail("remove takes one client_id");
      if (!(await removeClient(db, rest[0]))) {
        console.error(`client: no client ${rest[0]}`);
        process.exitCode = 1;
      } else {
        console.log(`Removed client ${rest[0]} with its pending codes and tokens`);
      }
    }
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
