import path from "node:path";
import { getAddress } from "ethers";
import { NETWORKS, rpcEnvName } from "./chain/registry";
import { ConfigError, Reader, renameWarning } from "./config/reader";

export { ConfigError, Reader } from "./config/reader";

export type DatabaseConfig =
  /**
   * `poolSize`, `sessionUrl`, `preparedStatements`, `acquireTimeoutMs`: DATABASE_POOL_SIZE, DATABASE_SESSION_URL,
   * DATABASE_PREPARED_STATEMENTS and DATABASE_ACQUIRE_TIMEOUT_MS (the wait for a free connection). Absent in configs
   * the tests make: their defaults.
   */
  | {
      kind: "postgres";
      url: string;
      poolSize?: number;
      sessionUrl?: string;
      preparedStatements?: boolean;
      acquireTimeoutMs?: number;
      /** DATABASE_READ_*: streaming replicas that serve the index reads; absent when DATABASE_READ_URLS is unset. */
      replicas?: ReplicaConfig;
    }
  /** `dataDir: null` keeps the database in memory (tests). */
  | { kind: "pglite"; dataDir: string | null };

/** DATABASE_READ_URLS and the settings of how replicas are skipped (docs/operations.md, read replicas). */
export interface ReplicaConfig {
  urls: string[];
  maxLagBlocks: number;
  lagCheckMs: number;
  retryMs: number;
  connectTimeoutMs: number;
}

export interface Config {
  host: string;
  port: number;
  logLevel: string;
  /** Public base URL of the service (OIDC issuer), no trailing slash. */
  issuer: string;
  /** Fastify `trustProxy`: whether X-Forwarded-For names the client (behind a load balancer). */
  trustProxy: boolean | number | string;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  database: DatabaseConfig;
  /** Where local state lives: the PGlite database (when no DATABASE_URL) and the embedded chain's demo record. */
  dataDir: string;
  /** RPC URL per network name; a network without one is known but unavailable. */
  /** The JSON-RPC URLs of each configured network, in the order given (one or more). */
  rpcUrls: Record<string, string[]>;
  rpcCooldownMs: number;
  rpcTimeoutMs: number;
  /** Largest answer a large JSON-RPC read (rawRpc) reads, in bytes. */
  rpcMaxAnswerBytes: number;
  /** How long the latest block number of a network is reused before asking its node again. */
  headCacheMs: number;
  /** Blocks behind the head after which a block is final (its timestamp is cached for good). */
  finalityDepth: number;
  /** Network used when a request names none (login). */
  defaultNetwork: string;
  /** Start an embedded Hardhat node and deploy the demo (npm start on a fresh machine). */
  localChain: boolean;
  /** Port of the embedded node (a free one when taken). */
  localChainPort: number;
  /** On a signal, how long requests in flight may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  indexer: {
    /** Run the ERC-721 indexer inside the service (else run `npm run indexer` as its own process). */
    enabled: boolean;
    pollMs: number;
    /** The pause after a range refused for a full disk. */
    fullDiskPauseMs: number;
    /** Largest eth_getLogs range in blocks (it adapts below this to the provider's limits). */
    maxRange: number;
    /** Most ids one ERC-2309 ConsecutiveTransfer may move for the index to expand it (docs/indexing.md). */
    maxConsecutive: number;
    maxConsecutivePerBlock: number;
    /** Blocks near the head whose logs answer is proven complete before the cursor passes them (docs/indexing.md). */
    logLagBlocks: number;
    /** First block per network when its index starts (default 0). */
    startBlocks: Record<string, number>;
    /** Contracts to index per network (lower case; all contracts when absent). */
    contracts: Record<string, string[]>;
  };
  login: {
    /** First line of the sign-in message, fixed per deployment. */
    messageHeader: string;
    /** Requests per minute and IP on each of /api/authorize, /api/login and the token endpoints. */
    rateLimit: number;
    /** Open sign-in messages one client IP (an IPv6 /64) may hold at once, all addresses together. */
    maxOpenChallenges: number;
    /** Network whose ENS names the `profile` scope's claims; undefined: the scope gives none. */
    ensNetwork?: string;
    /** How long an address's ENS profile is used before a login looks it up again. */
    ensTtlMs: number;
    /** ID-token signing keys given in the environment (a private JWK Set, JSON); made once and kept in the database otherwise. */
    jwks?: { keys: Record<string, unknown>[] };
    /** The initial access token of dynamic client registration; registration is off without one. */
    registrationAccessToken?: string;
  };
  /** Converters the conversion page offers (`CONVERTERS`), addresses checksummed. */
  converters: ConverterRef[];
  rateLimits: {
    /** Requests per minute and IP (an IPv6 /64) on all the data routes together (blocks, gas, tokens, holders, inventory, history, token). */
    data: number;
    /** Requests per minute and IP (an IPv6 /64) on the converter's two read routes together. */
    converter: number;
    /** Signed-metadata posts per minute and IP (an IPv6 /64), the three post routes together. */
    metadataPosts: number;
    /** Where the counts are kept: `database` (shared by every instance on a PostgreSQL database) or `memory` (per instance). */
    store: "database" | "memory";
  };
  events: {
    /** Open live-event streams per instance (then 503). */
    maxSubscribers: number;
    /** Comment line sent this often on an idle stream, so proxies keep it open. */
    heartbeatMs: number;
    /** Unsent bytes one stream may hold in the process; past them it is destroyed (the client resumes with its last id). */
    maxBufferedBytes: number;
    /** How long a stream waits for its client to take what it holds before it is destroyed. */
    stallMs: number;
  };
  metadata: {
    /** Refuse signatures over the Base64 alone (the predecessor's unbound form). */
    requireBinding: boolean;
    /** Largest decoded metadata accepted, in bytes. */
    maxBytes: number;
  };
  tokenMetadata: TokenMetadataConfig;
  /** Prometheus metrics (`METRICS`), served on their own listener, loopback by default. */
  metrics: { enabled: boolean; host: string; port: number };
}

