import type { ParseArgsConfig } from "node:util";
import { insertSigningKey, listSigningKeys, setKeyState } from "../auth/keys";
import { commandLine, runAsProcess, withDatabase, type CommandLine } from "./run";

const USAGE = `Manages the ID-token signing keys kept in the service's database (DATABASE_URL, or PGlite under DATA_DIR).
Instances read the keys when they start: restart (roll) them after each step. OIDC_JWKS, when set, replaces all this.
PGlite is open in one process at a time: on it, stop the service before each step and start it again after.

  npm run login-keys -- list
  npm run login-keys -- add --staged     a new key, published (JWKS, /api/metadata/x509) but not signing yet
  npm run login-keys -- add              a new key that signs from the next start
  npm run login-keys -- activate <kid>   a staged key starts signing (the newest active key signs)
  npm run login-keys -- retire <kid>     no longer published nor used (refused for the only active key)

Rotation without breaking relying parties: add --staged, restart, wait until relying parties have refreshed their
cached keys (a day is generous), activate, restart, wait until the ID tokens of the old key have expired (1 hour),
retire the old key, restart.`;

const cli: CommandLine = commandLine("login-keys", USAGE);

// A kid is a JWK thumbprint (base64url) and may begin with "-": only the known flags are read as options.
const ARGS = (argv: string[]) => {
  const flags: string[] = argv.filter((arg) => arg === "--staged" || arg === "--help");
  return {
    args: [...flags, "--", ...argv.filter((arg) => !flags.includes(arg))],
    allowPositionals: true,
    options: { staged: { type: "boolean" } },
  } satisfies ParseArgsConfig;
};

/** `npm run login-keys`: lists, adds, activates and retires the ID-token signing keys. */
export const main = cli.main(ARGS, async ({ values, positionals }, io) => {
  const [command, ...rest] = positionals;
  if (!command) cli.fail("a command is required: list, add, activate or retire");
  if (!["list", "add", "activate", "retire"].includes(command)) cli.fail(`unknown command "${command}"`);
  if ((command === "activate" || command === "retire") !== (rest.length === 1) || rest.length > 1)
    cli.fail(`${command} takes ${command === "activate" || command === "retire" ? "one kid" : "no argument"}`);

  return withDatabase(io.env, async (db): Promise<number> => {
    if (command === "list") {
      const keys = await listSigningKeys(db);
      if (keys.length === 0) io.out("No keys yet: the service makes one at its first start.");
      for (const key of keys) io.out(`${key.kid}  ${key.state.padEnd(7)}  since ${key.changedAt.toISOString()}`);
    } else if (command === "add") {
      const jwk = await insertSigningKey(db, values.staged ? "staged" : "active");
      io.out(`${jwk.kid}  ${values.staged ? "staged (published, not signing)" : "active (signs from the next start)"}`);
    } else {
      try {
        if (!(await setKeyState(db, rest[0], command === "activate" ? "active" : "retired"))) {
          io.err(`login-keys: no signing key ${rest[0]}`);
          return 1;
        }
      } catch (error) {
        io.err(`login-keys: ${(error as Error).message}`);
        return 1;
      }
      io.out(`${rest[0]}  ${command === "activate" ? "active" : "retired"} (restart the instances)`);
    }
    return 0;
  });
});

if (require.main === module) runAsProcess(main);
