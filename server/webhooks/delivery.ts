import http from "node:http";
import https from "node:https";
import { errorCodeOf } from "../chain/errors";
import { Deadline } from "../lib/deadline";
import { checkLiteralHost, guardedLookup, OutboundRefusal, type ResolveAll } from "../outbound/guarded-lookup";

/** Bytes of a receiver's answer read at most: what it says past them is not waited for (the socket is closed). */
export const MAX_ANSWER_BYTES = 1_024;

/** Why a delivery failed, as metrics and the delivery log count it. */
export type FailureClass =
  | "status"
  | "rate_limited"
  | "gone"
  | "redirect"
  | "timeout"
  | "connection"
  | "refused_address"
  | "dns"
  /** Nothing was sent: the subscription's secret opens with none of WEBHOOKS_SECRET_KEYS. */
  | "secret";

export type DeliveryOutcome =
  { ok: true; status: number } | { ok: false; failure: FailureClass; message: string; status?: number; retryAfter?: string };

/** One delivery's request: the endpoint, the headers the signature made, the JSON body. */
export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const USER_AGENT = "nft-data-service webhooks";

/**
 * POSTs deliveries to their endpoints, defending the service against the receiver, whom anyone subscribing chooses:
 * each connection goes to an address checked as it resolves, or as written (unless private ones are allowed), redirects are not
 * followed (a 3xx is a failure), the whole exchange has one deadline, and at most `MAX_ANSWER_BYTES` of the answer are
 * read. Connections are kept alive between deliveries; a socket is only ever one that was checked when it connected.
 */
export class Deliverer {
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(
    private readonly options: {
      allowPrivate: boolean;
      timeoutMs: number;
      maxSockets: number;
      /** How names resolve: the system's resolver unless a test gives its own. */
      resolveAll?: ResolveAll;
    },
  ) {
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.maxSockets,
      maxFreeSockets: options.maxSockets,
      lookup: options.allowPrivate ? undefined : guardedLookup(options.resolveAll),
    };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  }

  /** Closes the kept-alive sockets (at shutdown). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Sends one delivery; never throws: a failure is an outcome. `cancel` aborts it (shutdown), as the deadline does. */
  async send(request: DeliveryRequest, cancel?: AbortSignal): Promise<DeliveryOutcome> {
    const deadline = new Deadline(this.options.timeoutMs, cancel);
    try {
      const status = await this.post(request, deadline.signal);
      return outcomeOf(status.code, status.retryAfter);
    } catch (error) {
      if (deadline.timedOut) return { ok: false, failure: "timeout", message: `no answer within ${this.options.timeoutMs} ms` };
      return failureOf(error);
    } finally {
      deadline.end();
    }
  }

  private post(request: DeliveryRequest, signal: AbortSignal): Promise<{ code: number; retryAfter?: string }> {
    const url = new URL(request.url);
    const client = url.protocol === "https:" ? https : http;
    // An address connects without a lookup: checked here, since it may have been taken while private ones were allowed.
    if (!this.options.allowPrivate) checkLiteralHost(url);
    return new Promise((resolve, reject) => {
      const outgoing = client.request(url, {
        method: "POST",
        signal,
        agent: url.protocol === "https:" ? this.agents.https : this.agents.http,
        headers: {
          ...request.headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(request.body)),
          "user-agent": USER_AGENT,
        },
      });
      outgoing.once("error", reject);
      outgoing.once("response", (response) => {
        const code = response.statusCode ?? 0;
        const retryAfter = typeof response.headers["retry-after"] === "string" ? response.headers["retry-after"] : undefined;
        const answered = () => resolve({ code, retryAfter });
        // The status decides; the body is read only so that its socket can serve the next delivery. Past the bound, at the
        // deadline or on a reset the socket is closed, and the status stands.
        outgoing.off("error", reject);
        outgoing.on("error", answered);
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            response.destroy();
            answered();
          }
        });
        response.once("end", answered);
        response.once("error", answered);
        response.once("close", answered);
      });
      outgoing.end(request.body);
    });
  }
}

function outcomeOf(status: number, retryAfter: string | undefined): DeliveryOutcome {
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status === 410) return { ok: false, failure: "gone", status, message: "the endpoint answered 410 Gone" };
  if (status === 429)
    return { ok: false, failure: "rate_limited", status, retryAfter, message: "the endpoint answered 429 Too Many Requests" };
  if (status >= 300 && status < 400)
    return { ok: false, failure: "redirect", status, message: `the endpoint answered ${status} (redirects are not followed)` };
  return {
    ok: false,
    failure: "status",
    status,
    retryAfter: status === 503 ? retryAfter : undefined,
    message: `the endpoint answered ${status}`,
  };
}

function failureOf(error: unknown): DeliveryOutcome {
  const refusal = error instanceof OutboundRefusal ? error : (error as { cause?: unknown })?.cause;
  if (refusal instanceof OutboundRefusal) return { ok: false, failure: "refused_address", message: `refused endpoint ${refusal.message}` };
  const code = errorCodeOf(error);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { ok: false, failure: "dns", message: "the endpoint's host does not resolve" };
  return { ok: false, failure: "connection", message: `the connection failed${code ? ` (${code})` : ""}` };
}
