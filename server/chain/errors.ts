import type { BodyRefusals } from "../lib/bounded-read";
import { DomainError, type ErrorKind } from "../lib/domain-error";
import { meantNetwork, NETWORKS, rpcEnvName } from "./registry";

/**
 * A network name that is not in the registry (docs/reference/configuration.md, "Networks"): the refusal names the networks this
 * service has a node for (`served`), and the one the client likely meant (docs/reference/api.md, "Wire rules").
 */
export function unknownNetwork(name: string, served: readonly string[]): DomainError {
  const meant = meantNetwork(name, served);
  const hint =
    meant === undefined
      ? ""
      : meant.toLowerCase() === name.toLowerCase()
        ? ` (did you mean "${meant}"?)`
        : ` (did you mean "${meant}", chain id ${NETWORKS[meant].chainId}?)`;
  const serves = served.length === 0 ? "no network" : served.join(", ");
  return new DomainError("invalid", "unknown_network", `Unknown network "${name}"${hint}: this service serves ${serves}`);
}

/** A known network whose node is needed but which has no RPC URL. */
export function networkUnavailable(name: string): DomainError {
  return new DomainError("unavailable", "network_unavailable", `Network "${name}" is not configured (${rpcEnvName(name)})`);
}

/** The node failed to give a usable answer (transport, HTTP, JSON or JSON-RPC error). */
export function nodeFailed(network: string): DomainError {
  return new DomainError("upstream", "upstream_error", `The ${network} node failed to answer`);
}

export function nodeTimedOut(network: string): DomainError {
  return new DomainError("upstream_timeout", "upstream_timeout", `The ${network} node did not answer in time`);
}

/** The provider answers HTTP 429 and its pause outlasts the call's deadline (RPC_TIMEOUT_MS). */
export function rateLimited(network: string, retryAfterSeconds: number): DomainError {
  return new DomainError(
    "unavailable",
    "upstream_rate_limited",
    `The ${network} node is rate limiting our calls; try again later`,
    retryAfterSeconds,
  );
}

/** The node answers, but for another chain than the registry names: its answers would be about the wrong chain. */
export function wrongChain(network: string, served: number, expected: number): DomainError {
  return new DomainError("upstream", "upstream_error", `The ${network} node serves chain ${served}, not ${expected}`);
}

/**
 * The code of rawRpc's failure when an answer is larger than RPC_MAX_ANSWER_BYTES: the node failed to give a usable
 * answer, but not by the provider's fault (every provider of the chain holds the same logs), so no other is asked.
 */
export const ANSWER_TOO_LARGE = "ANSWER_TOO_LARGE";

/**
 * The codes of the chain layer's own faults, ethers' names but for ANSWER_TOO_LARGE. They stay ethers' because ethers
 * reads them on what its transport throws (a signer polling for a sent transaction gives up on BAD_DATA,
 * NETWORK_ERROR and CANCELLED; a call's CALL_EXCEPTION is what its `isCallException` and CCIP read look for), and
 * because this layer reads an ethers error and one of its own the same way ({@link errorCodeOf}).
 */
export type ChainErrorCode =
  "TIMEOUT" | "CANCELLED" | "NETWORK_ERROR" | "SERVER_ERROR" | "BAD_DATA" | "UNKNOWN_ERROR" | "CALL_EXCEPTION" | typeof ANSWER_TOO_LARGE;

/** A node's JSON-RPC error, as its answer carried it. */
export interface NodeRpcError {
  code?: unknown;
  message?: unknown;
  data?: unknown;
}

/** What a {@link ChainError} carries besides its message and code, in the fields ethers' errors have them. */
export interface ChainErrorDetails {
  /** The node's JSON-RPC error, when the node answered with one (rawRpc's UNKNOWN_ERROR). */
  error?: NodeRpcError;
  /** Revert data of a CALL_EXCEPTION. */
  data?: string;
  /** `responseStatus`: the HTTP status line of an answer that was not 2xx; `error`: a CALL_EXCEPTION's node error. */
  info?: { responseStatus?: string; error?: unknown };
  /** An answer that was not 2xx: its status and its Retry-After ({@link rateLimitOf}). */
  response?: { statusCode: number; headers: { "retry-after"?: string } };
}

