import type { ParseArgsConfig } from "node:util";
import { deleteClientPayloads } from "../auth/oidc";
import {
  addClient,
  checkClientInput,
  clientInfo,
  listClients,
  removeClient,
  updateClient,
  type LoginClient,
  type ProfileChange,
} from "../auth/clients";
import type { SubjectFormat } from "../auth/subjects";
import { holdingsConfigJson, parseHoldingsConfig, type HoldingsConfig } from "../auth/holdings";
import { loadConfig } from "../config";
import { commandLine, runAsProcess, withDatabase, type CliIo, type CommandLine } from "./run";

const USAGE = `Registers the relying parties of the login service, in the service's database (DATABASE_URL, or the
embedded PGlite database under DATA_DIR, default .data/). PGlite is open in one process at a time: stop the service
before running this on it, and start it again after.

  npm run client -- add --name "My dApp" --redirect-uri https://app.example/callback [--redirect-uri ...] [--public]
                        [--subject-format address|caip10] [--post-logout-redirect-uri URI ...] [--holdings JSON]
                        [profile options] [--json]
  npm run client -- update <client_id> [--name "My dApp"] [--subject-format address|caip10] [--post-logout-redirect-uri URI ...]
                        [--holdings JSON] [profile options] [--json]
  npm run client -- list [--json]
  npm run client -- remove <client_id>

Profile options (what GET /api/client shows; in update, an empty value clears one):
  --title T, --title-ja T               title in English / Japanese (default: the name)
  --description D, --description-ja D   description in English / Japanese
  --logo-url URL                        http(s) URL of the logo
  --home-url URL                        http(s) URL of the dApp; also an audience of its ID tokens

A confidential client gets a secret, printed once: only its hash is stored, so a lost secret means removing the
client and adding it again. --public makes a client without a secret (single-page and native apps), which must use
PKCE (S256). Redirect URIs are compared byte for byte: register each exactly as the client will send it.

--subject-format: the form of sub in the client's ID tokens and userinfo: address (default: the lower-case address, as
the predecessor issued it) or caip10 (eip155:<chainId>:<checksummed address>). A change applies to logins from then on.

--post-logout-redirect-uri: where RP-initiated logout may send the browser back to (repeat it for several); in update
the URIs given replace the registered ones, and one empty value clears them.

--holdings: the collections whose holdings the client's logins report in the holdings claim, and the gate a login
must meet, as JSON (docs/reference/login.md, holdings and gates), e.g.
  '{"collections":[{"network":"mainnet","contract":"0x…"}],"gate":{"any":[{"network":"mainnet","contract":"0x…","min_count":2}]}}'
Each network must be one this service indexes (an RPC_URL_<NETWORK> set). In update an empty value removes them.`;

const cli: CommandLine = commandLine("client", USAGE);

const OPTIONS = {
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
    "subject-format": { type: "string" },
    "post-logout-redirect-uri": { type: "string", multiple: true },
    holdings: { type: "string" },
    json: { type: "boolean" },
  },
} satisfies ParseArgsConfig;

/** Whether `word` names one of the tool's options (`--json`, `--title=x`, `--help`). */
const isOption = (word: string) => {
  const name = /^--([^=]+)/.exec(word)?.[1];
  return name !== undefined && (name === "help" || name in OPTIONS.options);
};

// A client id is base64url and may begin with "-" or "--": the word after update or remove is the id, unless it is
// the "--" that ends the options or one of the options.
const ARGS = (argv: string[]) => {
  const [command, id, ...rest] = argv;
  const dashedId = (command === "update" || command === "remove") && /^-./.test(id ?? "") && id !== "--" && !isOption(id);
  return { ...OPTIONS, args: dashedId ? [command, ...rest, "--", id] : argv } satisfies ParseArgsConfig;
};

