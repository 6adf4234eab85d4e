import { expect } from "chai";
import { ConfigError, loadConfig } from "../../server/config";
import { SETTINGS } from "../../server/config/settings";

describe("config", function () {
  function refusal(env: Record<string, string>): string {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error("expected a ConfigError");
  }

  describe("defaults", function () {
    it("runs on a fresh machine: PGlite under .data, embedded chain, port 3000", function () {
      const config = loadConfig({});
      expect(config.port).to.equal(3000);
      expect(config.database).to.deep.include({ kind: "pglite" });
      expect(config.database.kind === "pglite" && config.database.dataDir).to.match(/\.data\/pglite$/);
      expect(config.localChain).to.equal(true);
      expect(config.defaultNetwork).to.equal("localhost");
      expect(config.issuer).to.equal("http://localhost:3000");
    });

    it("uses PostgreSQL and the given nodes, and starts no chain, when they are configured", function () {
      const config = loadConfig({
        DATABASE_URL: "postgres://u@db:5432/app",
        RPC_URL_MAINNET: "https://eth.example/v1",
        RPC_URL_MATIC_MAINNET: "https://polygon.example",
        ISSUER: "https://login.example.com/",
      });
      expect(config.database).to.deep.equal({
        kind: "postgres",
        url: "postgres://u@db:5432/app",
        poolSize: 10,
        sessionUrl: "postgres://u@db:5432/app",
        preparedStatements: true,
        acquireTimeoutMs: 5000,
        statementTimeoutMs: 10000,
        longStatementTimeoutMs: 3600000,
      });
      expect(config.rpcUrls).to.deep.equal({ mainnet: ["https://eth.example/v1"], "matic-mainnet": ["https://polygon.example"] });
      expect(config.localChain).to.equal(false);
      expect(config.defaultNetwork).to.equal("mainnet");
      const pooled = loadConfig({
        DATABASE_URL: "postgres://u@bouncer:6432/app",
        DATABASE_SESSION_URL: "postgres://u@db:5432/app",
        DATABASE_PREPARED_STATEMENTS: "false",
      }).database;
      expect(pooled).to.deep.include({
        url: "postgres://u@bouncer:6432/app",
        sessionUrl: "postgres://u@db:5432/app",
        preparedStatements: false,
      });
      expect(config.issuer).to.equal("https://login.example.com");
    });
  });

  describe("token metadata", function () {
    it("reads gateways with a trailing slash, and lifts the SSRF guard only for the embedded chain unless told", function () {
      const local = loadConfig({ IPFS_GATEWAY: "http://127.0.0.1:8080/ipfs", ARWEAVE_GATEWAY: "https://ar.example" });
      expect(local.tokenMetadata).to.deep.include({
        ipfsGateway: "http://127.0.0.1:8080/ipfs/",
        arweaveGateway: "https://ar.example/",
        allowPrivate: true,
      });
      const production = loadConfig({ RPC_URL_MAINNET: "https://eth.example" });
      expect(production.tokenMetadata).to.deep.include({
        ipfsGateway: "https://ipfs.io/ipfs/",
        arweaveGateway: "https://arweave.net/",
        allowPrivate: false,
      });
      expect(loadConfig({ METADATA_FETCH_ALLOW_PRIVATE: "false" }).tokenMetadata.allowPrivate).to.equal(false);
    });

    it("bounds answers with metadata: 4 MiB of metadata each, 4 under way, unless told", function () {
      expect(loadConfig({}).tokenMetadata).to.deep.include({ answersMaxBytes: 4 * 1024 * 1024, answersConcurrency: 4 });
      expect(loadConfig({ METADATA_ANSWERS_MAX_BYTES: "65536", METADATA_ANSWERS_CONCURRENCY: "1" }).tokenMetadata).to.deep.include({
        answersMaxBytes: 65_536,
        answersConcurrency: 1,
      });
    });

    it("looks ENS up on mainnet when its node is configured, on the embedded chain, else nowhere", function () {
      expect(loadConfig({ LOCAL_CHAIN: "false" }).login).to.deep.include({ ensNetwork: undefined, ensTtlMs: 300_000 });
      expect(loadConfig({ RPC_URL_MAINNET: "http://node:8545" }).login.ensNetwork).to.equal("mainnet");
      expect(loadConfig({ RPC_URL_SEPOLIA: "http://node:8545" }).login.ensNetwork).to.equal(undefined);
      expect(loadConfig({}).login.ensNetwork).to.equal("localhost");
      expect(loadConfig({ RPC_URL_SEPOLIA: "http://node:8545", LOGIN_ENS_NETWORK: "sepolia" }).login.ensNetwork).to.equal("sepolia");
      expect(loadConfig({ RPC_URL_MAINNET: "http://node:8545", LOGIN_ENS_NETWORK: "off" }).login.ensNetwork).to.equal(undefined);
      expect(refusal({ LOCAL_CHAIN: "false", LOGIN_ENS_NETWORK: "mainnet" })).to.equal(
        'LOGIN_ENS_NETWORK: expected "off" or a network with an RPC URL (RPC_URL_MAINNET is not set), got "mainnet"',
      );
      expect(refusal({ LOGIN_ENS_NETWORK: "ethereum" })).to.match(/^LOGIN_ENS_NETWORK: expected one of off, mainnet/);
      expect(refusal({ LOGIN_ENS_TTL_MS: "5" })).to.match(/^LOGIN_ENS_TTL_MS: expected an integer from 1000 to /);
    });

    it("refuses bad values", function () {
      expect(refusal({ IPFS_GATEWAY: "ipfs://gateway" })).to.equal('IPFS_GATEWAY: expected an http(s) URL, got "ipfs://gateway"');
      expect(refusal({ METADATA_FETCH_ALLOW_PRIVATE: "maybe" })).to.equal(
        'METADATA_FETCH_ALLOW_PRIVATE: expected true or false, got "maybe"',
      );
      expect(refusal({ METADATA_FETCH_MAX_BYTES: "1" })).to.match(/^METADATA_FETCH_MAX_BYTES: expected an integer from 1024 to /);
      expect(refusal({ METADATA_FETCH_WAIT_MS: "-5" })).to.match(/^METADATA_FETCH_WAIT_MS: expected an integer from 0 to /);
      expect(refusal({ METADATA_FETCH_HOST_CONCURRENCY: "0" })).to.match(
        /^METADATA_FETCH_HOST_CONCURRENCY: expected an integer from 1 to /,
      );
      expect(refusal({ METADATA_ANSWERS_MAX_BYTES: "65535" })).to.match(/^METADATA_ANSWERS_MAX_BYTES: expected an integer from 65536 to /);
      expect(refusal({ METADATA_ANSWERS_CONCURRENCY: "0" })).to.match(/^METADATA_ANSWERS_CONCURRENCY: expected an integer from 1 to /);
    });
  });

  describe("refusals name the variable and what it expects", function () {
    it("PORT that is not a port", function () {
      expect(refusal({ PORT: "abc" })).to.equal('PORT: expected an integer from 0 to 65535, got "abc"');
      expect(refusal({ PORT: "70000" })).to.equal('PORT: expected an integer from 0 to 65535, got "70000"');
    });

    it("an RPC_URL_ for a network that does not exist", function () {
      expect(refusal({ RPC_URL_MAINET: "http://x" })).to.match(/^RPC_URL_MAINET: expected one of RPC_URL_MAINNET, /);
    });

    it("an RPC URL that is not http(s), alone or in a list", function () {
      const expected = (value: string) => `RPC_URL_SEPOLIA: expected one or more http(s) URLs, comma-separated, got "${value}"`;
      for (const value of ["ws://node:8546", "https://a.example, ws://node:8546", "https://a.example,"])
        expect(refusal({ RPC_URL_SEPOLIA: value })).to.equal(expected(value));
    });

    it("several RPC URLs of a network, comma-separated, in their order", function () {
      const config = loadConfig({ RPC_URL_SEPOLIA: "https://a.example/v3/KEY, http://b.example:8545" });
      expect(config.rpcUrls).to.deep.equal({ sepolia: ["https://a.example/v3/KEY", "http://b.example:8545"] });
    });

    it("a DATABASE_URL that is not PostgreSQL", function () {
      expect(refusal({ DATABASE_URL: "mysql://root@db/app" })).to.equal(
        'DATABASE_URL: expected a postgres:// or postgresql:// URL, got "mysql://root@db/app"',
      );
    });

    it("a DATABASE_URL without a host, or with a space in it", function () {
      for (const url of ["postgres://", "postgres://u@db/my app"])
        expect(refusal({ DATABASE_URL: url })).to.equal(`DATABASE_URL: expected a postgres:// or postgresql:// URL, got "${url}"`);
    });

    it("a DATABASE_SESSION_URL that is not PostgreSQL", function () {
      expect(refusal({ DATABASE_URL: "postgres://u@bouncer/app", DATABASE_SESSION_URL: "http://db/app" })).to.equal(
        'DATABASE_SESSION_URL: expected a postgres:// or postgresql:// URL, got "http://db/app"',
      );
    });

    it("booleans, enums and URLs", function () {
      expect(refusal({ LOCAL_CHAIN: "yes" })).to.equal('LOCAL_CHAIN: expected true or false, got "yes"');
      expect(refusal({ DEFAULT_NETWORK: "ethereum" })).to.match(/^DEFAULT_NETWORK: expected one of mainnet, sepolia/);
      expect(refusal({ LOG_LEVEL: "loud" })).to.match(/^LOG_LEVEL: expected one of fatal, error/);
      expect(refusal({ ISSUER: "login.example.com" })).to.equal('ISSUER: expected an http(s) URL, got "login.example.com"');
      expect(refusal({ RPC_TIMEOUT_MS: "10s" })).to.equal('RPC_TIMEOUT_MS: expected an integer from 100 to 300000, got "10s"');
    });

    it("CONVERTERS entries that are not <network>:<address>", function () {
      const address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
      expect(refusal({ CONVERTERS: `mainet:${address}` })).to.match(
        /^CONVERTERS: expected comma-separated <network>:<0x address> of known networks/,
      );
      expect(refusal({ CONVERTERS: "localhost:0x1234" })).to.match(/^CONVERTERS: expected/);
      expect(refusal({ CONVERTERS: address })).to.match(/^CONVERTERS: expected/);
      expect(refusal({ CONVERTERS: `localhost:${address.replace("F", "f")}` })).to.include("fails its EIP-55 checksum");
      expect(refusal({ CONVERTERS: `sepolia:${address}` })).to.match(
        /^CONVERTERS: expected converters on networks with an RPC URL \(set RPC_URL_SEPOLIA\)/,
      );
    });
  });

  describe("settings per network", function () {
    it("read the index's start blocks and contracts per network, 0 and all contracts unless set", function () {
      const alice = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
      const { indexer } = loadConfig({
        RPC_URL_SEPOLIA: "https://sepolia.example",
        INDEXER_START_BLOCK_SEPOLIA: "1200",
        INDEXER_CONTRACTS_MATIC_MAINNET: ` ${alice} ,${alice.toLowerCase()}`,
      });
      expect(indexer.startBlocks).to.include({ sepolia: 1200, localhost: 0, mainnet: 0 });
      expect(indexer.contracts).to.deep.equal({ "matic-mainnet": [alice.toLowerCase(), alice.toLowerCase()] });
    });

    it("refuse a bad value, and a variable that names no known network, as RPC_URL_* does", function () {
      expect(refusal({ INDEXER_START_BLOCK_SEPOLIA: "-1" })).to.equal(
        `INDEXER_START_BLOCK_SEPOLIA: expected an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got "-1"`,
      );
      expect(refusal({ INDEXER_CONTRACTS_LOCALHOST: "0x1234" })).to.equal(
        'INDEXER_CONTRACTS_LOCALHOST: expected comma-separated 0x addresses, got "0x1234"',
      );
      expect(refusal({ INDEXER_START_BLOCK_MAINET: "5" })).to.match(
        /^INDEXER_START_BLOCK_MAINET: expected one of INDEXER_START_BLOCK_MAINNET, .*INDEXER_START_BLOCK_MATIC_MAINNET, .*got "INDEXER_START_BLOCK_MAINET"$/,
      );
    });
  });

  describe("CONVERTERS", function () {
    it("lists the converters the page offers, checksummed; none by default", function () {
      expect(loadConfig({}).converters).to.deep.equal([]);
      const config = loadConfig({
        CONVERTERS: "localhost:0x5fbdb2315678afecb367f032d93f642f64180aa3, sepolia:0x5FbDB2315678afecb367f032d93F642f64180aa3",
        RPC_URL_LOCALHOST: "http://127.0.0.1:8545",
        RPC_URL_SEPOLIA: "https://sepolia.example",
      });
      expect(config.converters).to.deep.equal([
        { network: "localhost", address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
        { network: "sepolia", address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
      ]);
    });
  });

  describe("the settings list", function () {
    it("declares each variable once, and puts each in its own place of the configuration", function () {
      const names = SETTINGS.map((setting) => setting.name);
      expect(names.filter((name, i) => names.indexOf(name) !== i)).to.deep.equal([]);
      const paths = SETTINGS.map((setting) => setting.path as string);
      const clashes = paths.filter((path, i) => paths.some((other, j) => j !== i && (other === path || other.startsWith(`${path}.`))));
      expect(clashes).to.deep.equal([]);
    });

    it("declares every variable loadConfig reads, and loadConfig reads every one it declares", function () {
      const asked = new Set<string>();
      const env = new Proxy({} as Record<string, string | undefined>, {
        get: (_, name) => void asked.add(String(name)),
      });
      loadConfig(env);
      const unread = SETTINGS.filter((setting) => !setting.name.includes("<") && !asked.has(setting.name)).map((s) => s.name);
      expect(unread).to.deep.equal([]);
    });

    it("checks DATABASE_POOL_SIZE, DATABASE_ACQUIRE_TIMEOUT_MS, SHUTDOWN_TIMEOUT_MS and LOCAL_CHAIN_PORT like the others", function () {
      const config = loadConfig({
        DATABASE_URL: "postgres://u@db/app",
        DATABASE_POOL_SIZE: "25",
        DATABASE_ACQUIRE_TIMEOUT_MS: "750",
        SHUTDOWN_TIMEOUT_MS: "2500",
        LOCAL_CHAIN_PORT: "0",
      });
      expect(config.database).to.deep.include({ kind: "postgres", url: "postgres://u@db/app", poolSize: 25, acquireTimeoutMs: 750 });
      expect(config).to.deep.include({ shutdownTimeoutMs: 2500, localChainPort: 0 });
      expect(loadConfig({})).to.deep.include({ shutdownTimeoutMs: 10_000, localChainPort: 8545 });
      expect(refusal({ DATABASE_POOL_SIZE: "ten" })).to.equal('DATABASE_POOL_SIZE: expected an integer from 1 to 1000, got "ten"');
      expect(refusal({ DATABASE_POOL_SIZE: "0" })).to.equal('DATABASE_POOL_SIZE: expected an integer from 1 to 1000, got "0"');
      expect(refusal({ DATABASE_ACQUIRE_TIMEOUT_MS: "0" })).to.equal(
        'DATABASE_ACQUIRE_TIMEOUT_MS: expected an integer from 50 to 60000, got "0"',
      );
      expect(refusal({ SHUTDOWN_TIMEOUT_MS: "10s" })).to.equal('SHUTDOWN_TIMEOUT_MS: expected an integer from 0 to 600000, got "10s"');
      expect(refusal({ LOCAL_CHAIN_PORT: "eighty" })).to.equal('LOCAL_CHAIN_PORT: expected an integer from 0 to 65535, got "eighty"');
    });
  });

  describe("old names", function () {
    /** The configuration and the warning line about old names, if any were set. */
    function withWarning(env: Record<string, string>) {
      let warning: string | undefined;
      const config = loadConfig(env, { onWarning: (line) => (warning = line) });
      return { config, warning };
    }

    it("still work, converted to the new unit, with one warning line naming each and its new name", function () {
      const { config, warning } = withWarning({ METADATA_TTL_SECONDS: "60", METADATA_MAX_BYTES: "1024", METADATA_REQUIRE_BINDING: "true" });
      expect(config.tokenMetadata.ttlMs).to.equal(60_000);
      expect(config.metadata).to.deep.equal({ requireBinding: true, maxBytes: 1024, answerMaxIssuers: 16 });
      expect(warning).to.equal(
        "Configuration warning: renamed settings: METADATA_REQUIRE_BINDING is now SIGNED_METADATA_REQUIRE_BINDING; " +
          "METADATA_MAX_BYTES is now SIGNED_METADATA_MAX_BYTES; " +
          "METADATA_TTL_SECONDS is now METADATA_FETCH_TTL_MS (in milliseconds: the value was converted)",
      );
      expect(withWarning({}).warning).to.equal(undefined);
      expect(withWarning({ METADATA_FETCH_TTL_MS: "60000" }).warning).to.equal(undefined);
    });

    it("give way to the new name when both are set, and the warning says the old one is ignored", function () {
      const { config, warning } = withWarning({ METADATA_WAIT_MS: "100", METADATA_FETCH_WAIT_MS: "200" });
      expect(config.tokenMetadata.waitMs).to.equal(200);
      expect(warning).to.equal(
        "Configuration warning: renamed settings: METADATA_WAIT_MS is ignored: METADATA_FETCH_WAIT_MS, its new name, is set too and wins",
      );
    });

    it("a bad value is refused under the name the operator set, in that name's unit", function () {
      expect(refusal({ METADATA_ERROR_TTL_SECONDS: "0" })).to.equal(
        'METADATA_ERROR_TTL_SECONDS: expected an integer from 1 to 31536000, got "0"',
      );
      expect(refusal({ METADATA_FETCH_ERROR_TTL_MS: "0" })).to.equal(
        'METADATA_FETCH_ERROR_TTL_MS: expected an integer from 1000 to 31536000000, got "0"',
      );
      expect(refusal({ METADATA_REQUIRE_BINDING: "yes" })).to.equal('METADATA_REQUIRE_BINDING: expected true or false, got "yes"');
      // The new name wins, so an old value beside it is not read at all.
      expect(
        withWarning({ METADATA_REFRESH_RATE_LIMIT: "0", METADATA_FETCH_REFRESH_RATE_LIMIT: "5" }).config.tokenMetadata.refreshRateLimit,
      ).to.equal(5);
    });
  });
});
