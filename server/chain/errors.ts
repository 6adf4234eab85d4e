import type { BodyRefusals } from "../lib/bounded-read";
import { DomainError, type ErrorKind } from "../lib/domain-error";
import { meantNetwork, NETWORKS, rpcEnvName } from "./registry";

/**
 * A network name that is not in the registry (docs/configuration.md, "Networks"): the refusal names the networks this
 * service has a node for (`served`), and the one the client likely meant (docs/api.md, "Wire rules").
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
 * How a provider's answer is refused when it cannot be read (rawRpc's and the ethers transport's): past `limit`
 * (RPC_MAX_ANSWER_BYTES) as ANSWER_TOO_LARGE, in an encoding it does not read as BAD_DATA. `prefix` starts each
 * message (rawRpc's name the method, as docs/runbooks.md quotes them).
 */
export function answerRefusals(limit: number, prefix = ""): BodyRefusals {
  const fail = (message: string, code: string) => Object.assign(new Error(prefix + message), { code });
  return {
    tooLarge: () => fail(`the answer exceeds RPC_MAX_ANSWER_BYTES (${limit} bytes)`, ANSWER_TOO_LARGE),
    unsupported: (encoding) => fail(`the answer's content-encoding ${encoding} is not one it reads`, "BAD_DATA"),
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
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "TIMEOUT") return nodeTimedOut(network);
  if (typeof code === "string" && UPSTREAM_CODES.has(code)) return nodeFailed(network);
  return undefined;
}
