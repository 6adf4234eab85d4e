import path from "node:path";
import { getAddress } from "ethers";
import { NETWORKS, rpcEnvName } from "./chain/registry";

/** Thrown for a bad environment value; its message is the one line printed before exiting. */
export class ConfigError extends Error {
  constructor(variable: string, expected: string, got: string) {
    super(`${variable}: expected ${expected}, got ${JSON.stringify(got)}`);
    this.name = "ConfigError";
  }
}

export type DatabaseConfig =
  | { kind: "postgres"; url: string }
  /** `dataDir: null` keeps the database in memory (tests). */
  | { kind: "pglite"; dataDir: string | null };

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
  rpcUrls: Record<string, string>;
  rpcTimeoutMs: number;
  /** How long the latest block number of a network is reused before asking its node again. */
  headCacheMs: number;
  /** Blocks behind the head after which a block is final (its timestamp is cached for good). */
  finalityDepth: number;
  /** Network used when a request names none (login). */
  defaultNetwork: string;
  /** Start an embedded Hardhat node and deploy the demo (npm start on a fresh machine). */
  localChain: boolean;
  indexer: {
    /** Run the ERC-721 indexer inside the service (else run `npm run indexer` as its own process). */
    enabled: boolean;
    pollMs: number;
    /** Largest eth_getLogs range in blocks (it adapts below this to the provider's limits). */
    maxRange: number;
    /** Most ids one ERC-2309 ConsecutiveTransfer may move for the index to expand it (docs/indexing.md). */
    maxConsecutive: number;
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
    /** ID-token signing keys given in the environment (a private JWK Set, JSON); made once and kept in the database otherwise. */
    jwks?: { keys: Record<string, unknown>[] };
  };
  /** Converters the conversion page offers (`CONVERTERS`), addresses checksummed. */
  converters: ConverterRef[];
  events: {
    /** Open live-event streams per instance (then 503). */
    maxSubscribers: number;
    /** Comment line sent this often on an idle stream, so proxies keep it open. */
    heartbeatMs: number;
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
  /** How long resolved metadata is served before it is read again; failures are retried after errorTtlS. */
  ttlS: number;
  errorTtlS: number;
  /** How long a read waits for a fetch before answering with what the cache holds. */
  waitMs: number;
  /** Fetches running at once, in all and per host. */
  concurrency: number;
  hostConcurrency: number;
  /** Refreshes per minute and IP. */
  refreshRateLimit: number;
}

export interface ConverterRef {
  network: string;
  address: string;
}

type Env = Record<string, string | undefined>;

/** Reads the configuration, or stops the process with one line naming the variable (for process entry points). */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const read = new Reader(env);
  const port = read.int("PORT", { min: 0, max: 65_535, fallback: 3000 });
  const rpcUrls = readRpcUrls(env);
  const localChain = read.bool("LOCAL_CHAIN", Object.keys(rpcUrls).length === 0);
  const issuer = read.url("ISSUER", `http://localhost:${port}`).replace(/\/+$/, "");
  const databaseUrl = read.optional("DATABASE_URL");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL", "a postgres:// or postgresql:// URL", databaseUrl);
  }
  const dataDir = path.resolve(read.string("DATA_DIR", ".data"));
  const defaultNetwork = read.oneOf("DEFAULT_NETWORK", Object.keys(NETWORKS), localChain ? "localhost" : "mainnet");
  return {
    host: read.string("HOST", "127.0.0.1"),
    port,
    logLevel: read.oneOf("LOG_LEVEL", ["fatal", "error", "warn", "info", "debug", "trace", "silent"], "info"),
    issuer,
    trustProxy: readTrustProxy(read),
    bodyLimit: read.int("BODY_LIMIT", { min: 1024, max: 64 * 1024 * 1024, fallback: 1024 * 1024 }),
    database: databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
    dataDir,
    rpcUrls,
    rpcTimeoutMs: read.int("RPC_TIMEOUT_MS", { min: 100, max: 300_000, fallback: 10_000 }),
    headCacheMs: read.int("HEAD_CACHE_MS", { min: 0, max: 60_000, fallback: 500 }),
    finalityDepth: read.int("FINALITY_DEPTH", { min: 0, max: 100_000, fallback: 64 }),
    defaultNetwork,
    localChain,
    indexer: {
      enabled: read.bool("INDEXER", true),
      pollMs: read.int("INDEXER_POLL_MS", { min: 50, max: 60_000, fallback: 1_000 }),
      maxRange: read.int("INDEXER_MAX_RANGE", { min: 1, max: 1_000_000, fallback: 10_000 }),
      // OpenZeppelin's ERC721Consecutive mints at most 5,000 ids per event, "to accommodate off-chain indexers".
      maxConsecutive: read.int("INDEXER_MAX_CONSECUTIVE", { min: 1, max: 100_000, fallback: 5_000 }),
      ...readIndexerTargets(read, Object.keys(rpcUrls).concat(localChain ? ["localhost"] : [])),
    },
    login: {
      messageHeader: readHeader(read),
      rateLimit: read.int("LOGIN_RATE_LIMIT", { min: 1, max: 1_000_000, fallback: 120 }),
      maxOpenChallenges: read.int("LOGIN_MAX_OPEN_CHALLENGES", { min: 1, max: 1_000_000, fallback: 100 }),
      jwks: readJwks(read),
    },
    converters: readConverters(read, Object.keys(rpcUrls).concat(localChain ? ["localhost"] : [])),
    events: {
      maxSubscribers: read.int("EVENTS_MAX_SUBSCRIBERS", { min: 0, max: 1_000_000, fallback: 1_000 }),
      heartbeatMs: read.int("EVENTS_HEARTBEAT_MS", { min: 100, max: 300_000, fallback: 15_000 }),
    },
    metadata: {
      requireBinding: read.bool("METADATA_REQUIRE_BINDING", false),
      maxBytes: read.int("METADATA_MAX_BYTES", { min: 256, max: 16 * 1024 * 1024, fallback: 64 * 1024 }),
    },
    tokenMetadata: readTokenMetadata(read, localChain),
    metrics: {
      enabled: read.bool("METRICS", true),
      host: read.string("METRICS_HOST", "127.0.0.1"),
      port: read.int("METRICS_PORT", { min: 0, max: 65_535, fallback: 9464 }),
    },
  };
}

