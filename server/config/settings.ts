import path from "node:path";
import { getAddress } from "ethers";
import { DEFAULT_MAX_ANSWER_BYTES } from "../chain/errors";
import { NETWORKS, RPC_URLS, rpcEnvName } from "../chain/registry";
import {
  addresses,
  bool,
  httpUrl,
  httpUrls,
  int,
  Invalid,
  isAddress,
  oneOf,
  postgresUrl,
  postgresUrls,
  text,
  type Parser,
} from "./parsers";

/**
 * Every environment variable the service reads, in one list: each entry says how its value is parsed and where it goes
 * in the configuration (`path`), whose type is computed from the list; server/config/index.ts reads the environment
 * through it, `npm run config:docs` writes docs/reference/configuration.md and .env.example from it, and a test fails when they
 * drift. A new setting is one entry here (docs/guides/development.md, "Adding a setting"); the naming rule is at the top of
 * docs/reference/configuration.md.
 */
export interface Setting {
  /** The variable, or a family with `<NETWORK>` standing for a network name (upper case, dashes as underscores). */
  name: string;
  /** Where its value goes in the configuration, dot-separated (`indexer.pollMs`); a family's is a record by network. */
  path: string;
  /** Reads a value from its text, or refuses it (server/config/parsers.ts has the common ones). */
  parse: Parser<unknown>;
  /** The default, as written in the environment; absent: none (or computed, see `defaultText`). */
  default?: string;
  /** The default as the docs show it when it is computed or absent (e.g. "`true` when no `RPC_URL_*` is set"). */
  defaultText?: string;
  /** One line for the docs table and .env.example. */
  description: string;
  group: Group;
  /** A production deployment must set it (listed first in .env.example). */
  production?: boolean;
  /** Names it had before; `factor` converts an old value to the new unit (seconds to milliseconds: 1000). */
  replaces?: readonly { name: string; factor?: number }[];
  /** An example value for .env.example when there is no default. */
  example?: string;
}

export type Group =
  "service" | "database" | "chain" | "indexer" | "login" | "signed metadata" | "token metadata" | "events" | "webhooks" | "metrics";

export const GROUPS: Record<Group, string> = {
  service: "The service",
  database: "Database",
  chain: "Networks and the embedded chain",
  indexer: "Indexer",
  login: "Login",
  "signed metadata": "Signed metadata (statements posted to `/api/metadata`)",
  "token metadata": "Token metadata (the documents tokenURIs point at)",
  events: "Live events",
  webhooks: "Webhooks (pushed events)",
  metrics: "Metrics",
};

const DAY_MS = 86_400_000;

