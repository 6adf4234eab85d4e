import { expect } from "chai";
import { startTestApp } from "../../helpers/app";

describe("graceful close", function () {
  it("finishes the requests in flight, then refuses new ones", async function () {
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    // It listens: what is under test is the server's socket, kept for the request in flight and then closed.
    const t = await startTestApp({
      listen: true,
      configure(app) {
        app.get("/test/slow", async () => {
          entered();
          await started;
          return { done: true };
        });
      },
    });
    const inFlight = fetch(`${t.url}/test/slow`);
    await inside;
    const closing = t.close();
    // While closing, the slow request is still being served.
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const response = await inFlight;
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ done: true });
    await closing;
    let refused = false;
    await fetch(`${t.url}/health`).catch(() => (refused = true));
    expect(refused).to.equal(true);
  });
});