function readTokenMetadata(read: Reader, localChain: boolean): TokenMetadataConfig {
  const gateway = (name: string, fallback: string) => read.url(name, fallback).replace(/\/*$/, "/");
  return {
    ipfsGateway: gateway("IPFS_GATEWAY", "https://ipfs.io/ipfs/"),
    arweaveGateway: gateway("ARWEAVE_GATEWAY", "https://arweave.net/"),
    // The local demo serves its own metadata from this machine.
    allowPrivate: read.bool("METADATA_FETCH_ALLOW_PRIVATE", localChain),
    fetchTimeoutMs: read.int("METADATA_FETCH_TIMEOUT_MS", { min: 100, max: 120_000, fallback: 10_000 }),
    maxBytes: read.int("METADATA_FETCH_MAX_BYTES", { min: 1024, max: 64 * 1024 * 1024, fallback: 1024 * 1024 }),
    ttlS: read.int("METADATA_TTL_SECONDS", { min: 1, max: 365 * 86_400, fallback: 86_400 }),
    errorTtlS: read.int("METADATA_ERROR_TTL_SECONDS", { min: 1, max: 365 * 86_400, fallback: 600 }),
    waitMs: read.int("METADATA_WAIT_MS", { min: 0, max: 60_000, fallback: 1_500 }),
    concurrency: read.int("METADATA_FETCH_CONCURRENCY", { min: 1, max: 1_000, fallback: 16 }),
    hostConcurrency: read.int("METADATA_FETCH_HOST_CONCURRENCY", { min: 1, max: 1_000, fallback: 4 }),
    refreshRateLimit: read.int("METADATA_REFRESH_RATE_LIMIT", { min: 1, max: 1_000_000, fallback: 30 }),
  };
}

/** `RPC_URL_<NAME>` for every built-in network (`matic-mainnet` → `RPC_URL_MATIC_MAINNET`); unknown names are refused. */
function readRpcUrls(env: Env): Record<string, string> {
  const byVariable = new Map(Object.keys(NETWORKS).map((name) => [rpcEnvName(name), name]));
  const urls: Record<string, string> = {};
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith("RPC_URL_") || value === undefined || value === "") continue;
    const name = byVariable.get(variable);
    if (!name) throw new ConfigError(variable, `one of ${[...byVariable.keys()].join(", ")}`, variable);
    if (!isHttpUrl(value)) throw new ConfigError(variable, "an http(s) URL", value);
    urls[name] = value;
  }
  return urls;
}

/** `INDEXER_START_BLOCK_<NAME>` and `INDEXER_CONTRACTS_<NAME>` (comma-separated addresses) per network. */
function readIndexerTargets(read: Reader, networks: string[]) {
  const startBlocks: Record<string, number> = {};
  const contracts: Record<string, string[]> = {};
  for (const name of networks) {
    const suffix = name.toUpperCase().replace(/-/g, "_");
    startBlocks[name] = read.int(`INDEXER_START_BLOCK_${suffix}`, { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 });
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
  const header = read.string("LOGIN_MESSAGE_HEADER", "Wallet Login");
  // One line of the four-line message: a line break would let the header fake the lines below it.
  if (/[\r\n]/.test(header) || header.length > 100)
    throw new ConfigError("LOGIN_MESSAGE_HEADER", "one line of at most 100 characters", header);
  return header;
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

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** Typed reads of environment variables; each failure names the variable and what it expects. */
export class Reader {
  constructor(private readonly env: Env) {}

  optional(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === "" ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  int(name: string, { min, max, fallback }: { min: number; max: number; fallback: number }): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || value < min || value > max) {
      throw new ConfigError(name, `an integer from ${min} to ${max}`, raw);
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (raw === "true" || raw === "1") return true;
    if (raw === "false" || raw === "0") return false;
    throw new ConfigError(name, "true or false", raw);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(name, `one of ${allowed.join(", ")}`, raw);
    return raw as T;
  }

  url(name: string, fallback: string): string {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!isHttpUrl(raw)) throw new ConfigError(name, "an http(s) URL", raw);
    return raw;
  }
}