export const SETTINGS = [
  // The service
  { name: "PORT", path: "port", parse: int(0, 65_535), default: "3000", group: "service", description: "HTTP port (`0`: any free port)" },
  {
    name: "HOST",
    path: "host",
    parse: text,
    default: "127.0.0.1",
    group: "service",
    production: true,
    description: "interface to listen on (`0.0.0.0` in a container)",
  },
  {
    name: "ISSUER",
    path: "issuer",
    parse: issuer,
    defaultText: "`http://localhost:$PORT`",
    group: "service",
    production: true,
    example: "https://login.example.com",
    description: "public base URL of the service (the OIDC issuer)",
  },
  {
    name: "TRUST_PROXY",
    path: "trustProxy",
    parse: trustProxy,
    default: "false",
    group: "service",
    production: true,
    description: "`true`, a hop count, or addresses/CIDRs of proxies whose `X-Forwarded-For` is trusted",
  },
  {
    name: "LOG_LEVEL",
    path: "logLevel",
    parse: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
    default: "info",
    group: "service",
    description:
      "`fatal` … `trace`, or `silent`; logs are JSON lines (pino), one per request (`npm start` writes the request lines at `debug` and `trace` only, so that its banner stays on screen)",
  },
  {
    name: "BODY_LIMIT",
    path: "bodyLimit",
    parse: int(1024, 64 * 1024 * 1024),
    default: "1048576",
    group: "service",
    description: "largest request body in bytes (then 413)",
  },
  {
    name: "HTTP_SEND_TIMEOUT_MS",
    path: "sendTimeoutMs",
    parse: int(100, 3_600_000),
    default: "60000",
    group: "service",
    description:
      "how long a client may take none of what the service has written for it (an answer, a part of an export or an event stream) before its connection is closed",
  },
  {
    name: "SHUTDOWN_TIMEOUT_MS",
    path: "shutdownTimeoutMs",
    parse: int(0, 600_000),
    default: "10000",
    group: "service",
    description: "on SIGTERM/SIGINT, how long requests in flight may take before the process exits anyway",
  },
  {
    name: "DATA_DIR",
    path: "dataDir",
    parse: dataDir,
    default: ".data",
    group: "service",
    description: "where local state lives: PGlite's files when `DATABASE_URL` is unset, the embedded chain's demo record",
  },
  // Database
  {
    name: "DATABASE_URL",
    path: "database.url",
    parse: postgresUrl,
    defaultText: "none: embedded PGlite",
    group: "database",
    production: true,
    example: "postgres://user:password@db:5432/app",
    description: "`postgres://` or `postgresql://` URL of the PostgreSQL database",
  },
  {
    name: "DATABASE_POOL_SIZE",
    path: "database.poolSize",
    parse: int(1, 1_000),
    default: "10",
    group: "database",
    description: "connections per instance to PostgreSQL",
  },
  {
    name: "DATABASE_SESSION_URL",
    path: "database.sessionUrl",
    parse: postgresUrl,
    defaultText: "`DATABASE_URL`",
    group: "database",
    example: "postgres://user:password@db-primary:5432/app",
    description:
      "where the connections that need a session of their own go (the indexer's writer lock, the event stream's `LISTEN`): PostgreSQL itself when `DATABASE_URL` goes through PgBouncer in transaction mode",
  },
  {
    name: "DATABASE_PREPARED_STATEMENTS",
    path: "database.preparedStatements",
    parse: bool,
    default: "true",
    group: "database",
    description:
      "`false` sends every statement unnamed, for a pooler in transaction mode that does not carry named prepared statements (PgBouncer before 1.21)",
  },
  {
    name: "DATABASE_ACQUIRE_TIMEOUT_MS",
    path: "database.acquireTimeoutMs",
    parse: int(50, 60_000),
    default: "5000",
    group: "database",
    description:
      "how long a request waits for a free connection of the pool, opening one included (keep it well above a connection's opening); then it is answered 503 `database_busy`",
  },
  {
    name: "DATABASE_STATEMENT_TIMEOUT_MS",
    path: "database.statementTimeoutMs",
    parse: int(100, 3_600_000),
    default: "10000",
    group: "database",
    description:
      "longest a statement may run: PostgreSQL cancels it then (`statement_timeout`, set when each connection starts), and the service gives up on it 1 s later if PostgreSQL did not; then 503 `database_busy`",
  },
  {
    name: "DATABASE_LONG_STATEMENT_TIMEOUT_MS",
    path: "database.longStatementTimeoutMs",
    parse: int(1_000, 86_400_000),
    default: "3600000",
    group: "database",
    description:
      "the same bound for the few statements that need longer: the migrations at start, and the indexer's writes and rollbacks of a range",
  },
  {
    name: "DATABASE_READ_URLS",
    path: "database.replicas.urls",
    parse: postgresUrls,
    defaultText: "none: every read on `DATABASE_URL`",
    group: "database",
    example: "postgres://user:password@db-replica-1:5432/app,postgres://user:password@db-replica-2:5432/app",
    description:
      "comma-separated `postgres://` URLs of streaming replicas of `DATABASE_URL` that serve the index reads of the data routes and `GET /token`, in turn; needs `DATABASE_URL`",
  },
  {
    name: "DATABASE_READ_MAX_LAG_BLOCKS",
    path: "database.replicas.maxLagBlocks",
    parse: int(0, 1_000_000),
    default: "2",
    group: "database",
    description:
      "a replica whose index is more blocks behind the primary's than this is skipped: the read goes to the primary and the replica rests for `DATABASE_READ_RETRY_MS`",
  },
  {
    name: "DATABASE_READ_LAG_CHECK_MS",
    path: "database.replicas.lagCheckMs",
    parse: int(50, 60_000),
    default: "1000",
    group: "database",
    description: "how long the primary's indexed block, which replicas' answers are compared with, is reused before it is read again",
  },
  {
    name: "DATABASE_READ_RETRY_MS",
    path: "database.replicas.retryMs",
    parse: int(100, 3_600_000),
    default: "5000",
    group: "database",
    description: "how long a replica found down or behind is left out before it is tried again",
  },
  {
    name: "DATABASE_READ_CONNECT_TIMEOUT_MS",
    path: "database.replicas.connectTimeoutMs",
    parse: int(50, 60_000),
    default: "1000",
    group: "database",
    description: "how long connecting to a replica (or waiting for a free connection to it) may take before the read goes to the primary",
  },
  {
    name: "DATABASE_READ_TIMEOUT_MS",
    path: "database.replicas.readTimeoutMs",
    parse: int(100, 600_000),
    default: "2000",
    group: "database",
    description:
      "longest a read on a replica may take (the same two bounds as `DATABASE_STATEMENT_TIMEOUT_MS`); past it the replica is skipped as down and the read goes to the primary",
  },
  // Networks and the embedded chain
  {
    name: RPC_URLS,
    path: "rpcUrls",
    parse: httpUrls,
    defaultText: "none",
    group: "chain",
    production: true,
    example: "https://eth.example/v1",
    description:
      'JSON-RPC URL of a network, e.g. `RPC_URL_MAINNET`, `RPC_URL_MATIC_MAINNET` (dashes become underscores); several, comma-separated, are used with failover: each call goes to the healthy one that answers fastest (docs/operations/running.md, "Several providers per network")',
  },
  {
    name: "RPC_PROBE_INTERVAL_MS",
    path: "rpcProbeIntervalMs",
    parse: int(100, 3_600_000),
    default: "30000",
    group: "chain",
    description:
      "how long a provider URL may go without a call before the instance sends it an `eth_blockNumber` of its own, so that its health and `rpc_provider_up` stay current when the instance is idle",
  },
  {
    name: "RPC_COOLDOWN_MS",
    path: "rpcCooldownMs",
    parse: int(100, 600_000),
    default: "5000",
    group: "chain",
    description:
      "how long a provider that failed (transport error, HTTP error, timeout, 429) is passed over while a network has another; it doubles with each failure in a row, up to 32 times this",
  },
  {
    name: "RPC_TIMEOUT_MS",
    path: "rpcTimeoutMs",
    parse: int(100, 300_000),
    default: "10000",
    group: "chain",
    description:
      "timeout of one JSON-RPC call, the reading of its answer and waits for a rate-limited provider included (then 504 `upstream_timeout`, or 503 `upstream_rate_limited` after HTTP 429s)",
  },
  {
    name: "RPC_MAX_ANSWER_BYTES",
    // At most 500 MiB: V8's longest string is 24 characters short of 512 MiB, and an answer is parsed as one.
    path: "rpcMaxAnswerBytes",
    parse: int(1024 * 1024, 500 * 1024 * 1024),
    default: String(DEFAULT_MAX_ANSWER_BYTES),
    group: "chain",
    description:
      "largest answer read of a JSON-RPC call, after decompression; past it the read stops and the call fails (502 `upstream_error`): the indexer asks for fewer blocks, and a single block past it stalls that network's index, logged, until this is raised (docs/reference/indexer.md)",
  },
  {
    name: "HEAD_CACHE_MS",
    path: "headCacheMs",
    parse: int(0, 60_000),
    default: "500",
    group: "chain",
    description: "how long a network's latest block number is reused",
  },
  {
    name: "FINALITY_DEPTH",
    path: "finalityDepth",
    parse: int(0, 100_000),
    default: "64",
    group: "chain",
    description: "blocks behind the head after which a block is final (its timestamp is then cached for good)",
  },
  {
    name: "DEFAULT_NETWORK",
    path: "defaultNetwork",
    parse: oneOf(Object.keys(NETWORKS)),
    defaultText: "`localhost` with the embedded chain, else `mainnet`",
    group: "chain",
    description: "network used when a request names none",
  },
  {
    name: "LOCAL_CHAIN",
    path: "localChain",
    parse: bool,
    defaultText: "`true` when no `RPC_URL_*` is set",
    group: "chain",
    description: "start the embedded Hardhat node and deploy the demo",
  },
  {
    name: "LOCAL_CHAIN_PORT",
    path: "localChainPort",
    parse: int(0, 65_535),
    default: "8545",
    group: "chain",
    description: "port of the embedded node (a free one if taken; `0`: any free port)",
  },
  {
    name: "CONVERTERS",
    path: "converters",
    parse: converters,
    defaultText: "none (`npm start`: the demo converter)",
    group: "chain",
    example: "mainnet:0xAbc…,sepolia:0xDef…",
    description:
      "converters the holders' page `/convert` offers: comma-separated `<network>:<address>` on networks with an RPC URL, e.g. `mainnet:0xAbc…,sepolia:0xDef…`",
  },
  // Indexer
  {
    name: "INDEXER",
    path: "indexer.enabled",
    parse: bool,
    default: "true",
    group: "indexer",
    description: "run the ERC-721 indexer inside the service; `false` where it runs as its own process (`npm run indexer`)",
  },
  {
    name: "INDEXER_POLL_MS",
    path: "indexer.pollMs",
    parse: int(50, 60_000),
    default: "1000",
    group: "indexer",
    description: "how often the indexer looks for a new head once caught up",
  },
  {
    name: "INDEXER_FULL_DISK_PAUSE_MS",
    path: "indexer.fullDiskPauseMs",
    parse: int(1_000, 3_600_000),
    default: "60000",
    group: "indexer",
    description:
      "how long the indexer waits after the database refused a range for a full disk before it fetches and writes it again (docs/operations/runbooks.md)",
  },
  {
    name: "INDEXER_MAX_RANGE",
    path: "indexer.maxRange",
    parse: int(1, 1_000_000),
    default: "10000",
    group: "indexer",
    description: "widest `eth_getLogs` range in blocks (it adapts below this to what the node accepts)",
  },
  {
    name: "INDEXER_LOG_LAG_BLOCKS",
    path: "indexer.logLagBlocks",
    parse: int(0, 1_000_000),
    default: "128",
    group: "indexer",
    description:
      "how far behind the head a provider's log index may trail: an `eth_getLogs` answer is proven complete (docs/reference/indexer.md) for the blocks this near the head before the cursor moves past them (0: trust every answer)",
  },
  {
    name: "INDEXER_MAX_CONSECUTIVE",
    path: "indexer.maxConsecutive",
    // OpenZeppelin's ERC721Consecutive mints at most 5,000 ids per event, "to accommodate off-chain indexers".
    parse: int(1, 100_000),
    default: "5000",
    group: "indexer",
    description:
      "most ids one ERC-2309 `ConsecutiveTransfer` is expanded into; a longer range is recorded as skipped and its contract's answers carry `X-Index-Complete: false`",
  },
  {
    name: "INDEXER_MAX_CONSECUTIVE_PER_BLOCK",
    path: "indexer.maxConsecutivePerBlock",
    parse: int(1, 10_000_000),
    default: "50000",
    group: "indexer",
    description:
      "most ids the ERC-2309 `ConsecutiveTransfer` logs of one block are expanded into, in log order; a range that would pass it is recorded as skipped, as a range longer than `INDEXER_MAX_CONSECUTIVE` is (a log of a few thousand gas can claim 5,000 ids)",
  },
  {
    name: "INDEXER_START_BLOCK_<NETWORK>",
    path: "indexer.startBlocks",
    parse: int(0, Number.MAX_SAFE_INTEGER),
    default: "0",
    group: "indexer",
    description: "first block indexed on a network (e.g. the deploy block of the first contract you care about)",
  },
  {
    name: "INDEXER_CONTRACTS_<NETWORK>",
    path: "indexer.contracts",
    parse: addresses,
    defaultText: "all contracts",
    group: "indexer",
    example: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    description: "comma-separated contracts to index on a network",
  },
  // Login
  {
    name: "LOGIN_MESSAGE_HEADER",
    path: "login.messageHeader",
    parse: messageHeader,
    default: "Wallet Login",
    group: "login",
    description: "first line of the sign-in message (one line, ≤ 100 characters)",
  },
  {
    name: "LOGIN_RATE_LIMIT",
    path: "login.rateLimit",
    parse: int(1, 1_000_000),
    default: "120",
    group: "login",
    description: "requests per minute and IP on each of `/api/authorize`, `/api/login` and the token endpoints (then 429)",
  },
  {
    name: "DATA_RATE_LIMIT",
    path: "rateLimits.data",
    parse: int(1, 1_000_000),
    default: "600",
    group: "service",
    description:
      "requests per minute and IP (an IPv6 address by its /64) on all the data routes together, `/token` and its refresh and each `/events` stream included (then 429)",
  },
  {
    name: "HOLDERS_SNAPSHOT_MAX_TRANSFERS",
    path: "snapshots.maxTransfers",
    parse: int(1, 100_000_000),
    default: "1000000",
    group: "service",
    description:
      "most transfers a contract may have in the index for its holders at a block (`GET /holders/…?block=`), which reads them all for each page; past it, 400 `snapshot_too_large`",
  },
  {
    name: "SPAM_CONTRACTS",
    path: "spam.contracts",
    parse: converters,
    defaultText: "none",
    group: "service",
    example: "mainnet:0xAbc…",
    description:
      "collections the operator marks as spam whatever the rules say: comma-separated `<network>:<address>`; their verdict's reason is `OperatorMarkedSpam` (docs/reference/collections.md#spam)",
  },
  {
    name: "NOT_SPAM_CONTRACTS",
    path: "spam.notContracts",
    parse: converters,
    defaultText: "none",
    group: "service",
    example: "mainnet:0xDef…",
    description:
      "collections the operator marks as not spam whatever the rules say: comma-separated `<network>:<address>`; their verdict's reason is `OperatorMarkedNotSpam`",
  },
  {
    name: "SPAM_CLASSIFIER",
    path: "spam.classifier",
    parse: bool,
    default: "true",
    group: "service",
    description:
      "run the spam classifier in this instance; `false` on all but one of many instances sharing a database (they all serve its verdicts, and each one running it repeats the same work)",
  },
  {
    name: "SPAM_CLASSIFY_INTERVAL_MS",
    path: "spam.intervalMs",
    parse: int(50, 600_000),
    default: "2000",
    group: "service",
    description:
      "how often each instance classifies the collections whose transfers changed (at most 100 per network and pass): the rules run when the index changes, never per read",
  },
  {
    name: "COLLECTION_REFRESH_COOLDOWN_MS",
    path: "collectionRefresh.cooldownMs",
    parse: int(0, 7 * DAY_MS),
    default: String(3_600_000),
    group: "token metadata",
    description:
      "after a contract-wide metadata refresh (`POST /collection/…/refresh`) ends, how long a new one of the same contract is refused on this instance (429 `refresh_cooldown`)",
  },
  {
    name: "CONVERTER_RATE_LIMIT",
    path: "rateLimits.converter",
    parse: int(1, 1_000_000),
    default: "120",
    group: "service",
    description: "requests per minute and IP (an IPv6 address by its /64) on the converter's two read routes together (then 429)",
  },
  {
    name: "METADATA_POST_RATE_LIMIT",
    path: "rateLimits.metadataPosts",
    parse: int(1, 1_000_000),
    default: "600",
    group: "service",
    description:
      "signed-metadata posts per minute and IP (an IPv6 address by its /64), on the three `POST /metadata/…` routes together (then 429)",
  },
  {
    name: "RATE_LIMIT_STORE",
    path: "rateLimits.store",
    parse: oneOf(["database", "memory"]),
    default: "database",
    group: "service",
    description:
      "where the rate limits count: `database`, one count for all the instances on the PostgreSQL database (an embedded PGlite database counts in memory); `memory`, a count per instance",
  },
  {
    name: "LOGIN_MAX_OPEN_CHALLENGES",
    path: "login.maxOpenChallenges",
    parse: int(1, 1_000_000),
    default: "100",
    group: "login",
    description:
      "open sign-in messages one client IP (an IPv6 /64) may hold at once, all addresses together (then 429 `too_many_challenges`); raise it for a backend that asks for many users",
  },
  {
    name: "LOGIN_ENS_NETWORK",
    path: "login.ensNetwork",
    parse: oneOf(["off", ...Object.keys(NETWORKS)]),
    defaultText: "`mainnet` when `RPC_URL_MAINNET` is set, `localhost` with the embedded chain, else `off`",
    group: "login",
    description: "network whose ENS gives the `profile` scope's `preferred_username` and `picture` (`off`: none)",
  },
  {
    name: "LOGIN_ENS_TTL_MS",
    path: "login.ensTtlMs",
    parse: int(1000, 7 * DAY_MS),
    default: "300000",
    group: "login",
    description: "how long an address's ENS name and avatar are used before a login looks them up again (in the background)",
  },
  {
    name: "OIDC_JWKS",
    path: "login.jwks",
    parse: jwks,
    defaultText: "none: keys made once and kept in the database",
    group: "login",
    description: "ID-token signing keys, a JWK Set of private RSA keys (the first signs)",
  },
  {
    name: "LOGIN_REGISTRATION_ACCESS_TOKEN",
    path: "login.registrationAccessToken",
    parse: accessToken,
    defaultText: "none: dynamic client registration is off",
    group: "login",
    description:
      "turns on dynamic client registration (RFC 7591, `POST /register`): the initial access token a registration must carry as `Authorization: Bearer` (at least 32 characters)",
  },
  // Signed metadata
  {
    name: "SIGNED_METADATA_REQUIRE_BINDING",
    path: "metadata.requireBinding",
    parse: bool,
    default: "false",
    group: "signed metadata",
    replaces: [{ name: "METADATA_REQUIRE_BINDING" }],
    description: "refuse metadata signed over the Base64 alone (the predecessor's unbound form)",
  },
  {
    name: "SIGNED_METADATA_MAX_BYTES",
    path: "metadata.maxBytes",
    parse: int(256, 16 * 1024 * 1024),
    default: "65536",
    group: "signed metadata",
    replaces: [{ name: "METADATA_MAX_BYTES" }],
    description: "largest decoded signed metadata accepted, in bytes (then 413)",
  },
  {
    name: "SIGNED_METADATA_ANSWER_MAX_ISSUERS",
    path: "metadata.answerMaxIssuers",
    parse: int(1, 1000),
    default: "16",
    group: "signed metadata",
    description:
      "most issuers' statements one answer carries (`GET /metadata/…`, `signed` of `GET /token`): those named in `issuers` first, then the most recent; the others are counted in `X-Signed-Omitted`",
  },
  // Token metadata
  {
    name: "IPFS_GATEWAY",
    path: "tokenMetadata.ipfsGateway",
    parse: gateway,
    default: "https://ipfs.io/ipfs/",
    group: "token metadata",
    description: "where `ipfs://<cid>/<path>` token and image URIs are read (`<gateway><cid>/<path>`)",
  },
  {
    name: "ARWEAVE_GATEWAY",
    path: "tokenMetadata.arweaveGateway",
    parse: gateway,
    default: "https://arweave.net/",
    group: "token metadata",
    description: "where `ar://<id>` URIs are read",
  },
  {
    name: "METADATA_FETCH_ALLOW_PRIVATE",
    path: "tokenMetadata.allowPrivate",
    parse: bool,
    defaultText: "`true` with the embedded chain, else `false`",
    group: "token metadata",
    description: "let metadata fetches reach loopback, private and link-local addresses (never in production)",
  },
  {
    name: "METADATA_FETCH_TIMEOUT_MS",
    path: "tokenMetadata.fetchTimeoutMs",
    parse: int(100, 120_000),
    default: "10000",
    group: "token metadata",
    description: "one metadata fetch, redirects and body included",
  },
  {
    name: "METADATA_FETCH_MAX_BYTES",
    path: "tokenMetadata.maxBytes",
    parse: int(1024, 64 * 1024 * 1024),
    default: "1048576",
    group: "token metadata",
    description: "largest metadata document (after decompression) or `data:` tokenURI, in bytes",
  },
  {
    name: "METADATA_FETCH_TTL_MS",
    path: "tokenMetadata.ttlMs",
    parse: int(1_000, 365 * DAY_MS),
    default: "86400000",
    group: "token metadata",
    replaces: [{ name: "METADATA_TTL_SECONDS", factor: 1000 }],
    description: "how long resolved token metadata is served from the cache before it is read again",
  },
  {
    name: "METADATA_FETCH_ERROR_TTL_MS",
    path: "tokenMetadata.errorTtlMs",
    parse: int(1_000, 365 * DAY_MS),
    default: "600000",
    group: "token metadata",
    replaces: [{ name: "METADATA_ERROR_TTL_SECONDS", factor: 1000 }],
    description: "how long a failed read is kept before it is tried again",
  },
  {
    name: "METADATA_FETCH_WAIT_MS",
    path: "tokenMetadata.waitMs",
    parse: int(0, 60_000),
    default: "1500",
    group: "token metadata",
    replaces: [{ name: "METADATA_WAIT_MS" }],
    description: 'how long a token read waits for its metadata before answering from the cache (or `"pending"`)',
  },
  {
    name: "METADATA_FETCH_CONCURRENCY",
    path: "tokenMetadata.concurrency",
    parse: int(1, 1_000),
    default: "16",
    group: "token metadata",
    description: "metadata reads running at once per instance",
  },
  {
    name: "METADATA_FETCH_HOST_CONCURRENCY",
    path: "tokenMetadata.hostConcurrency",
    parse: int(1, 1_000),
    default: "4",
    group: "token metadata",
    description: "of which at most this many per resolved address and per contract (tokenURI calls have their own limit per network)",
  },
  {
    name: "METADATA_FETCH_REFRESH_RATE_LIMIT",
    path: "tokenMetadata.refreshRateLimit",
    parse: int(1, 1_000_000),
    default: "30",
    group: "token metadata",
    replaces: [{ name: "METADATA_REFRESH_RATE_LIMIT" }],
    description: "metadata refreshes per minute and IP (then 429)",
  },
  {
    name: "METADATA_ANSWERS_MAX_BYTES",
    path: "tokenMetadata.answersMaxBytes",
    parse: int(64 * 1024, 256 * 1024 * 1024),
    default: String(4 * 1024 * 1024),
    group: "token metadata",
    description:
      "most token-metadata bytes one answer carries (`GET /token`, its refresh, inventory with `metadata=true`); items past it are marked `metadataOmitted` and counted in `X-Metadata-Omitted`",
  },
  {
    name: "METADATA_ANSWERS_CONCURRENCY",
    path: "tokenMetadata.answersConcurrency",
    parse: int(1, 1_000),
    default: "4",
    group: "token metadata",
    description:
      "answers with token metadata being made at once per instance (each gives its slot back once it is handed to its connection); 16 more per slot wait, then 503 `metadata_busy`",
  },
  {
    name: "METADATA_SWEEP_BATCH",
    path: "tokenMetadata.sweepBatch",
    parse: int(0, 1_000),
    default: "4",
    group: "token metadata",
    description:
      "cached metadata documents an ERC-4906 or ERC-1155 `URI` event made stale that the background sweep reads again at once per instance (0: none, they are read when asked)",
  },
  {
    name: "METADATA_SWEEP_INTERVAL_MS",
    path: "tokenMetadata.sweepIntervalMs",
    parse: int(10, 3_600_000),
    default: "1000",
    group: "token metadata",
    description: "pause between two batches of the background sweep of stale metadata documents",
  },
  // Live events
  {
    name: "EVENTS_MAX_SUBSCRIBERS",
    path: "events.maxSubscribers",
    parse: int(0, 1_000_000),
    default: "1000",
    group: "events",
    description: "open live-event streams per instance (then 503 `too_many_subscribers`)",
  },
  {
    name: "EVENTS_HEARTBEAT_MS",
    path: "events.heartbeatMs",
    parse: int(100, 300_000),
    default: "15000",
    group: "events",
    description: "how often an idle event stream gets a comment line (keeps proxies from closing it)",
  },
  {
    name: "EVENTS_MAX_BUFFERED_BYTES",
    // At least twice the largest socket high-water mark Node uses (64 KiB): a stream waits for its client at the
    // high-water mark, so a client that reads, however slowly, never meets the bound.
    path: "events.maxBufferedBytes",
    parse: int(128 * 1024, 64 * 1024 * 1024),
    default: String(1024 * 1024),
    group: "events",
    description: "unsent bytes one live-event stream may hold before it is destroyed",
  },
  {
    name: "EVENTS_STALL_MS",
    path: "events.stallMs",
    parse: int(100, 600_000),
    default: "30000",
    group: "events",
    description: "how long a live-event stream waits for its client to take what it holds before it is destroyed",
  },
  {
    name: "EVENTS_RING_SIZE",
    // About 1.5 kB each with its event: the default holds a burst of 10,000 transfers twice over in about 30 MB.
    path: "events.ringSize",
    parse: int(0, 1_000_000),
    default: "20000",
    group: "events",
    description:
      "latest changes an instance keeps in memory, from which a live-event stream that fell behind catches up (one further behind reads the change log)",
  },
  // Webhooks
  {
    name: "WEBHOOKS_SECRET_KEYS",
    path: "webhooks.secretKeys",
    parse: secretKeys,
    defaultText: "a fixed development key with the embedded chain; else unset, and webhooks are off",
    group: "webhooks",
    example: "base64 of 32 random bytes (openssl rand -base64 32)",
    description:
      "keys that encrypt the webhook signing secrets in the database, comma-separated base64 of 32 bytes each: the first encrypts, every one decrypts (rotation)",
  },
  {
    name: "WEBHOOKS_ALLOW_PRIVATE",
    path: "webhooks.allowPrivate",
    parse: bool,
    defaultText: "`true` with the embedded chain, else `false`",
    group: "webhooks",
    description: "let webhook endpoints be loopback, private and link-local addresses (never in production)",
  },
  {
    name: "WEBHOOKS_ALLOW_HTTP",
    path: "webhooks.allowHttp",
    parse: bool,
    defaultText: "`true` with the embedded chain, else `false`",
    group: "webhooks",
    description: "let webhook endpoints be `http://` URLs (else `https://` only)",
  },
  {
    name: "WEBHOOKS_TIMEOUT_MS",
    path: "webhooks.timeoutMs",
    parse: int(100, 60_000),
    default: "10000",
    group: "webhooks",
    description: "one delivery, connection and answer included; past it the attempt failed",
  },
  {
    name: "WEBHOOKS_CONCURRENCY",
    path: "webhooks.concurrency",
    parse: int(0, 1_000),
    default: "16",
    group: "webhooks",
    description: "subscriptions one instance delivers to at once, one request each (0: this instance delivers none)",
  },
  {
    name: "WEBHOOKS_DISABLE_AFTER_MS",
    path: "webhooks.disableAfterMs",
    parse: int(60_000, 30 * DAY_MS),
    default: String(DAY_MS),
    group: "webhooks",
    description: "a subscription whose deliveries fail for this long is disabled, with the last failure kept as the reason",
  },
  {
    name: "WEBHOOKS_RETENTION_MS",
    path: "webhooks.retentionMs",
    parse: int(DAY_MS, 90 * DAY_MS),
    default: String(7 * DAY_MS),
    group: "webhooks",
    description: "how long the change log keeps what a disabled subscription has not delivered, for it to resume when enabled again",
  },
  {
    name: "WEBHOOKS_MAX_FILTERS",
    path: "webhooks.maxFilters",
    parse: int(1, 100_000),
    default: "1000",
    group: "webhooks",
    description: "contracts and owners one subscription may name, together",
  },
  {
    name: "WEBHOOKS_CONFIRMATIONS",
    path: "webhooks.confirmations",
    parse: networkCounts,
    defaultText: "none: 0 on every network (deliver at once)",
    group: "webhooks",
    example: "mainnet:12,polygon:64",
    description:
      "blocks a new subscription waits for on top of a change's block before delivering it, per network, when it names none: comma-separated `<network>:<count>`, each count from 0 to 512 (docs/reference/webhooks.md#confirmations)",
  },
  {
    name: "WEBHOOKS_MAX_PER_CLIENT",
    path: "webhooks.maxPerClient",
    parse: int(1, 100_000),
    default: "25",
    group: "webhooks",
    description: "subscriptions one OAuth client may hold",
  },
  // Metrics
  {
    name: "METRICS",
    path: "metrics.enabled",
    parse: bool,
    default: "true",
    group: "metrics",
    description:
      "collect Prometheus metrics and serve `GET /metrics` on the metrics listener below ([running.md](../operations/running.md#metrics))",
  },
  {
    name: "METRICS_HOST",
    path: "metrics.host",
    parse: text,
    default: "127.0.0.1",
    group: "metrics",
    description: "interface of the metrics listener (`0.0.0.0` in a container scraped from outside)",
  },
  {
    name: "METRICS_PORT",
    path: "metrics.port",
    parse: int(0, 65_535),
    default: "9464",
    group: "metrics",
    description: "port of the metrics listener, never the public `PORT` (`0`: any free port)",
  },
] as const satisfies readonly Setting[];

