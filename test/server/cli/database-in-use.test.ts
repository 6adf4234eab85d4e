import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { START_NODE_ARGS } from "../../../local/start-command";
import { listSigningKeys } from "../../../server/auth/keys";
import { listClients } from "../../../server/auth/clients";
import { openPglite } from "../../../server/db/pglite";
import { runCli, runCliProcess, runNodeProcess, startNodeProcess, type CliTool, type RunningProcess } from "../../helpers/cli";
import { openFreshPglite } from "../../helpers/database";

const LOADER = ["-r", "ts-node/register/transpile-only"];

/**
 * The bug this guards against: with the service running on the embedded database, `npm run client -- add` printed a
 * secret, `client list` showed the client, the service answered `Unknown client_id`, and after Ctrl-C the client
 * was gone. Every other process on that directory is now refused before it writes anything.
 */
describe("the CLIs and entries while the service runs on the embedded database", function () {
  this.timeout(120_000);
  let root: string;
  let dataDir: string;
  let service: RunningProcess;
  let message: string;
  /** The service's environment: no chain needed (a node that need not answer), no indexer, PGlite under `root`. */
  const serviceEnv = () => ({
    LOCAL_CHAIN: "false",
    RPC_URL_MAINNET: "http://127.0.0.1:9",
    INDEXER: "false",
    PORT: "0",
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
    DATA_DIR: root,
    // Also on a run of the suites on PostgreSQL: this is about the embedded database.
    DATABASE_URL: "",
  });
  const cliEnv = () => ({ DATA_DIR: root, DATABASE_URL: "" });

  before(async function () {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "in-use-"));
    dataDir = path.join(root, "pglite");
    // Laid out from the migrated dump, so that the service does not pay for initdb.
    await (await openFreshPglite(dataDir)).close();
    service = await startNodeProcess([...LOADER, "server/main.ts"], serviceEnv(), /Server listening at/);
    const { pid, since } = JSON.parse(fs.readFileSync(`${dataDir}.lock`, "utf8")) as { pid: number; since: string };
    expect(pid).to.equal(service.child.pid);
    message =
      `The embedded database in ${dataDir} is in use by node server/main.ts (pid ${pid}, since ${since}): ` +
      "stop that process first (Ctrl-C in its terminal), or set DATABASE_URL to a PostgreSQL database to run several processes on one database.";
  });
  after(async function () {
    if (service && service.child.exitCode === null) {
      service.child.kill("SIGKILL");
      await service.exited;
    }
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("refuses every command of npm run client and login-keys at once: one line naming the service, exit code 1", async function () {
    const commands: Array<[CliTool, string[]]> = [
      ["client", ["add", "--name", "Test", "--redirect-uri", "http://localhost:8080/cb"]],
      ["client", ["update", "some-client", "--title", "Renamed"]],
      ["client", ["remove", "some-client"]],
      ["client", ["list"]],
      ["login-keys", ["add"]],
      ["login-keys", ["add", "--staged"]],
      ["login-keys", ["activate", "some-kid"]],
      ["login-keys", ["retire", "some-kid"]],
      ["login-keys", ["list"]],
    ];
    for (const [tool, args] of commands) {
      const run = await runCli(tool, args, cliEnv());
      expect({ tool, args, ...run }).to.deep.equal({ tool, args, code: 1, stdout: "", stderr: `${tool}: ${message}\n` });
    }
  });

  it("refuses npm run client, npm run indexer, a second service and a second npm start as processes, each in one line, before they write", async function () {
    const [client, indexer, second, start] = await Promise.all([
      runCliProcess("client", ["add", "--name", "Test", "--redirect-uri", "http://localhost:8080/cb"], cliEnv()),
      runNodeProcess([...LOADER, "server/indexer/main.ts"], serviceEnv()),
      runNodeProcess([...LOADER, "server/main.ts"], serviceEnv()),
      runNodeProcess(START_NODE_ARGS, { DATA_DIR: root, DATABASE_URL: "", PORT: "0", LOCAL_CHAIN_PORT: "0", METRICS_PORT: "0" }),
    ]);
    expect(client).to.deep.equal({ code: 1, stdout: "", stderr: `client: ${message}\n` });
    for (const run of [indexer, second, start]) {
      expect(run.code, run.stderr).to.equal(1);
      // Node 20 has oidc-provider warn that it prefers a newer Node as it loads: that line is not ours.
      expect(run.stderr.split("\n").filter((line) => line && !line.startsWith("oidc-provider WARNING"))).to.deep.equal([message]);
    }
    // npm start refused before it started a chain or wrote its demo's files.
    expect(fs.readdirSync(root).sort()).to.deep.equal(["pglite", "pglite.lock"]);
  });

  it("gives the directory back when the service stops, with nothing of the refused commands in it; the CLI then works", async function () {
    service.child.kill("SIGTERM");
    expect(await service.exited).to.equal(0);
    expect(fs.readdirSync(root)).to.deep.equal(["pglite"]);

    const db = await openPglite(dataDir);
    try {
      expect(await listClients(db)).to.deep.equal([]);
      // The one key the service made at its first start, and no other.
      expect((await listSigningKeys(db)).map((key) => key.state)).to.deep.equal(["active"]);
    } finally {
      await db.close();
    }
    const added = await runCli("client", ["add", "--name", "Test", "--redirect-uri", "http://localhost:8080/cb"], cliEnv());
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.match(/^Added confidential client "Test"/);
  });
});
