import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { Deliverer } from "../../../server/webhooks/delivery";
import { signalsMadeFrom } from "../../helpers/abort-signals";

describe("webhooks: a delivery's deadline and the worker's cancel", function () {
  let server: http.Server;
  let base: string;
  let deliverer: Deliverer;

  before(async function () {
    server = http.createServer((request, response) => {
      request.resume();
      if (request.url === "/hang") return; // never answers
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    deliverer = new Deliverer({ allowPrivate: true, timeoutMs: 300, maxSockets: 4 });
  });
  after(function () {
    deliverer?.close();
    server?.closeAllConnections();
    server?.close();
  });

  const request = (path: string) => ({ url: `${base}${path}`, headers: {}, body: "{}" });

  it("leaves nothing behind on the worker's long-lived cancel signal, and still stops when it aborts", async function () {
    // The worker passes its shutdown signal to every delivery: a record kept on it per delivery would never be freed.
    const cancel = new AbortController();
    for (let i = 0; i < 50; i++) expect(await deliverer.send(request("/ok"), cancel.signal)).to.deep.equal({ ok: true, status: 204 });
    expect(await deliverer.send(request("/hang"), cancel.signal)).to.deep.equal({
      ok: false,
      failure: "timeout",
      message: "no answer within 300 ms",
    });
    expect(signalsMadeFrom(cancel.signal)).to.equal(0);
    const hanging = deliverer.send(request("/hang"), cancel.signal);
    setTimeout(() => cancel.abort(), 50);
    expect(await hanging).to.deep.equal({ ok: false, failure: "connection", message: "the connection failed (ABORT_ERR)" });
  });
});
