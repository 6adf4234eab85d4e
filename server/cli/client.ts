import type { ParseArgsConfig } from "node:util";
import { deleteClientPayloads } from "../auth/adapter";
import { addClient, clientInfo, listClients, removeClient, updateClient, type LoginClient, type ProfileChange } from "../auth/clients";
import { commandLine, withDatabase, type CommandLine } from "./run";

const USAGE = `Registers the relying parties of the login service, in the service's database (DATABASE_URL, or the
embedded PGlite database under DATA_DIR, default .data/).

  npm run client -- add --name "My dApp" --redirect-uri https://app.example/callback [--redirect-uri ...] [--public]
                        [profile options] [--json]
  npm run client -- update <client_id> [--name "My dApp"] [profile options] [--json]
  npm run client -- list [--json]
  npm run client -- remove <client_id>

Profile options (what GET /api/client shows; in update, an empty value clears one):
  --title T, --title-ja T               title in English / Japanese (default: the name)
  --description D, --description-ja D   description in English / Japanese
  --logo-url URL                        http(s) URL of the logo
  --home-url URL                        http(s) URL of the dApp; also an audience of its ID tokens

A confidential client gets a secret, printed once: only its hash is stored, so a lost secret means removing the
client and adding it again. --public makes a client without a secret (single-page and native apps), which must use
PKCE (S256). Redirect URIs are compared byte for byte: register each exactly as the client will send it.`;

const cli: CommandLine = commandLine("client", USAGE);

const ARGS = {
  allowPositionals: true,
  options: {
    name: { type: "string" },
    "redirect-uri": { type: "string", multiple: true },
    public: { type: "boolean" },
    title: { type: "string" },
    "title-ja": { type: "string" },
    description: { type: "string" },
    "description-ja": { type: "string" },
    "logo-url": { type: "string" },
    "home-url": { type: "string" },
    json: { type: "boolean" },
  },
} satisfies ParseArgsConfig;

cli.run(ARGS, async ({ values, positionals }) => {
  const [command, ...rest] = positionals;
  if (!command) cli.fail("a command is required: add, update, list or remove");
  if (!["add", "update", "list", "remove"].includes(command)) cli.fail(`unknown command "${command}"`);
  const profile: ProfileChange = {
    title: { en: values.title, ja: values["title-ja"] },
    description: { en: values.description, ja: values["description-ja"] },
    logoUrl: values["logo-url"],
    homeUrl: values["home-url"],
  };

  await withDatabase(async (db) => {
    if (command === "add") {
      if (rest.length > 0) cli.fail(`unexpected argument "${rest[0]}"`);
      if (!values.name) cli.fail("--name is required");
      const redirectUris = values["redirect-uri"] ?? [];
      if (redirectUris.length === 0) cli.fail("--redirect-uri is required (repeat it for several)");
      let added;
      try {
        added = await addClient(db, { name: values.name, redirectUris, public: Boolean(values.public), profile });
      } catch (error) {
        cli.fail((error as Error).message);
      }
      const { client, secret } = added;
      if (values.json) {
        console.log(JSON.stringify({ ...describe(client), client_secret: secret ?? null }));
      } else {
        console.log(`Added ${client.public ? "public" : "confidential"} client "${client.name}"`);
        console.log(`  client_id      ${client.id}`);
        if (secret) console.log(`  client_secret  ${secret}\n                 (shown this once: only its hash is stored)`);
        else console.log("  no secret: the client must use PKCE (code_challenge_method=S256)");
        for (const uri of client.redirectUris) console.log(`  redirect_uri   ${uri}`);
        printProfile(client);
      }
    } else if (command === "update") {
      if (rest.length !== 1) cli.fail("update takes one client_id");
      if (values["redirect-uri"] || values.public)
        cli.fail("update changes the name and profile only (remove and add the client to change its redirect URIs or type)");
      let updated;
      try {
        updated = await updateClient(db, rest[0], { name: values.name, profile });
      } catch (error) {
        cli.fail((error as Error).message);
      }
      if (!updated) {
        console.error(`client: no client ${rest[0]}`);
        process.exitCode = 1;
      } else if (values.json) {
        console.log(JSON.stringify(describe(updated)));
      } else {
        console.log(`Updated client "${updated.name}" (${updated.id})`);
        printProfile(updated);
      }
    } else if (command === "list") {
      const clients = await listClients(db);
      if (values.json) {
        console.log(JSON.stringify(clients.map((c) => ({ ...describe(c), created_at: c.createdAt }))));
      } else if (clients.length === 0) {
        console.log("No clients. Add one with: npm run client -- add --name N --redirect-uri U");
      } else {
        for (const c of clients)
          console.log(`${c.id}  ${c.public ? "public      " : "confidential"}  ${c.name}  ${c.redirectUris.join(" ")}`);
      }
    } else {
      if (rest.length !== 1) cli.fail("remove takes one client_id");
      // The client and what was issued to it go together: a code or token of a client that is gone is of no use.
      const removed = await db.transaction(
        async (tx) => (await removeClient(tx, rest[0])) && (await deleteClientPayloads(tx, rest[0]), true),
      );
      if (!removed) {
        console.error(`client: no client ${rest[0]}`);
        process.exitCode = 1;
      } else {
        console.log(`Removed client ${rest[0]} with its pending codes and tokens`);
      }
    }
  });
});

function describe(client: LoginClient) {
  const { title, description } = client.profile;
  return {
    client_id: client.id,
    name: client.name,
    redirect_uris: client.redirectUris,
    public: client.public,
    title,
    description,
    logo_url: client.profile.logoUrl,
    home_url: client.profile.homeUrl,
  };
}

function printProfile(client: LoginClient) {
  const en = clientInfo(client, "en");
  const ja = clientInfo(client, "ja");
  console.log(`  title          ${en.title}${ja.title !== en.title ? ` / ${ja.title}` : ""}`);
  if (en.description || ja.description)
    console.log(`  description    ${en.description}${ja.description !== en.description ? ` / ${ja.description}` : ""}`);
  if (en.logo_url) console.log(`  logo_url       ${en.logo_url}`);
  if (en.home_url) console.log(`  home_url       ${en.home_url}`);
}