/**
 * A fault of a call to a node as the chain layer itself raises it (rawRpc, the ethers transport, rawCall): a class
 * for `instanceof`, with ethers' `code` and fields so that ethers and the readers of this module take it as they
 * take ethers' own. Its name stays "Error", as the messages in the logs showed it before it had a class.
 */
export class ChainError extends Error implements ChainErrorDetails {
  declare readonly error?: NodeRpcError;
  declare readonly data?: string;
  declare readonly info?: ChainErrorDetails["info"];
  declare readonly response?: ChainErrorDetails["response"];

  constructor(
    message: string,
    readonly code: ChainErrorCode,
    details: ChainErrorDetails = {},
  ) {
    super(message);
    Object.assign(this, details);
  }
}

/**
 * How a provider's answer is refused when it cannot be read (rawRpc's and the ethers transport's): past `limit`
 * (RPC_MAX_ANSWER_BYTES) as ANSWER_TOO_LARGE, in an encoding it does not read as BAD_DATA. `prefix` starts each
 * message (rawRpc's name the method, as docs/operations/runbooks.md quotes them).
 */
export function answerRefusals(limit: number, prefix = ""): BodyRefusals {
  return {
    tooLarge: () => new ChainError(`${prefix}the answer exceeds RPC_MAX_ANSWER_BYTES (${limit} bytes)`, ANSWER_TOO_LARGE),
    unsupported: (encoding) => new ChainError(`${prefix}the answer's content-encoding ${encoding} is not one it reads`, "BAD_DATA"),
  };
}

/** The default of RPC_MAX_ANSWER_BYTES, and the bound of a provider made elsewhere (a script's, a test's). */
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/** ethers error codes that mean "the node did not give a usable answer" (transport, HTTP, JSON, JSON-RPC error). */
const UPSTREAM_CODES = new Set([
  "SERVER_ERROR",
  "NETWORK_ERROR",
  "UNKNOWN_ERROR",
  "BAD_DATA",
  "UNSUPPORTED_OPERATION",
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  ANSWER_TOO_LARGE,
]);

/** Kinds of an already translated error that mean "the node cannot answer now": not configured, failed, too slow. */
const NODE_UNAVAILABLE: ReadonlySet<ErrorKind> = new Set<ErrorKind>(["unavailable", "upstream", "upstream_timeout"]);

/**
 * Translates an RPC failure into the chain's error: a timeout is `upstream_timeout`, any other transport or node fault
 * `upstream_error`; one already translated is returned as it is. Returns undefined for anything else — notably a
 * revert (`CALL_EXCEPTION`), whose meaning is the caller's to decide, and our own bugs, which must stay 500s.
 */
export function upstreamError(error: unknown, network: string): DomainError | undefined {
  if (error instanceof DomainError) return NODE_UNAVAILABLE.has(error.kind) ? error : undefined;
  const code = errorCodeOf(error);
  if (code === "TIMEOUT") return nodeTimedOut(network);
  if (code !== undefined && UPSTREAM_CODES.has(code)) return nodeFailed(network);
  return undefined;
}

/*
 * The readers below are the one place of the server that looks into an error ethers or Node made: ethers' (a `code`
 * and the fields of its ErrorCode types), Node's socket, DNS, HTTP and zlib errors (a `code` such as ECONNREFUSED).
 * Everywhere else a fault of ours is a ChainError, a DomainError or a feature's own class, told apart with `instanceof`.
 */

