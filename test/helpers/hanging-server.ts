import http from "node:http";
import { listenLocally } from "../../support/net";

export type HangingServer = Awaited<ReturnType<typeof listenLocally>>;

/** An HTTP server on this machine that takes every request and never answers it: a node that hangs, for callers' timeouts. */
export function startHangingServer(): Promise<HangingServer> {
  return listenLocally(http.createServer(() => {}));
}
