import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
// Not undici's entry: it loads all of undici (fetch, WebSocket, caches, mocks), about 75 ms of a process's start
// against about 25 for the two dispatchers used here (undici-dispatchers.d.ts types them).
import Agent from "undici/lib/dispatcher/agent";
import Client from "undici/lib/dispatcher/client";
import { bodyDecoder, readBounded, type BodyRefusals } from "../lib/bounded-read";
import { errorCodeOf } from "./errors";

/** One HTTP request to a JSON-RPC provider. */
export interface ProviderRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  /** Covers the whole call, the body's reading included: once aborted, the call fails with its reason and its connection is closed. */
  deadline: AbortSignal;
  /** The bound of the answer's body once decompressed: past it the call fails with `refusals.tooLarge()`. */
  maxBytes: number;
  refusals: BodyRefusals;
}

/** A provider's answer, its body read whole and decompressed. */
export interface ProviderAnswer {
  statusCode: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  /** Empty for an answer outside 2xx whose body could not be read: its status says what went wrong. */
  body: Buffer;
}

/** An answer that came (its status and its headers) whose body could not be read: cut short, or not decompressing (`cause`). */
export class UnreadableAnswer extends Error {
  constructor(cause: unknown) {
    super(`the answer could not be read: ${(cause as Error).message}`, { cause });
  }
}

/**
 * The call's deadline bounds a call, not undici's own timeouts (all off: they would end a slow call, or a connection
 * slow to open, with an error of theirs before its deadline).
 */
const NO_TIMEOUTS = { headersTimeout: 0, bodyTimeout: 0, connectTimeout: 0 };

/** Connections kept alive between calls, for every provider. */
const keptAlive = new Agent(NO_TIMEOUTS);

/** The faults of a connection that closed before its answer began (a kept-alive one the provider closed as it was reused). */
const CLOSED_BEFORE_ANSWER = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

/**
 * Sends `call` with undici's dispatcher and gives its answer, the body read. Not Node's `http` client: it makes a
 * buffer and a stream's push of each chunk of a chunked answer, in C++ calling into JavaScript; a node that writes each
 * log of an eth_getLogs answer as its own chunk (about 530 bytes: Hardhat's) cost it about twice what undici's parser
 * does. Not `fetch`: its web streams took more CPU than anything else in reading a large answer but parsing it.
 * Connections are kept alive; one the server closed as it was reused (its idle timeout ran out as the call was sent,
 * or the event loop was busy when it closed) fails before any answer, and the call is sent once more on a new
 * connection: a JSON-RPC call sent twice changes nothing more than once (a read, or a signed transaction, which the
 * chain takes once).
 */
export async function requestProvider(call: ProviderRequest): Promise<ProviderAnswer> {
  try {
    return await attempt(call, keptAlive);
  } catch (error) {
    if (!CLOSED_BEFORE_ANSWER.has(errorCodeOf(error) ?? "") || call.deadline.aborted) throw error;
    const fresh = new Client(new URL(call.url).origin, NO_TIMEOUTS);
    try {
      return await attempt(call, fresh);
    } finally {
      fresh.destroy().catch(() => {});
    }
  }
}

/** One attempt of `requestProvider` on `dispatcher`. */
function attempt(call: ProviderRequest, dispatcher: Dispatcher): Promise<ProviderAnswer> {
  const { url, method, headers, body, deadline, maxBytes, refusals } = call;
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let answer: Omit<ProviderAnswer, "body"> | undefined;
    let decoder: ReturnType<typeof bodyDecoder> = null;
    let decoded: Promise<Buffer> | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    let ended = false;
    /** Ends the call: what it gives, or why it fails. An answer not read to its end is not read further: its connection is closed. */
    const settle = (error: Error | undefined, value?: ProviderAnswer) => {
      if (done) return;
      done = true;
      deadline.removeEventListener("abort", onDeadline);
      if (!ended) controller?.abort(error ?? new Error("the answer's body was not read"));
      decoder?.destroy();
      if (error) reject(error);
      else resolve(value!);
    };
    /** A fault of the body: the call's, or, outside 2xx, an answer with no body. */
    const failBody = (error: Error) =>
      answer && (answer.statusCode < 200 || answer.statusCode > 299)
        ? settle(undefined, { ...answer, body: Buffer.alloc(0) })
        : settle(error);
    const onDeadline = () => settle(deadline.reason instanceof Error ? deadline.reason : new Error(String(deadline.reason)));
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener("abort", onDeadline, { once: true });
    dispatcher.dispatch(
      { origin: target.origin, path: target.pathname + target.search, method, headers: withCredentials(headers, target), body },
      {
        onRequestStart(started) {
          controller = started;
          if (done) started.abort(new Error("the call ended before it was sent"));
        },
        onResponseStart(_, statusCode, responseHeaders, statusMessage) {
          answer = { statusCode, statusMessage: statusMessage ?? "", headers: responseHeaders };
          try {
            decoder = bodyDecoder(responseHeaders, maxBytes, refusals);
          } catch (refusal) {
            return failBody(refusal as Error);
          }
          if (decoder) {
            let refused: Error | undefined;
            decoded = readBounded(decoder, maxBytes, () => (refused = refusals.tooLarge()));
            decoded.catch((error: Error) => failBody(error === refused ? error : new UnreadableAnswer(error)));
          }
        },
        onResponseData(reading, chunk) {
          if (done) return;
          // What the decoder has not taken yet is bounded by its buffer: the connection waits while it is full.
          if (decoder) {
            if (!decoder.write(chunk)) {
              reading.pause();
              decoder.once("drain", () => reading.resume());
            }
            return;
          }
          size += chunk.byteLength;
          if (size > maxBytes) return failBody(refusals.tooLarge());
          chunks.push(chunk);
        },
        onResponseEnd() {
          ended = true;
          if (done || !answer) return;
          const head = answer;
          if (!decoder) return settle(undefined, { ...head, body: Buffer.concat(chunks, size) });
          decoder.end();
          decoded!.then(
            (bytes) => settle(undefined, { ...head, body: bytes }),
            () => {},
          );
        },
        onResponseError(_, error) {
          if (answer) failBody(new UnreadableAnswer(error));
          else settle(error);
        },
      },
    );
  });
}

/**
 * `headers` with the credentials of `url` (`https://user:secret@host/`, as some providers give their keys) as basic
 * authentication, as Node's client sends them: the origin a call is dispatched to has none.
 */
function withCredentials(headers: Record<string, string>, url: URL): Record<string, string> {
  if (!url.username && !url.password) return headers;
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(credentials).toString("base64")}`, ...headers };
}