/** The code of an error: a ChainError's, ethers' (TIMEOUT, SERVER_ERROR…), Node's (ECONNREFUSED, ENOTFOUND…). */
export function errorCodeOf(error: unknown): string | undefined {
  if (error instanceof ChainError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * The node's JSON-RPC error a failure carries (rawRpc's, or an ethers error's `error` field), undefined when it has
 * none: a failure that carries one is the node's answer (a revert, a refused range), not the provider's fault.
 */
export function nodeErrorOf(error: unknown): NodeRpcError | undefined {
  if (error instanceof ChainError) return error.error;
  const inner = (error as { error?: unknown } | null)?.error;
  return inner ? (inner as NodeRpcError) : undefined;
}

/**
 * A rate limit a provider reports inside an HTTP 200, as a JSON-RPC error: Infura's -32005 "limit exceeded" (and its
 * "daily request count exceeded, request rate limited"), others' "rate limit", "too many requests", "exceeded its
 * compute units" or "capacity". Infura's -32005 also refuses an eth_getLogs range ("query returned more than 10000
 * results"), which is the node's answer, not a rate limit: the words tell them apart.
 */
const RATE_LIMIT_WORDS = /^limit exceeded$|rate.?limit|too many requests|compute units|exceeded .*capacity|request count exceeded/i;

/**
 * "header not found": a load-balanced provider whose backend does not have the block asked about (or the head it
 * announced). The chain has it; this backend does not, so the provider failed, as a transport error fails.
 */
const MISSING_HEADER_WORDS = /^header not found$/i;

/**
 * The provider's fault that a JSON-RPC error inside an HTTP 200 reports: a rate limit (treated as an HTTP 429: the
 * provider's backoff, failover, `rate_limited`) or a missing header (a transport error: failover, `transport_error`);
 * undefined for an answer of the node (a revert, a refused range) and for any other error.
 */
export function faultInAnswer(error: unknown): "rate_limited" | "transport_error" | undefined {
  const message = nodeErrorOf(error)?.message;
  if (typeof message !== "string") return undefined;
  if (RATE_LIMIT_WORDS.test(message.trim())) return "rate_limited";
  if (MISSING_HEADER_WORDS.test(message.trim())) return "transport_error";
  return undefined;
}

/**
 * `results`, the answers of one JSON-RPC send as ethers' `_send` resolves them (errors included, not thrown), or a
 * ChainError for the first whose error reports the provider's fault ({@link faultInAnswer}): thrown where the pool of
 * providers sees it, so that it pauses or cools that provider down and sends the call elsewhere.
 */
export function withFaultsThrown<R extends object>(results: R[]): R[] {
  for (const result of results) {
    // ethers types them as results; an error answer is one too at run time.
    const error = (result as { error?: NodeRpcError }).error;
    if (error && faultInAnswer(result)) throw new ChainError(String(error.message), "UNKNOWN_ERROR", { error });
  }
  return results;
}

/**
 * For an HTTP 429, or a rate limit reported inside an HTTP 200 ({@link faultInAnswer}): the pause its Retry-After asks
 * for (ms), or null without a usable one; undefined for any other error. Reads ethers' errors (`response`) and
 * rawRpc's alike.
 */
export function rateLimitOf(error: unknown): number | null | undefined {
  const response = (error as { response?: { statusCode?: number; headers?: Record<string, string> } } | null)?.response;
  if (response?.statusCode !== 429) return faultInAnswer(error) === "rate_limited" ? null : undefined;
  const header = response.headers?.["retry-after"]?.trim();
  if (!header) return null;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  // An HTTP date is on the node's wall clock, so the wait until it is measured on ours; the pause then runs on the app's.
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/**
 * What a failed call says of itself in words, for the readers that go by the wording of providers (a range refused
 * as too large): the node's JSON-RPC error and its code, the HTTP status line, ethers' short message and the message.
 */
export function failureWords(error: unknown): { rpcCode?: unknown; responseStatus: string; text: string } {
  const e = error as { info?: { responseStatus?: string }; shortMessage?: string; message?: string } | null;
  const rpcError = nodeErrorOf(error);
  const responseStatus = e?.info?.responseStatus ?? "";
  return {
    rpcCode: rpcError?.code,
    responseStatus,
    text: `${(rpcError?.message as string | undefined) ?? ""} ${responseStatus} ${e?.shortMessage ?? ""} ${e?.message ?? ""}`,
  };
}
