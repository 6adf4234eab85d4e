import type { ParseArgsConfig } from "node:util";
import { loadConfig } from "../config";
import { DomainError } from "../lib/domain-error";
import { findSubscription, listSubscriptions, removeSubscription, setEnabled, type Subscription } from "../webhooks/subscriptions";
import { describe } from "../webhooks/wire";
import { subscribe } from "../webhooks/subscribe";
import { commandLine, runAsProcess, withDatabase, type CliIo, type CommandLine } from "./run";

const USAGE = `Manages the webhook subscriptions of the data service, in the service's database (DATABASE_URL, or the
embedded PGlite database under DATA_DIR, default .data/). PGlite is open in one process at a time: stop the service
before running this on it, and start it again after.

  npm run webhooks -- add --network N --url https://receiver.example/hook [--kind K ...] [--contract 0x... ...]
                          [--owner 0x... ...] [--confirmations N] [--spam exclude] [--description D]
                          [--client CLIENT_ID] [--json]
  npm run webhooks -- list [--client CLIENT_ID] [--json]
  npm run webhooks -- show <id> [--json]
  npm run webhooks -- disable <id> [--reason R]
  npm run webhooks -- enable <id>
  npm run webhooks -- remove <id>

--kind: transfer, removed, metadata or reset (repeat it for several; default all four). --contract and --owner filter
as the live event stream's contract and owner do (repeat them for several: any of them matches). --client makes the
subscription an OAuth client's, which then manages it through the HTTP API. --confirmations: blocks indexed on top of
a change's block before it is delivered (0 to 512; default the network's in WEBHOOKS_CONFIRMATIONS, else 0: at once).
--spam exclude leaves out the changes of collections flagged as spam (default include).

The signing secret (whsec_...) is printed once: the database keeps it encrypted with WEBHOOKS_SECRET_KEYS.
A subscription delivers what the indexer logs from its creation on. enable resumes a disabled subscription where it
stopped (docs/reference/webhooks.md).`;

const cli: CommandLine = commandLine("webhooks", USAGE);

const OPTIONS = {
  allowPositionals: true,
  options: {
    network: { type: "string" },
    url: { type: "string" },
    kind: { type: "string", multiple: true },
    contract: { type: "string", multiple: true },
    owner: { type: "string", multiple: true },
    description: { type: "string" },
    confirmations: { type: "string" },
    spam: { type: "string" },
    client: { type: "string" },
    reason: { type: "string" },
    json: { type: "boolean" },
  },
} satisfies ParseArgsConfig;

const COMMANDS = ["add", "list", "show", "disable", "enable", "remove"];

/** `npm run webhooks`: adds, lists, shows, disables, enables and removes webhook subscriptions. */
export const main = cli.main(OPTIONS, async ({ values, positionals }, io) => {
  const [command, ...rest] = positionals;
  if (!command) cli.fail(`a command is required: ${COMMANDS.join(", ")}`);
  if (!COMMANDS.includes(command)) cli.fail(`unknown command "${command}"`);
  if (command === "add" || command === "list") {
    if (rest.length > 0) cli.fail(`unexpected argument "${rest[0]}"`);
  } else if (rest.length !== 1) cli.fail(`${command} takes one subscription id`);
  if (command === "add" && !values.network) cli.fail("--network is required");
  if (command === "add" && !values.url) cli.fail("--url is required");
  const config = loadConfig(io.env);
  const now = Date.now();
  return withDatabase(io.env, async (db): Promise<number> => {
    try {
      if (command === "add") {
        const served = [...new Set([...Object.keys(config.rpcUrls), ...(config.localChain ? ["localhost"] : [])])];
        const { subscription, secret } = await subscribe(db, {
          input: {
            network: values.network!,
            url: values.url!,
            kinds: values.kind,
            contracts: values.contract,
            owners: values.owner,
            description: values.description,
            confirmations: values.confirmations === undefined ? undefined : confirmationsOf(values.confirmations),
            spam: values.spam,
          },
          clientId: values.client ?? null,
          config: config.webhooks,
          served,
          now,
        });
        if (values.json) io.out(JSON.stringify({ ...describe(subscription), secret }));
        else {
          io.out(`Added subscription ${subscription.id}`);
          io.out(`  secret   ${secret}\n           (shown this once: the database keeps it encrypted)`);
          print(io, subscription);
        }
      } else if (command === "list") {
        const subscriptions = await listSubscriptions(db, values.client ?? null);
        if (values.json) io.out(JSON.stringify(subscriptions.map(describe)));
        else if (subscriptions.length === 0) io.out("No subscriptions. Add one with: npm run webhooks -- add --network N --url U");
        else
          for (const s of subscriptions)
            io.out(`${s.id}  ${s.enabled ? "enabled " : "disabled"}  ${s.network}  ${s.url}${s.clientId ? `  client ${s.clientId}` : ""}`);
      } else if (command === "show") {
        const subscription = await findSubscription(db, rest[0], null);
        if (values.json) io.out(JSON.stringify(describe(subscription)));
        else print(io, subscription);
      } else if (command === "remove") {
        await removeSubscription(db, rest[0], null);
        io.out(`Removed subscription ${rest[0]}`);
      } else {
        const enabled = command === "enable";
        const changed = await setEnabled(db, {
          id: rest[0],
          clientId: null,
          enabled,
          reason: values.reason ?? "disabled by the operator",
          now,
        });
        io.out(`${enabled ? "Enabled" : "Disabled"} subscription ${changed.id}`);
        print(io, changed);
      }
    } catch (error) {
      if (error instanceof DomainError && error.kind !== "unavailable" && error.code !== "subscription_not_found") cli.fail(error.message);
      if (error instanceof DomainError) {
        io.err(`webhooks: ${error.message}`);
        return 1;
      }
      throw error;
    }
    return 0;
  });
});

if (require.main === module) runAsProcess(main);

/** `--confirmations` as a number: digits only (checked against its bound with the rest of the subscription). */
function confirmationsOf(value: string): number {
  if (!/^\d{1,6}$/.test(value)) cli.fail(`--confirmations takes a whole number of blocks, not "${value.slice(0, 40)}"`);
  return Number(value);
}

function print(io: CliIo, s: Subscription) {
  io.out(`  id       ${s.id}`);
  io.out(`  state    ${s.enabled ? "enabled" : `disabled: ${s.disabledReason}`}`);
  io.out(`  network  ${s.network}`);
  io.out(`  url      ${s.url}`);
  io.out(`  kinds    ${s.kinds.join(", ")}`);
  if (s.contracts.length > 0) io.out(`  contracts ${s.contracts.join(" ")}`);
  if (s.owners.length > 0) io.out(`  owners   ${s.owners.join(" ")}`);
  if (s.confirmations > 0) io.out(`  confirmations ${s.confirmations} (delivered once that many blocks are indexed on top)`);
  if (s.spam === "exclude") io.out("  spam     excluded (collections flagged as spam are left out)");
  if (s.clientId) io.out(`  client   ${s.clientId}`);
  io.out(`  cursor   ${s.cursor} (every matching change up to it delivered)`);
  if (s.lastError) io.out(`  failing  ${s.attempts} attempts since ${s.failingSince?.toISOString()}: ${s.lastError}`);
}