/** Reading and caching the metadata a token's tokenURI points at. */
export interface TokenMetadataConfig {
  /** Base URLs that ipfs://<cid>/<path> and ar://<id> become (with a trailing slash). */
  ipfsGateway: string;
  arweaveGateway: string;
  /** Let fetches reach loopback, private and link-local addresses (the local demo and tests only). */
  allowPrivate: boolean;
  /** Whole fetch, redirects and body included. */
  fetchTimeoutMs: number;
  /** Largest metadata document (or data: URI) read, in bytes. */
  maxBytes: number;
  /** How long resolved metadata is served before it is read again; failures are retried after errorTtlMs. */
  ttlMs: number;
  errorTtlMs: number;
  /** How long a read waits for a fetch before answering with what the cache holds. */
  waitMs: number;
  /** Fetches running at once, in all and per host. */
  concurrency: number;
  hostConcurrency: number;
  /** Refreshes per minute and IP. */
  refreshRateLimit: number;
  /** Bytes of metadata fields one answer carries at most; the items beyond are answered as omitted. */
  answersMaxBytes: number;
  /** Answers that embed metadata being assembled and sent at once (each holds up to about 2 × answersMaxBytes). */
  answersConcurrency: number;
  /** Stale documents (after a metadata-change event) the background sweep reads again at once (0: none), and its pause. */
  sweepBatch: number;
  sweepIntervalMs: number;
}

export interface ConverterRef {
  network: string;
  address: string;
}

type Env = Record<string, string | undefined>;

/**
 * Reads the configuration, or stops the process with one line naming the variable (for process entry points);
 * settings set under an old name get one warning line.
 */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    const { config, warning } = readConfig(env);
    if (warning !== undefined) console.warn(warning);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/** The configuration from the environment; ranges and defaults are declared in server/config/settings.ts. */
export function loadConfig(env: Env = process.env): Config {
  return readConfig(env).config;
}

