import { expect } from "chai";
import { getAddress } from "ethers";
import { AliceNFT__factory, BobNFT__factory, TestERC20__factory } from "../../../typechain-types";
import { startTestApp } from "../../helpers/app";
import { createTestDatabase } from "../../helpers/database";
import { expectIndexMatchesChain, INDEXED_OWNERS, INDEXED_TRANSFERS, indexedTo } from "../../helpers/index-check";
import { startRpcProxy } from "../../helpers/rpc-proxy";
import { SuiteChain } from "../../helpers/suite-chain";
import { startTcpProxy } from "../../helpers/tcp-proxy";
import { pollUntil } from "../../helpers/waiters";

describe("ERC-721 indexer", function () {
  const suite = SuiteChain.forSuite("own", async (chain) => {
    const deployer = await chain.signer(0);
    const users = await Promise.all([1, 2, 3].map(async (i) => (await chain.signer(i)).getAddress()));
    const alice = await chain.deployAlice();
    const t = await chain.startIndexingApp();
    return { deployer, users, alice, t };
  });

  const head = () => suite().chain.provider.getBlockNumber();

  it("follows mints, transfers and burns into the current owners", async function () {
    const { chain, users, alice, t } = suite();
    await (await alice.mintBatch(users[0], [1n, 2n, 3n, 4n])).wait();
    await (await alice.connect(await chain.provider.getSigner(1)).transferFrom(users[0], users[1], 2n)).wait();
    await (await alice.connect(await chain.provider.getSigner(1)).burn(3n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", await alice.getAddress(), [1n, 2n, 3n, 4n, 5n]);
    const { rows } = await t.app.db.query(`SELECT token_id, owner FROM ${INDEXED_OWNERS} WHERE contract = $1 ORDER BY token_id`, [
      (await alice.getAddress()).toLowerCase(),
    ]);
    expect(rows).to.deep.equal([
      { token_id: "1", owner: users[0].toLowerCase() },
      { token_id: "2", owner: users[1].toLowerCase() },
      { token_id: "4", owner: users[0].toLowerCase() },
    ]);
  });

  it("does not mistake ERC-20 transfers for NFTs", async function () {
    const { chain, deployer, users, t } = suite();
    const token = await new TestERC20__factory(deployer).deploy();
    await (await token.mint(users[0], 10n ** 18n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const { rows } = await t.app.db.query(`SELECT count(*)::int AS n FROM ${INDEXED_TRANSFERS} WHERE contract = $1`, [
      (await token.getAddress()).toLowerCase(),
    ]);
    expect(rows[0]).to.deep.equal({ n: 0 });
    expect((await chain.provider.getLogs({ address: await token.getAddress() })).length).to.equal(1);
  });

  it("shrinks its eth_getLogs ranges when the provider refuses wide ones, and indexes everything", async function () {
    const { chain, alice } = suite();
    const database = await createTestDatabase();
    const proxy = await startRpcProxy(chain.url, (call) => {
      if (call.method !== "eth_getLogs") return undefined;
      const { fromBlock, toBlock } = call.params[0] as { fromBlock: string; toBlock: string };
      return Number(toBlock) - Number(fromBlock) + 1 > 4
        ? { rpcError: { code: -32602, message: "block range too large: max 4 blocks" } }
        : undefined;
    });
    const other = await startTestApp({ database, env: { RPC_URL_LOCALHOST: proxy.url, INDEXER_POLL_MS: "50" } });
    try {
      await indexedTo(other.app.db, "localhost", chain.provider);
      await expectIndexMatchesChain(other.app.db, chain.provider, "localhost", await alice.getAddress(), [1n, 2n, 3n, 4n]);
      const ranges = proxy.calls
        .filter((c) => c.method === "eth_getLogs")
        .map((c) => c.params[0] as { fromBlock: string; toBlock: string });
      const widths = ranges.map((r) => Number(r.toBlock) - Number(r.fromBlock) + 1);
      expect(widths[0]).to.be.greaterThan(4); // it tried wide first
      expect(widths.filter((w) => w <= 4).length).to.be.greaterThan(0); // and went on with what the provider takes
    } finally {
      await other.close();
      await proxy.close();
      await database.drop();
    }
  });

  it("waits out a node outage and goes on where it stopped", async function () {
    const { chain, users, alice } = suite();
    const database = await createTestDatabase();
    const url = new URL(chain.url);
    const proxy = await startTcpProxy(url.hostname, Number(url.port));
    const other = await startTestApp({
      database,
      env: { RPC_URL_LOCALHOST: proxy.url(chain.url), INDEXER_POLL_MS: "50", RPC_TIMEOUT_MS: "500" },
    });
    try {
      await indexedTo(other.app.db, "localhost", chain.provider);
      proxy.cut();
      await (await alice.mintBatch(users[2], [30n, 31n])).wait();
      await new Promise((resolve) => setTimeout(resolve, 600)); // a few failed polls
      const { rows } = await other.app.db.query<{ block_number: string }>(
        "SELECT block_number FROM indexer_cursors WHERE network = 'localhost'",
      );
      expect(Number(rows[0].block_number)).to.be.lessThan(await head());
      proxy.restore();
      await indexedTo(other.app.db, "localhost", chain.provider);
      await expectIndexMatchesChain(other.app.db, chain.provider, "localhost", await alice.getAddress(), [1n, 2n, 3n, 4n, 30n, 31n]);
    } finally {
      await other.close();
      await proxy.close();
      await database.drop();
    }
  });

  it("rolls back to the common ancestor when the chain reorganizes", async function () {
    const { chain, deployer, users, t } = suite();
    const bob = await new BobNFT__factory(deployer).deploy(await deployer.getAddress());
    await (await bob.mintBatch(users[0], [1n, 2n])).wait();
    await indexedTo(t.app.db, "localhost", chain.provider);
    const snapshot = await chain.provider.send("evm_snapshot", []);
    const forkPoint = await head();
    // Branch A: indexed, then thrown away.
    await (await bob.mintBatch(users[1], [10n, 11n])).wait();
    await (await bob.connect(await chain.provider.getSigner(1)).transferFrom(users[0], users[2], 1n)).wait();
    await indexedTo(t.app.db, "localhost", chain.provider, forkPoint + 2);
    const { rows: before } = await t.app.db.query(`SELECT count(*)::int AS n FROM ${INDEXED_OWNERS} WHERE contract = $1`, [
      (await bob.getAddress()).toLowerCase(),
    ]);
    expect(before[0].n).to.equal(4);
    // Branch B: different blocks at the same heights, and one more.
    await chain.provider.send("evm_revert", [snapshot]);
    await (await bob.mintBatch(users[2], [20n])).wait();
    await (await bob.connect(await chain.provider.getSigner(1)).transferFrom(users[0], users[1], 2n)).wait();
    await (await bob.mintBatch(users[2], [21n])).wait();
    await indexedTo(t.app.db, "localhost", chain.provider, forkPoint + 3);
    await expectIndexMatchesChain(t.app.db, chain.provider, "localhost", await bob.getAddress(), [1n, 2n, 10n, 11n, 20n, 21n]);
    const hashes = await t.app.db.query<{ number: string; hash: string }>(
      "SELECT number, hash FROM indexer_blocks WHERE network = 'localhost' AND number > $1",
      [forkPoint],
    );
    for (const { number, hash } of hashes.rows)
      expect(hash, `block ${number}`).to.equal((await chain.provider.getBlock(Number(number)))!.hash);
  });

  it("indexes again from the start when the chain it indexed is gone (a new local chain)", async function () {
    const { chain, users } = suite();
    const database = await createTestDatabase();
    const first = await startTestApp({ database, env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50" } });
    await indexedTo(first.app.db, "localhost", chain.provider);
    await first.close();
    const fresh = await SuiteChain.ownNode();
    try {
      const token = await new AliceNFT__factory(await fresh.provider.getSigner(0)).deploy(users[0]);
      await (await token.connect(await fresh.provider.getSigner(1)).mint(users[1], 5n)).wait();
      const second = await startTestApp({ database, env: { RPC_URL_LOCALHOST: fresh.url, INDEXER_POLL_MS: "50" } });
      try {
        const freshHead = await fresh.provider.getBlockNumber();
        // The old index was far ahead of this short chain: it must be replaced, not trusted.
        await indexedTo(second.app.db, "localhost", fresh.provider, freshHead);
        const { rows } = await second.app.db.query<{ contract: string; owner: string }>(
          `SELECT contract, owner FROM ${INDEXED_OWNERS} WHERE network = 'localhost'`,
        );
        expect(rows).to.deep.equal([{ contract: (await token.getAddress()).toLowerCase(), owner: users[1].toLowerCase() }]);
        const cursor = await second.app.db.query<{ block_number: string }>(
          "SELECT block_number FROM indexer_cursors WHERE network = 'localhost'",
        );
        expect(Number(cursor.rows[0].block_number)).to.equal(freshHead);
      } finally {
        await second.close();
      }
    } finally {
      await fresh.close();
      await database.drop();
    }
  });

  it("gives the addresses an index held before their forms were kept an EIP-55 form when it starts", async function () {
    const { chain } = suite();
    const database = await createTestDatabase();
    try {
      const first = await startTestApp({ database, env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50" } });
      await indexedTo(first.app.db, "localhost", chain.provider);
      await first.close();
      // As an index written before 0266_address_checksums holds them.
      const db = await database.open();
      const { rowCount } = await db.query("UPDATE nft_addresses SET eip55 = NULL");
      expect(rowCount).to.be.above(3);
      const second = await startTestApp({ database, env: { RPC_URL_LOCALHOST: chain.url, INDEXER_POLL_MS: "50" } });
      try {
        const forms = () =>
          second.app.db.query<{ address: string; eip55: string | null }>(
            "SELECT '0x' || encode(address, 'hex') AS address, eip55 FROM nft_addresses",
          );
        await pollUntil("every address with its form", async () => (await forms()).rows.every((r) => r.eip55 !== null));
        for (const r of (await forms()).rows) expect(r.eip55, r.address).to.equal(getAddress(r.address));
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