type Entry = (typeof SETTINGS)[number];

/** Where a setting's value goes in the configuration. */
export type SettingPath = Entry["path"];

/** A setting's value as read: a family's by network, undefined when a setting without a default is not set. */
type ValueOf<E extends Entry> = E["name"] extends `${string}<NETWORK>`
  ? Record<string, ReturnType<E["parse"]>>
  : E extends { default: string }
    ? ReturnType<E["parse"]>
    : ReturnType<E["parse"]> | undefined;

type Nested<Path extends string, Value> = Path extends `${infer Head}.${infer Rest}`
  ? { [Key in Head]: Nested<Rest, Value> }
  : { [Key in Path]: Value };

type Intersection<Union> = (Union extends unknown ? (each: Union) => void : never) extends (all: infer All) => void ? All : never;

/** One object type for an intersection of them, so that editors show the fields rather than the pieces. */
type Tidy<T> = T extends readonly unknown[] ? T : T extends object ? { [Key in keyof T]: Tidy<T[Key]> } : T;

/** Every setting's value at its path, before the rules across settings (`compose`) apply. */
export type Settings = Tidy<Intersection<Entry extends infer E ? (E extends Entry ? Nested<E["path"], ValueOf<E>> : never) : never>>;

/** The variable of the setting at `path`, for messages that name another setting. */
export function variableAt(path: SettingPath): string {
  return SETTINGS.find((setting) => setting.path === path)!.name;
}