/** The configuration and the warning line about old names, if any were set. */
export function readConfig(env: Env = process.env): { config: Config; warning?: string } {
  const read = new Reader(env);
  const port = read.int("PORT");
  const rpcUrls = readRpcUrls(read, env);
  const localChain = read.bool("LOCAL_CHAIN", Object.keys(rpcUrls).length === 0);
  const issuer = read.url("ISSUER", `http://localhost:${port}`).replace(/\/+$/, "");
  const databaseUrl = read.optional("DATABASE_URL");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL", "a postgres:// or postgresql:// URL", databaseUrl);
  }
  const poolSize = read.int("DATABASE_POOL_SIZE");
  const sessionUrl = read.optional("DATABASE_SESSION_URL");
  if (sessionUrl !== undefined && !/^postgres(ql)?:\/\//.test(sessionUrl)) {
    throw new ConfigError("DATABASE_SESSION_URL", "a postgres:// or postgresql:// URL", sessionUrl);
  }
  const preparedStatements = read.bool("DATABASE_PREPARED_STATEMENTS");
  const acquireTimeoutMs = read.int("DATABASE_ACQUIRE_TIMEOUT_MS");
  const replicas = readReplicas(read, databaseUrl !== undefined);
  const dataDir = path.resolve(read.string("DATA_DIR"));
  const defaultNetwork = read.oneOf("DEFAULT_NETWORK", localChain ? "localhost" : "mainnet");
  const config: Config = {
    host: read.string("HOST"),
    port,
    logLevel: read.oneOf("LOG_LEVEL"),
    issuer,
    trustProxy: readTrustProxy(read),
    bodyLimit: read.int("BODY_LIMIT"),
    database: databaseUrl
      ? {
          kind: "postgres",
          url: databaseUrl,
          poolSize,
          sessionUrl: sessionUrl ?? databaseUrl,
          preparedStatements,
          acquireTimeoutMs,
          ...(replicas ? { replicas } : {}),
        }
      : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
    dataDir,
    rpcUrls,
    rpcTimeoutMs: read.int("RPC_TIMEOUT_MS"),
    rpcMaxAnswerBytes: read.int("RPC_MAX_ANSWER_BYTES"),
    rpcCooldownMs: read.int("RPC_COOLDOWN_MS"),
    headCacheMs: read.int("HEAD_CACHE_MS"),
    finalityDepth: read.int("FINALITY_DEPTH"),
    defaultNetwork,
    localChain,
    localChainPort: read.int("LOCAL_CHAIN_PORT"),
    shutdownTimeoutMs: read.int("SHUTDOWN_TIMEOUT_MS"),
    indexer: {
      enabled: read.bool("INDEXER"),
      pollMs: read.int("INDEXER_POLL_MS"),
      fullDiskPauseMs: read.int("INDEXER_FULL_DISK_PAUSE_MS"),
      maxRange: read.int("INDEXER_MAX_RANGE"),
      // OpenZeppelin's ERC721Consecutive mints at most 5,000 ids per event, "to accommodate off-chain indexers".
      maxConsecutive: read.int("INDEXER_MAX_CONSECUTIVE"),
      maxConsecutivePerBlock: read.int("INDEXER_MAX_CONSECUTIVE_PER_BLOCK"),
      logLagBlocks: read.int("INDEXER_LOG_LAG_BLOCKS"),
      ...readIndexerTargets(read, Object.keys(rpcUrls).concat(localChain ? ["localhost"] : [])),
    },
    login: {
      messageHeader: readHeader(read),
      rateLimit: read.int("LOGIN_RATE_LIMIT"),
      maxOpenChallenges: read.int("LOGIN_MAX_OPEN_CHALLENGES"),
      jwks: readJwks(read),
      registrationAccessToken: readRegistrationToken(read),
      ensNetwork: readEnsNetwork(read, rpcUrls, localChain),
      ensTtlMs: read.int("LOGIN_ENS_TTL_MS"),
    },
    converters: readConverters(read, Object.keys(rpcUrls).concat(localChain ? ["localhost"] : [])),
    rateLimits: {
      data: read.int("DATA_RATE_LIMIT"),
      converter: read.int("CONVERTER_RATE_LIMIT"),
      metadataPosts: read.int("METADATA_POST_RATE_LIMIT"),
      store: read.oneOf<"database" | "memory">("RATE_LIMIT_STORE"),
    },
    events: {
      maxSubscribers: read.int("EVENTS_MAX_SUBSCRIBERS"),
      heartbeatMs: read.int("EVENTS_HEARTBEAT_MS"),
      maxBufferedBytes: read.int("EVENTS_MAX_BUFFERED_BYTES"),
      stallMs: read.int("EVENTS_STALL_MS"),
    },
    metadata: {
      requireBinding: read.bool("SIGNED_METADATA_REQUIRE_BINDING"),
      maxBytes: read.int("SIGNED_METADATA_MAX_BYTES"),
    },
    tokenMetadata: readTokenMetadata(read, localChain),
    metrics: {
      enabled: read.bool("METRICS"),
      host: read.string("METRICS_HOST"),
      port: read.int("METRICS_PORT"),
    },
  };
  return { config, warning: renameWarning(env) };
}

