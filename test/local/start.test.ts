import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { START_NODE_ARGS } from "../../local/start-command";

const ROOT = path.resolve(__dirname, "..", "..");
const run = promisify(execFile);

interface Started {
  child: ChildProcess;
  output: () => string;
  banner: string;
}

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
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

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
    // An old name still works and costs one warning line at start.
    const { child, banner, output } = await start({ DATA_DIR: dataDir, LOG_LEVEL: "info", METADATA_WAIT_MS: "1500" });
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

    // Each request is one JSON log line carrying its request id.
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
    await fetch(`${service}/health`, { headers: { "x-request-id": "trace-start-test" } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const line = output()
      .split("\n")
      .find((l) => l.includes('"reqId":"trace-start-test"'));
    expect(line, output()).to.be.a("string");
    expect(JSON.parse(line!)).to.include({ method: "GET", url: "/health", status: 200 });

    child.kill("SIGINT");
    expect(await exited(child)).to.equal(0);
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
    expect(banner).to.contain(`client_id      ${demoClient.id}`);
    expect(output().match(/client_id {6}\S+/g)).to.have.length(1);
    child.kill("SIGTERM");
    expect(await exited(child)).to.equal(0);
  });
});