/** Refuses the value of the setting at `path` (the loader names the variable it came from); `shown` stands for a secret value. */
export type Refuse = (path: SettingPath, expected: string, shown?: string) => never;

/**
 * The rules across settings: defaults computed from other settings, the database (PostgreSQL, or PGlite under the
 * data directory) and what needs a network with an RPC URL.
 */
export function compose(settings: Settings, refuse: Refuse) {
  const { rpcUrls, login, tokenMetadata, webhooks } = settings;
  const localChain = settings.localChain ?? Object.keys(rpcUrls).length === 0;
  const usable = (network: string) => rpcUrls[network] !== undefined || (localChain && network === "localhost");
  // ENS on mainnet when its node is configured, on the embedded chain in `npm start`.
  const ensNetwork = login.ensNetwork ?? (rpcUrls.mainnet ? "mainnet" : localChain ? "localhost" : "off");
  if (ensNetwork !== "off" && !usable(ensNetwork))
    refuse("login.ensNetwork", `"off" or a network with an RPC URL (${rpcEnvName(ensNetwork)} is not set)`);
  const converters = settings.converters ?? [];
  for (const { network } of converters)
    if (!usable(network)) refuse("converters", `converters on networks with an RPC URL (set ${rpcEnvName(network)})`);
  return {
    ...settings,
    issuer: settings.issuer ?? `http://localhost:${settings.port}`,
    localChain,
    defaultNetwork: settings.defaultNetwork ?? (localChain ? "localhost" : "mainnet"),
    database: database(settings, refuse),
    converters,
    login: { ...login, ensNetwork: ensNetwork === "off" ? undefined : ensNetwork },
    // The local demo serves its own metadata from this machine.
    tokenMetadata: { ...tokenMetadata, allowPrivate: tokenMetadata.allowPrivate ?? localChain },
    // The local demo delivers to receivers on this machine, over http, with a key that protects nothing: the embedded
    // chain never runs in production (server/main.ts refuses it).
    webhooks: {
      ...webhooks,
      secretKeys: webhooks.secretKeys ?? (localChain ? [LOCAL_WEBHOOKS_KEY] : undefined),
      allowPrivate: webhooks.allowPrivate ?? localChain,
      allowHttp: webhooks.allowHttp ?? localChain,
    },
  };
}