/** ENS on mainnet when its node is configured, on the embedded chain in `npm start`; a network without a node is refused. */
function readEnsNetwork(read: Reader, rpcUrls: Record<string, string[]>, localChain: boolean): string | undefined {
  const fallback = rpcUrls.mainnet ? "mainnet" : localChain ? "localhost" : "off";
  const network = read.oneOf("LOGIN_ENS_NETWORK", fallback);
  if (network === "off") return undefined;
  if (!rpcUrls[network] && !(localChain && network === "localhost"))
    throw new ConfigError("LOGIN_ENS_NETWORK", `"off" or a network with an RPC URL (${rpcEnvName(network)} is not set)`, network);
  return network;
}

function readTokenMetadata(read: Reader, localChain: boolean): TokenMetadataConfig {
  const gateway = (name: string) => read.url(name).replace(/\/*$/, "/");
  return {
    ipfsGateway: gateway("IPFS_GATEWAY"),
    arweaveGateway: gateway("ARWEAVE_GATEWAY"),
    // The local demo serves its own metadata from this machine.
    allowPrivate: read.bool("METADATA_FETCH_ALLOW_PRIVATE", localChain),
    fetchTimeoutMs: read.int("METADATA_FETCH_TIMEOUT_MS"),
    maxBytes: read.int("METADATA_FETCH_MAX_BYTES"),
    ttlMs: read.int("METADATA_FETCH_TTL_MS"),
    errorTtlMs: read.int("METADATA_FETCH_ERROR_TTL_MS"),
    waitMs: read.int("METADATA_FETCH_WAIT_MS"),
    concurrency: read.int("METADATA_FETCH_CONCURRENCY"),
    hostConcurrency: read.int("METADATA_FETCH_HOST_CONCURRENCY"),
    refreshRateLimit: read.int("METADATA_FETCH_REFRESH_RATE_LIMIT"),
    answersMaxBytes: read.int("METADATA_ANSWERS_MAX_BYTES"),
    answersConcurrency: read.int("METADATA_ANSWERS_CONCURRENCY"),
    sweepBatch: read.int("METADATA_SWEEP_BATCH"),
    sweepIntervalMs: read.int("METADATA_SWEEP_INTERVAL_MS"),
  };
}

/** `RPC_URL_<NAME>` for every built-in network (`matic-mainnet` → `RPC_URL_MATIC_MAINNET`); unknown names are refused. */
function readRpcUrls(read: Reader, env: Env): Record<string, string[]> {
  const byVariable = new Map(Object.keys(NETWORKS).map((name) => [rpcEnvName(name), name]));
  const urls: Record<string, string[]> = {};
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith("RPC_URL_") || value === undefined || value === "") continue;
    const name = byVariable.get(variable);
    if (!name) throw new ConfigError(variable, `one of ${[...byVariable.keys()].join(", ")}`, variable);
    urls[name] = read.urls(variable);
  }
  return urls;
}

/** `INDEXER_START_BLOCK_<NAME>` and `INDEXER_CONTRACTS_<NAME>` (comma-separated addresses) per network. */
function readIndexerTargets(read: Reader, networks: string[]) {
  const startBlocks: Record<string, number> = {};
  const contracts: Record<string, string[]> = {};
  for (const name of networks) {
    const suffix = name.toUpperCase().replace(/-/g, "_");
    startBlocks[name] = read.int(`INDEXER_START_BLOCK_${suffix}`);
    const list = read.optional(`INDEXER_CONTRACTS_${suffix}`);
    if (list !== undefined) {
      contracts[name] = list.split(",").map((address) => {
        const trimmed = address.trim();
        if (!/^0x[0-9a-fA-F]{40}$/.test(trimmed))
          throw new ConfigError(`INDEXER_CONTRACTS_${suffix}`, "comma-separated 0x addresses", list);
        return trimmed.toLowerCase();
      });
    }
  }
  return { startBlocks, contracts };
}

