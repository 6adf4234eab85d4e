import net from "node:net";
import { expect } from "chai";
import { unflushedOfWrite } from "../../../server/http/send-deadline";

/**
 * The one Node internal the send deadline reads (server/http/send-deadline.ts): a TCP socket's handle shows how much of
 * the write in progress the kernel has not taken. If an upgrade of Node stops showing it, or it stops falling as the
 * peer reads, this fails, and a client reading a large answer slowly would be cut again.
 */
describe("send deadline: what Node shows of a write in progress", function () {
  this.timeout(60_000);
  const WRITE_BYTES = 20_000_000;

  it("shows the part of one large write the kernel has not taken, falling as the peer reads, while writableLength stays whole", async function () {
    let accepted: net.Socket | undefined;
    const server = net.createServer((socket) => {
      accepted = socket;
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
    client.pause();
    try {
      await new Promise((resolve) => client.once("connect", resolve));
      while (accepted === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      const socket = accepted;
      socket.write(Buffer.alloc(WRITE_BYTES));
      // The kernel takes what its buffers hold (a few megabytes on loopback) and no more while the peer reads nothing.
      let unflushed = unflushedOfWrite(socket);
      for (let tries = 0; tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const now = unflushedOfWrite(socket);
        if (now === unflushed) break;
        unflushed = now;
      }
      expect(unflushed).to.be.a("number");
      expect(unflushed).to.be.above(0).and.below(WRITE_BYTES);
      expect(socket.writableLength).to.equal(WRITE_BYTES);

      // The peer reads a few megabytes: the kernel takes as much more, and the write is still in progress.
      let read = 0;
      client.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read >= 4_000_000) client.pause();
      });
      client.resume();
      while (read < 4_000_000) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unflushedOfWrite(socket)).to.be.a("number").and.below(unflushed!);
      expect(socket.writableLength).to.equal(WRITE_BYTES);
    } finally {
      client.destroy();
      accepted?.destroy();
      server.close();
    }
  });

  it("shows nothing for a socket without a handle", function () {
    expect(unflushedOfWrite(new net.Socket())).to.equal(undefined);
  });
});
