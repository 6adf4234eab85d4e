import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { JsonRpcProvider } from "ethers";
import { START_NODE_ARGS } from "../../local/start-command";
import { IERC721__factory } from "../../typechain-types";
import { pollUntil } from "../helpers/waiters";
import { runCliProcess } from "../helpers/cli";

const ROOT = path.resolve(__dirname, "..", "..");
const run = promisify(execFile);

interface Started {
  child: ChildProcess;
  output: () => string;
  banner: string;
}

/** Every service started, so that one a failed test left running is stopped (with its chain) all the same. */
const children: ChildProcess[] = [];

/** Starts the service the way `npm start` does, on free ports, and waits for its banner. */
async function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, START_NODE_ARGS, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME!,
      PORT: "0",
      LOCAL_CHAIN_PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 90 s:\n${output}`)), 90_000);
    const check = () => {
      if (output.includes("Ctrl-C stops everything.")) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before the banner:\n${output}`));
    });
  });
  return { child, output: () => output, banner };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("npm start (local/start.ts)", function () {
  this.timeout(180_000);
  let dataDir: string;

  before(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "start-"))));
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
    await Promise.all(children.map(exited));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("stops with one line naming the variable as the operator set it, old names and LOCAL_CHAIN_PORT included", async function () {
    for (const [env, line] of [
      [{ METADATA_TTL_SECONDS: "soon" }, 'METADATA_TTL_SECONDS: expected an integer from 1 to 31536000, got "soon"'],
      [{ LOCAL_CHAIN_PORT: "eighty" }, 'LOCAL_CHAIN_PORT: expected an integer from 0 to 65535, got "eighty"'],
    ]) {
      const child = spawn(process.execPath, START_NODE_ARGS, { cwd: ROOT, env: { PATH: process.env.PATH!, ...(env as object) } });
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      expect(await exited(child)).to.equal(1);
      expect(stderr.trim()).to.equal(`Configuration error: ${line}`);
    }
  });

  it("stops with one line naming a bad variable", async function () {
    const child = spawn(process.execPath, START_NODE_ARGS, {
      cwd: ROOT,
      env: { PATH: process.env.PATH!, PORT: "eighty" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    expect(await exited(child)).to.equal(1);
    expect(stderr.trim()).to.equal('Configuration error: PORT: expected an integer from 0 to 65535, got "eighty"');
  });

  it("starts a local chain and the service, prints curl lines that work as printed, and leaves nothing behind on Ctrl-C", async function () {
    // An old name still works and costs one warning line at start. npm tells its script which one it runs, as here.
    const { child, banner, output } = await start({
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      METADATA_WAIT_MS: "1500",
      npm_lifecycle_event: "start",
    });
    expect(
      output()
        .split("\n")
        .filter((line) => line.startsWith("Configuration warning")),
    ).to.deep.equal(["Configuration warning: renamed settings: METADATA_WAIT_MS is now METADATA_FETCH_WAIT_MS"]);
    const chainUrl = /Chain\s+(http:\/\/\S+)/.exec(banner)?.[1];
    expect(chainUrl, banner).to.be.a("string");

    const curls = banner
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("curl "));
    expect(curls.length).to.be.greaterThanOrEqual(2);
    for (const line of curls) {
      if (line.includes("/events/")) {
        // A live stream never ends by itself: read it for a second.
        const stream: { code?: number; stdout: string } = await run("sh", ["-c", `${line} --silent --max-time 1`]).catch(
          (error: { code: number; stdout: string }) => error,
        );
        expect(stream.code, line).to.equal(28);
        expect(stream.stdout, line).to.contain(": connected");
        continue;
      }
      // Run exactly as printed, through a shell like a user pasting it.
      const { stdout } = await run("sh", ["-c", `${line} --fail --silent --show-error`]);
      expect(stdout.length, line).to.be.greaterThan(0);
    }

    const service = /Service\s+(http:\/\/\S+)/.exec(banner)![1];
    // The holders' page offers the demo converter.
    const convertUrl = /Convert\s+(http:\/\/\S+)/.exec(banner)?.[1];
    expect(convertUrl, banner).to.equal(`${service}/convert`);
    const converter = JSON.parse(fs.readFileSync(path.join(dataDir, "demo.json"), "utf8")).converter as string;
    const page = await (await fetch(convertUrl!)).text();
    expect(page).to.contain(converter).and.contain("Convert your tokens");
    // The API document's examples are the demo's, and the metadata they read was posted at start.
    const clientId = /client_id\s+(\S+)/.exec(banner)![1];
    const document = (await (await fetch(`${service}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters: Array<{ name: string; example: unknown }> }>>;
    };
    const examples = (route: string) => Object.fromEntries(document.paths[route].get.parameters.map((p) => [p.name, p.example]));
    expect(examples("/converter/{network}/{converter}")).to.deep.equal({ network: "localhost", converter });
    expect(examples("/api/client")).to.deep.include({ client_id: clientId });
    const { network, account, iss } = examples("/metadata/ethereum/{network}/{account}") as Record<string, string>;
    const signed = await fetch(`${service}/metadata/ethereum/${network}/${account}?iss=${iss}`);
    expect(signed.status).to.equal(200);
    expect(await signed.json()).to.deep.include({ name: "Demo user" });
    // The demo token's metadata resolves from its data: tokenURI (METADATA_FETCH_ALLOW_PRIVATE is on for the demo).
    const metadataNft = /MetadataNFT\s+(0x[0-9a-fA-F]{40})/.exec(banner)![1];
    const demoToken = (await (await fetch(`${service}/token/localhost/${metadataNft}/1`)).json()) as {
      metadata: { name: string };
      image: string;
    };
    expect(demoToken.metadata.name).to.equal("Demo #1");
    expect(demoToken.image).to.match(/^data:image\/svg\+xml;base64,/);
    // The demo's spam airdrop is flagged once the classifier has seen it, with the rules that say so.
    const spamAirdrop = /spam airdrop\s+(0x[0-9a-fA-F]{40})/.exec(banner)![1];
    const flagged = async () =>
      ((await (await fetch(`${service}/collection/localhost/${spamAirdrop}`)).json()) as { spam: { reasons: string[] } }).spam;
    await pollUntil("the demo's spam airdrop classified", async () => !(await flagged()).reasons.includes("Unclassified"));
    expect(await flagged()).to.deep.equal({ flag: true, reasons: ["LureText", "MassAirdrop", "NeverMoved"] });

    // The local webhook receiver got every transfer of the demo user's (what the history route lists), each verified.
    const [, verified, receiverUrl] =
      /Webhooks: (\d+) signed deliveries of the demo user's transfers arrived at a local receiver and verified\s+\((http:\/\/127\.0\.0\.1:\d+\/hook),/.exec(
        banner,
      ) ?? [];
    expect(receiverUrl, banner).to.be.a("string");
    const demoUser = JSON.parse(fs.readFileSync(path.join(dataDir, "demo.json"), "utf8")).user as string;
    const userTransfers = (await (await fetch(`${service}/transfers/localhost/owner/${demoUser}?limit=100`)).json()) as unknown[];
    expect(userTransfers.length).to.be.greaterThan(10);
    expect(Number(verified)).to.equal(userTransfers.length);

    // The front page, and one host in every URL of the banner: the issuer's (discovery's, the OpenAPI document's).
    const front = await fetch(`${service}/`);
    expect(front.status).to.equal(200);
    expect(await front.text())
      .to.contain("<h1>Wallet login, NFT data and converter</h1>")
      .and.contain("<code>npm run demo-login</code>");
    const { issuer } = (await (await fetch(`${service}/.well-known/openid-configuration`)).json()) as { issuer: string };
    const { servers } = (await (await fetch(`${service}/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    expect(servers.map((server) => server.url)).to.deep.equal([issuer]);
    // (The JSON log lines before the banner name the interface the service listens on.)
    const hosts = new Set(
      [
        ...banner
          .slice(banner.indexOf("  Service "))
          .replace(receiverUrl, "")
          .matchAll(/https?:\/\/[^\s'"/?]+/g),
      ].map(([url]) => new URL(url).hostname),
    );
    expect([...hosts]).to.deep.equal([new URL(issuer).hostname]);

    // The demo user logs in without a wallet, with the command as the banner prints it (naming DATA_DIR and the URL here).
    const command = banner
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line.includes("npm run demo-login"))!;
    expect(command).to.equal(`DATA_DIR=${dataDir} npm run demo-login -- ${service}`);
    const login = await run("sh", ["-c", command], {
      cwd: ROOT,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME! },
    });
    const idToken = login.stdout.split("\n")[login.stdout.split("\n").indexOf("ID token:") + 1];
    const claims = JSON.parse(Buffer.from(idToken.split(".")[1], "base64url").toString("utf8"));
    const user = JSON.parse(fs.readFileSync(path.join(dataDir, "demo.json"), "utf8")).user as string;
    expect(claims).to.include({ sub: user.toLowerCase(), address: user, iss: issuer });
    expect(login.stdout).to.contain(`"address": "${user}"`);

    // The banner is the last thing printed: the requests above (LOG_LEVEL=info) wrote no line, JSON or other.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const banners = output().split("Ctrl-C stops everything.");
    expect(banners).to.have.length(2);
    expect(banners[1].trim(), banners[1]).to.equal("");
    // Nothing a newcomer cannot act on: no compiler warning above it either.
    expect(output()).to.not.match(/^Warning: /m);

    // While it runs, its embedded database is its alone: a CLI is refused at once, told that npm start holds it.
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, "pglite.lock"), "utf8")) as { pid: number; since: string };
    expect(lock.pid).to.equal(child.pid);
    const cli = await runCliProcess("client", ["add", "--name", "Test", "--redirect-uri", "http://localhost:8080/cb"], {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
    });
    expect(cli).to.deep.equal({
      code: 1,
      stdout: "",
      stderr:
        `client: The embedded database in ${path.join(dataDir, "pglite")} is in use by npm start (pid ${lock.pid}, since ${lock.since}): ` +
        "stop that process first (Ctrl-C in its terminal), or set DATABASE_URL to a PostgreSQL database to run several processes on one database.\n",
    });

    child.kill("SIGINT");
    expect(await exited(child)).to.equal(0);
    // It gave the database back as it stopped.
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).to.equal(false);
    // The chain went with it: nothing listens on its port any more.
    let refused = false;
    await fetch(chainUrl!, { method: "POST", body: "{}" }).catch(() => (refused = true));
    expect(refused).to.equal(true);
    expect(fs.existsSync(path.join(dataDir, "pglite"))).to.equal(true);
    expect(fs.existsSync(path.join(dataDir, "demo.json"))).to.equal(true);
  });

  it("reuses .data on a second start and redeploys the demo cleanly on the new chain", async function () {
    const first = fs.readFileSync(path.join(dataDir, "demo.json"), "utf8");
    const { child, banner, output } = await start({ DATA_DIR: dataDir });
    expect(output()).to.contain("new chain: deploying the demo again");
    const before = JSON.parse(first);
    const after = JSON.parse(fs.readFileSync(path.join(dataDir, "demo.json"), "utf8"));
    // Same deployer, same nonces: the demo keeps its addresses, so what users noted down still works.
    expect(after.converter).to.equal(before.converter);
    expect(after.genesisHash).to.not.equal(before.genesisHash);
    expect(banner).to.contain(after.converter);
    // The demo login client is registered once: the second start prints the same one.
    const demoClient = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-client.json"), "utf8"));
    expect(banner).to.contain(`client_id      ${demoClient.client_id}`);
    expect(output().match(/client_id {6}\S+/g)).to.have.length(1);
    // A transfer of the demo user's arrives at the local receiver, verified, and is printed under the banner.
    const chain = new JsonRpcProvider(/Chain\s+(http:\/\/\S+)/.exec(banner)![1]);
    const user = await chain.getSigner(1);
    expect(user.address).to.equal(after.user);
    const transfer = await IERC721__factory.connect(after.alice, user).transferFrom(after.user, after.wallet, 1);
    await transfer.wait();
    await pollUntil("the delivery printed", async () => output().includes(`transfer of ${after.alice} #1 `));
    const arrived = output()
      .split("Ctrl-C stops everything.")[1]
      .split("\n")
      .find((line) => line.includes(`transfer of ${after.alice} #1 `))!
      .trim();
    expect(arrived).to.match(
      new RegExp(
        `^Webhook {3}\\d+ \\(transfer of ${after.alice} #1 from ${after.user} to ${after.wallet}\\) arrived at the local receiver, signature verified$`,
      ),
    );
    chain.destroy();
    child.kill("SIGTERM");
    expect(await exited(child)).to.equal(0);
  });
});