export type Config = ReturnType<typeof compose>;

type DatabaseSettings = Settings["database"];

/** The read replicas (docs/operations/running.md, read replicas). */
export type ReplicaConfig = Tidy<Omit<DatabaseSettings["replicas"], "urls"> & { urls: string[] }>;

/** The database; the settings of the pool are absent in configs the tests make (their defaults apply). */
export type DatabaseConfig =
  | Tidy<{ kind: "postgres"; url: string; replicas?: ReplicaConfig } & Partial<Omit<DatabaseSettings, "url" | "replicas">>>
  /** `dataDir: null` keeps the database in memory (tests). */
  | { kind: "pglite"; dataDir: string | null };

/**
 * PostgreSQL when its URL is set, else PGlite under the data directory. The embedded database has no replicas: setting
 * them without PostgreSQL is refused rather than ignored, so an operator does not believe reads are spread when none are.
 */
function database({ database: { url, replicas, ...pool }, dataDir }: Settings, refuse: Refuse): DatabaseConfig {
  const { urls, ...replicaSettings } = replicas;
  if (url === undefined) {
    if (urls !== undefined)
      refuse(
        "database.replicas.urls",
        `to be set only with ${variableAt("database.url")} (the embedded PGlite database has no replicas)`,
        "a list of URLs",
      );
    return { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
  }
  return {
    kind: "postgres",
    url,
    ...pool,
    sessionUrl: pool.sessionUrl ?? url,
    ...(urls ? { replicas: { urls, ...replicaSettings } } : {}),
  };
}

export type TokenMetadataConfig = Config["tokenMetadata"];

export type WebhooksConfig = Config["webhooks"];

/** The key of the embedded chain's webhooks: a constant, as the local demo's data protects nothing. */
const LOCAL_WEBHOOKS_KEY = Buffer.alloc(32, "local development only");

export type ConverterRef = Config["converters"][number];

// The parsers of one setting each.

function issuer(value: string): string {
  return httpUrl(value).replace(/\/+$/, "");
}

/** A gateway's base URL, ending in a slash. */
function gateway(value: string): string {
  return httpUrl(value).replace(/\/*$/, "/");
}

function dataDir(value: string): string {
  return path.resolve(value);
}

/** Fastify's `trustProxy`: whether, and whose, X-Forwarded-For names the client. */
function trustProxy(value: string): boolean | number | string {
  if (value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value; // comma-separated addresses or CIDRs, as Fastify takes them
}

/** `<network>:<address>,…` of known networks, addresses with a valid checksum when mixed case. */
function converters(value: string): { network: string; address: string }[] {
  const expected = "comma-separated <network>:<0x address> of known networks";
  return value.split(",").map((entry) => {
    const [network, address, ...rest] = entry.trim().split(":");
    if (rest.length > 0 || !network || !Object.hasOwn(NETWORKS, network) || !address || !isAddress(address)) throw new Invalid(expected);
    try {
      return { network, address: getAddress(address) };
    } catch {
      throw new Invalid(`${expected} (${address} fails its EIP-55 checksum)`);
    }
  });
}

/** `<network>:<count>,…` of known networks, each count from 0 to the indexer's reorg window (512). */
function networkCounts(value: string): Record<string, number> {
  const expected = "comma-separated <network>:<count> of known networks, each count from 0 to 512";
  const counts: Record<string, number> = {};
  for (const entry of value.split(",")) {
    const [network, count, ...rest] = entry.trim().split(":");
    if (rest.length > 0 || !network || !Object.hasOwn(NETWORKS, network) || !/^\d{1,3}$/.test(count ?? "") || Number(count) > 512)
      throw new Invalid(expected);
    counts[network] = Number(count);
  }
  return counts;
}

function messageHeader(value: string): string {
  // One line of the four-line message: a line break would let the header fake the lines below it.
  if (/[\r\n]/.test(value) || value.length > 100) throw new Invalid("one line of at most 100 characters");
  return value;
}

/** A bearer secret: long enough that it cannot be guessed (the value itself is never shown). */
function accessToken(value: string): string {
  if (value.length < 32 || /\s/.test(value))
    throw new Invalid("at least 32 characters, no spaces", "(a shorter value, or one with spaces)");
  return value;
}

/** Comma-separated base64 of 32 bytes each (AES-256 keys); never shown back. */
function secretKeys(value: string): Buffer[] {
  const keys = value.split(",").map((key) => Buffer.from(key.trim(), "base64"));
  if (keys.some((key) => key.length !== 32)) throw new Invalid("comma-separated base64 of 32 bytes each", "(a value that is not)");
  return keys;
}

function jwks(value: string): { keys: Record<string, unknown>[] } {
  const expected = 'a JSON JWK Set of private RSA keys ({"keys": [{"kty": "RSA", "d": ...}]})';
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Invalid(expected, "(a value that is not JSON)");
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((k) => k && typeof k === "object" && k.kty === "RSA" && typeof k.d === "string")
  ) {
    // Never echo a private key back into a log.
    throw new Invalid(expected, "(a value that is not)");
  }
  return { keys };
}
