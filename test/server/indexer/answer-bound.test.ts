import { expect } from "chai";
import { Wallet } from "ethers";
import { startTestApp, type TestApp } from "../../helpers/app";
import { inOneBlock } from "../../helpers/chain";
import { expectIndexMatchesChain, indexedTo } from "../../helpers/index-check";
import { sample } from "../../helpers/metrics";
import { SuiteChain } from "../../helpers/suite-chain";

const BOUND = 1024 * 1024;
/** Mints per transaction: 500 Transfer logs are about 290 KB of eth_getLogs answer from this node. */
const PER_TX = 500;

/**
 * The indexer reads eth_getLogs answers up to RPC_MAX_ANSWER_BYTES (a contract chooses how many logs, and how large,
 * a block holds): a range whose answer passes it is asked again in fewer blocks, and a single block past it stops
 * that network's index, with a log line that says why, until the bound is raised.
 */
describe("indexer: eth_getLogs answers past RPC_MAX_ANSWER_BYTES", function () {
  this.timeout(180_000);
  let next = 0;
  const open: TestApp[] = [];
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const alice = await chain.deployAlice();
    return { alice, contract: await alice.getAddress() };
  });
  afterEach(async function () {
    for (const t of open.splice(0)) await t.close();
  });

  /** Mints PER_TX tokens to a new address in each of `transactions` transactions; in one block when `oneBlock`. */
  async function mint(transactions: number, oneBlock = false): Promise<bigint[]> {
    const { chain, alice } = suite();
    const ids: bigint[] = [];
    const sends = Array.from({ length: transactions }, () => {
      const first = next;
      for (let id = first; id < first + PER_TX; id++) ids.push(BigInt(id));
      next += PER_TX;
      return () => alice.mintRange(Wallet.createRandom().address, first, PER_TX, { gasLimit: 16_000_000 });
    });
    if (oneBlock) await inOneBlock(chain.provider, sends);
    else for (const send of sends) await (await send()).wait();
    return ids;
  }

  async function app(env: Record<string, string>, lines?: Array<Record<string, unknown>>): Promise<TestApp> {
    const { chain } = suite();
    const t = await startTestApp({
      env: { RPC_URL_LOCALHOST: chain.url, INDEXER: "true", INDEXER_POLL_MS: "50", ...(lines ? { LOG_LEVEL: "info" } : {}), ...env },
      ...(lines ? { logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } } : {}),
    });
    open.push(t);
    return t;
  }

  it("asks for fewer blocks when a range's answer passes the bound, and indexes every transfer", async function () {
    const { chain, contract } = suite();
    const ids = await mint(4);
    const t = await app({ RPC_MAX_ANSWER_BYTES: String(BOUND) });
    await indexedTo(t.app.db, "localhost", chain.provider, undefined, 120_000);
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", contract, ids);
    const metrics = await t.app.metrics!.registry.metrics();
    // The four blocks together pass the bound: that read was stopped, and no provider was blamed for it.
    expect(sample(metrics, "rpc_calls_total", { network: "localhost", method: "eth_getLogs", outcome: "too_large" })).to.be.greaterThan(0);
    expect(metrics).not.to.match(/^rpc_provider_failures_total\{/m);
  });

  it("stops at a block whose own logs pass the bound, says so, and goes on once the bound is raised", async function () {
    const { chain, contract } = suite();
    const before = await mint(1);
    const head = await chain.provider.getBlockNumber();
    const ids = await mint(4, true);
    const big = await chain.provider.getBlockNumber();
    expect(big).to.equal(head + 1);
    const lines: Array<Record<string, unknown>> = [];
    const stopped = await app({ RPC_MAX_ANSWER_BYTES: String(BOUND) }, lines);
    await indexedTo(stopped.app.db, "localhost", chain.provider, head, 120_000);
    const said = async () => {
      for (let i = 0; i < 200; i++) {
        const line = lines.find((l) => l.msg === "indexer: step failed; retrying");
        if (line) return line;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error("no log line");
    };
    const line = await said();
    expect((line.err as { message: string }).message).to.equal(
      `block ${big}: eth_getLogs: the answer exceeds RPC_MAX_ANSWER_BYTES (${BOUND} bytes); raise it to index this network past this block`,
    );
    const { rows } = await stopped.app.db.query<{ block_number: string }>(
      "SELECT block_number FROM indexer_cursors WHERE network = 'localhost'",
    );
    expect(Number(rows[0].block_number)).to.equal(head);
    await stopped.close();
    open.splice(open.indexOf(stopped), 1);

    const raised = await app({ RPC_MAX_ANSWER_BYTES: String(4 * BOUND) });
    await indexedTo(raised.app.db, "localhost", chain.provider, big, 120_000);
    await expectIndexMatchesChain(raised.app.db, chain.provider, "localhost", contract, [...before, ...ids]);
  });
});