/** `npm run client`: registers, updates, lists and removes login clients. */
export const main = cli.main(ARGS, async ({ values, positionals }, io) => {
  const [command, ...rest] = positionals;
  if (!command) cli.fail("a command is required: add, update, list or remove");
  if (!["add", "update", "list", "remove"].includes(command)) cli.fail(`unknown command "${command}"`);
  const profile: ProfileChange = {
    title: { en: values.title, ja: values["title-ja"] },
    description: { en: values.description, ja: values["description-ja"] },
    logoUrl: values["logo-url"],
    homeUrl: values["home-url"],
  };

  // The command line is checked whole before the database is opened: a refusal changes nothing and waits for nothing.
  const redirectUris = values["redirect-uri"] ?? [];
  // Checked by checkClientInput below.
  const subjectFormat = values["subject-format"] as SubjectFormat | undefined;
  const given = values["post-logout-redirect-uri"];
  const postLogoutRedirectUris = given && given.length === 1 && given[0] === "" ? [] : given;
  if (command === "add") {
    if (rest.length > 0) cli.fail(`unexpected argument "${rest[0]}"`);
    if (!values.name) cli.fail("--name is required");
    if (redirectUris.length === 0) cli.fail("--redirect-uri is required (repeat it for several)");
  } else if (command === "update") {
    if (rest.length !== 1) cli.fail("update takes one client_id");
    if (values["redirect-uri"] || values.public)
      cli.fail("update changes the name and profile only (remove and add the client to change its redirect URIs or type)");
  } else if (command === "remove") {
    if (rest.length !== 1) cli.fail("remove takes one client_id");
  }
  let holdings: HoldingsConfig | null | undefined;
  try {
    checkClientInput({ name: values.name, profile, subjectFormat, postLogoutRedirectUris, ...(command === "add" ? { redirectUris } : {}) });
    holdings = values.holdings === undefined ? undefined : readHoldings(values.holdings, io.env);
  } catch (error) {
    cli.fail((error as Error).message);
  }

  return withDatabase(io.env, async (db): Promise<number> => {
    if (command === "add") {
      let added;
      try {
        added = await addClient(db, {
          name: values.name!,
          redirectUris,
          public: Boolean(values.public),
          profile,
          subjectFormat,
          postLogoutRedirectUris,
          holdings,
        });
      } catch (error) {
        cli.fail((error as Error).message);
      }
      const { client, secret } = added;
      if (values.json) {
        io.out(JSON.stringify({ ...describe(client), client_secret: secret ?? null }));
      } else {
        io.out(`Added ${client.public ? "public" : "confidential"} client "${client.name}"`);
        io.out(`  client_id      ${client.id}`);
        if (secret) io.out(`  client_secret  ${secret}\n                 (shown this once: only its hash is stored)`);
        else io.out("  no secret: the client must use PKCE (code_challenge_method=S256)");
        for (const uri of client.redirectUris) io.out(`  redirect_uri   ${uri}`);
        printProfile(io, client);
      }
    } else if (command === "update") {
      let updated;
      try {
        updated = await updateClient(db, rest[0], { name: values.name, profile, subjectFormat, postLogoutRedirectUris, holdings });
      } catch (error) {
        cli.fail((error as Error).message);
      }
      if (!updated) {
        io.err(`client: no client ${rest[0]}`);
        return 1;
      } else if (values.json) {
        io.out(JSON.stringify(describe(updated)));
      } else {
        io.out(`Updated client "${updated.name}" (${updated.id})`);
        printProfile(io, updated);
      }
    } else if (command === "list") {
      const clients = await listClients(db);
      if (values.json) {
        io.out(JSON.stringify(clients.map((c) => ({ ...describe(c), created_at: c.createdAt }))));
      } else if (clients.length === 0) {
        io.out("No clients. Add one with: npm run client -- add --name N --redirect-uri U");
      } else {
        for (const c of clients) io.out(`${c.id}  ${c.public ? "public      " : "confidential"}  ${c.name}  ${c.redirectUris.join(" ")}`);
      }
    } else {
      // The client and what was issued to it go together: a code or token of a client that is gone is of no use.
      const removed = await db.transaction(
        async (tx) => (await removeClient(tx, rest[0])) && (await deleteClientPayloads(tx, rest[0]), true),
      );
      if (!removed) {
        io.err(`client: no client ${rest[0]}`);
        return 1;
      } else {
        io.out(`Removed client ${rest[0]} with its pending codes and tokens`);
      }
    }
    return 0;
  });
});

if (require.main === module) runAsProcess(main);

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
    subject_format: client.subjectFormat,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    holdings: client.holdings ? holdingsConfigJson(client.holdings) : null,
  };
}

/** --holdings: JSON, checked against the networks this configuration indexes; "" removes them. */
function readHoldings(text: string, env: NodeJS.ProcessEnv): HoldingsConfig | null {
  if (text === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("--holdings must be JSON (docs/reference/login.md, holdings and gates)");
  }
  const config = loadConfig(env);
  // npm start's own chain is indexed without an RPC URL in the environment.
  const indexed = [...Object.keys(config.rpcUrls), ...(config.localChain && !config.rpcUrls.localhost ? ["localhost"] : [])];
  return parseHoldingsConfig(value, indexed);
}

function printProfile(io: CliIo, client: LoginClient) {
  const en = clientInfo(client, "en");
  const ja = clientInfo(client, "ja");
  io.out(`  title          ${en.title}${ja.title !== en.title ? ` / ${ja.title}` : ""}`);
  if (en.description || ja.description)
    io.out(`  description    ${en.description}${ja.description !== en.description ? ` / ${ja.description}` : ""}`);
  if (en.logo_url) io.out(`  logo_url       ${en.logo_url}`);
  if (en.home_url) io.out(`  home_url       ${en.home_url}`);
  io.out(`  subject_format ${client.subjectFormat}`);
  for (const uri of client.postLogoutRedirectUris) io.out(`  post_logout    ${uri}`);
  if (client.holdings) io.out(`  holdings       ${JSON.stringify(holdingsConfigJson(client.holdings))}`);
}