/** `CONVERTERS=<network>:<address>,…`: networks with an RPC URL (or the embedded chain), addresses with a valid checksum when mixed case. */
function readConverters(read: Reader, usable: string[]): ConverterRef[] {
  const raw = read.optional("CONVERTERS");
  if (raw === undefined) return [];
  return raw.split(",").map((entry) => {
    const [network, address, ...rest] = entry.trim().split(":");
    const expected = "comma-separated <network>:<0x address> of known networks";
    if (rest.length > 0 || !network || !Object.hasOwn(NETWORKS, network) || !address || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
      throw new ConfigError("CONVERTERS", expected, raw);
    }
    if (!usable.includes(network))
      throw new ConfigError("CONVERTERS", `converters on networks with an RPC URL (set ${rpcEnvName(network)})`, raw);
    try {
      return { network, address: getAddress(address) };
    } catch {
      throw new ConfigError("CONVERTERS", `${expected} (${address} fails its EIP-55 checksum)`, raw);
    }
  });
}

function readHeader(read: Reader): string {
  const header = read.string("LOGIN_MESSAGE_HEADER");
  // One line of the four-line message: a line break would let the header fake the lines below it.
  if (/[\r\n]/.test(header) || header.length > 100)
    throw new ConfigError("LOGIN_MESSAGE_HEADER", "one line of at most 100 characters", header);
  return header;
}

/** A bearer secret: long enough that it cannot be guessed (the value itself is never shown). */
function readRegistrationToken(read: Reader): string | undefined {
  const token = read.optional("LOGIN_REGISTRATION_ACCESS_TOKEN");
  if (token !== undefined && (token.length < 32 || /\s/.test(token)))
    throw new ConfigError("LOGIN_REGISTRATION_ACCESS_TOKEN", "at least 32 characters, no spaces", "(a shorter value, or one with spaces)");
  return token;
}

function readJwks(read: Reader): { keys: Record<string, unknown>[] } | undefined {
  const raw = read.optional("OIDC_JWKS");
  if (raw === undefined) return undefined;
  const expected = 'a JSON JWK Set of private RSA keys ({"keys": [{"kty": "RSA", "d": ...}]})';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError("OIDC_JWKS", expected, "(a value that is not JSON)");
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((k) => k && typeof k === "object" && k.kty === "RSA" && typeof k.d === "string")
  ) {
    // Never echo a private key back into a log.
    throw new ConfigError("OIDC_JWKS", expected, "(a value that is not)");
  }
  return { keys };
}

function readTrustProxy(read: Reader): boolean | number | string {
  const raw = read.optional("TRUST_PROXY");
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw; // comma-separated addresses or CIDRs, as Fastify takes them
}

/**
 * DATABASE_READ_URLS and its settings; undefined when unset. The embedded database has no replicas: setting them
 * without DATABASE_URL is refused rather than ignored, so an operator does not believe reads are spread when none are.
 */
function readReplicas(read: Reader, postgres: boolean): ReplicaConfig | undefined {
  const list = read.optional("DATABASE_READ_URLS");
  // Read (and checked) whether or not replicas are set, as every declared setting is.
  const settings = {
    maxLagBlocks: read.int("DATABASE_READ_MAX_LAG_BLOCKS"),
    lagCheckMs: read.int("DATABASE_READ_LAG_CHECK_MS"),
    retryMs: read.int("DATABASE_READ_RETRY_MS"),
    connectTimeoutMs: read.int("DATABASE_READ_CONNECT_TIMEOUT_MS"),
  };
  if (list === undefined || list.trim() === "") return undefined;
  if (!postgres) {
    throw new ConfigError(
      "DATABASE_READ_URLS",
      "to be set only with DATABASE_URL (the embedded PGlite database has no replicas)",
      "a list of URLs",
    );
  }
  const urls = list.split(",").map((url) => url.trim());
  for (const url of urls) {
    // The URL itself is not echoed: it may carry a password.
    if (!/^postgres(ql)?:\/\/[^\s]+$/.test(url))
      throw new ConfigError("DATABASE_READ_URLS", "comma-separated postgres:// or postgresql:// URLs", redactedUrl(url));
  }
  return { urls, ...settings };
}

/** A database URL without its password, for error lines. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/([^/:@]*):[^/@]*@/, "//$1:***@");
}
