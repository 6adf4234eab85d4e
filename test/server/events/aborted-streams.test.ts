import { expect } from "chai";
import net, { type Socket } from "node:net";
import { startTestApp, type TestApp } from "../../helpers/app";
import { expectRefusal } from "../../helpers/refusal";
import { openSse } from "../../helpers/sse";
import { SuiteChain } from "../../helpers/suite-chain";
import { pollUntil } from "../../helpers/waiters";

/**
 * A client that aborts its stream (fetch's AbortController, the SDK's signal) closes its socket: the stream ends and
 * frees its place. But fetch (undici) then opens a new connection to the server at once and sends nothing on it,
 * keeping it for as long as the server's Keep-Alive timeout; Node's close leaves a connection that never began a
 * request open (it is not idle to it), so the shutdown waited for the client to drop it.
 */
describe("live events: a client that aborts its stream", function () {
  const suite = SuiteChain.forSuite("own", async () => ({}));

  it("frees the stream's place and shuts down without waiting for connections that never sent a request", async function () {
    const { chain } = suite();
    const t: TestApp = await startTestApp({
      listen: true,
      env: { RPC_URL_LOCALHOST: chain.url, INDEXER: "false", EVENTS_MAX_SUBSCRIBERS: "1" },
    });
    let closed = false;
    const streamed: Socket[] = [];
    t.app.server.on("request", (request) => streamed.push(request.socket));
    // A connection that sends nothing, as fetch leaves behind after an abort, made certain whatever fetch does.
    const silent = net.connect(Number(new URL(t.url).port), "127.0.0.1");
    const silentClosed = new Promise<void>((resolve) => silent.once("close", () => resolve()));
    silent.on("error", () => undefined);
    try {
      await new Promise((resolve) => silent.once("connect", resolve));
      const aborted = await openSse(`${t.url}/events/localhost`);
      expect(aborted.status).to.equal(200);
      await pollUntil("the stream's first bytes", async () => aborted.comments.includes("connected"));
      aborted.close();
      await aborted.ended;
      // The server noticed: the stream's socket is closed on its side.
      await pollUntil("the aborted stream's socket closed on the server", async () => streamed[0].destroyed);

      // Its place is free at once: at a cap of one, the next subscriber is admitted, and the one after refused.
      const next = await openSse(`${t.url}/events/localhost`);
      expect(next.status).to.equal(200);
      await expectRefusal(await t.fetch("/events/localhost"), 503, "too_many_subscribers");

      // Closing ends the open stream and the connections that never sent a request: nothing holds the shutdown up.
      let done = false;
      const closing = t.close().then(() => (done = true));
      await pollUntil("the instance closed", async () => done);
      closed = true;
      await closing;
      await next.ended;
      await silentClosed;
      expect(silent.bytesRead).to.equal(0);
    } finally {
      silent.destroy();
      if (!closed) await t.close();
    }
  });
});
