import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { expect } from "chai";
import { ANSWER_TOO_LARGE, upstreamError } from "../../../server/chain/errors";
import { Networks } from "../../../server/chain/networks";
import { faultOf } from "../../../server/chain/pool";
import { rawRpc } from "../../../server/chain/raw-rpc";
import { isRangeTooLarge } from "../../../server/indexer/ranges";
import { startClosingServer } from "../../helpers/closing-server";

const LIMIT = 1024 * 1024;

/** How a test server answers a JSON-RPC call. */
type Answer = (response: http.ServerResponse) => void;

/**
 * rawRpc reads the indexer's eth_getLogs and the large eth_calls. A contract can fill blocks with logs the indexer's
 * filter matches (any Transfer event, with as much data as gas buys), so an answer's size is the chain's to choose:
 * rawRpc must stop reading at RPC_MAX_ANSWER_BYTES, whatever the answer's headers say. An answer that is not a
 * JSON-RPC answer at all is the provider's fault, as a transport error is.
 */
describe("rawRpc: the answers it reads", function () {
  this.timeout(30_000);
  let server: http.Server;
  let answer: Answer;
  let networks: Networks;
  /** Bytes the server had written when its client went away or the answer ended. */
  let written = 0;

  before(async function () {
    server = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => answer(response));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A timeout far longer than the test's: a read that is not stopped by the bound fails the test by its timeout.
    networks = new Networks({ localhost: url }, 120_000, { maxAnswerBytes: LIMIT });
  });
  after(async function () {
    networks.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const call = () => rawRpc<unknown>(networks.provider("localhost"), "eth_getLogs", [{}]);

  /** A JSON-RPC answer whose result is a string of `n` characters (its body is n + 36 bytes). */
  const body = (n: number) => Buffer.from(`{"jsonrpc":"2.0","id":1,"result":"${"a".repeat(n)}"}`);

  /** The error `call` throws. */
  async function refusal(): Promise<Error & { code?: string }> {
    try {
      await call();
    } catch (error) {
      return error as Error & { code?: string };
    }
    throw new Error("the call succeeded");
  }

  /** The refusal of an answer past the bound: the indexer asks for fewer blocks, no other provider is asked. */
  function expectTooLarge(error: Error & { code?: string }) {
    expect(error.code).to.equal(ANSWER_TOO_LARGE);
    expect(error.message).to.equal(`eth_getLogs: the answer exceeds RPC_MAX_ANSWER_BYTES (${LIMIT} bytes)`);
    expect(isRangeTooLarge(error), "a range too large").to.equal(true);
    expect(faultOf(error), "the provider's fault").to.equal(undefined);
    expect(upstreamError(error, "localhost")?.code).to.equal("upstream_error");
  }

  it("reads an answer of exactly the bound", async function () {
    const exact = body(LIMIT - 36);
    expect(exact.length).to.equal(LIMIT);
    answer = (response) => response.writeHead(200, { "content-type": "application/json" }).end(exact);
    expect(((await call()) as string).length).to.equal(LIMIT - 36);
  });

  it("refuses an answer one byte past the bound, its length declared, without reading it", async function () {
    answer = (response) => response.writeHead(200, { "content-type": "application/json" }).end(body(LIMIT - 35));
    expectTooLarge(await refusal());
  });

  it("stops reading an endless answer sent in chunks, with no length, once it passes the bound", async function () {
    written = 0;
    answer = (response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"jsonrpc":"2.0","id":1,"result":"');
      const chunk = "a".repeat(64 * 1024);
      const more = () => {
        while (!response.destroyed && written < 64 * LIMIT) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", more);
        }
      };
      response.on("close", () => undefined);
      more();
    };
    expectTooLarge(await refusal());
    // The server stops when the client goes away: far less than the 64 MiB it would have sent.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(written).to.be.below(8 * LIMIT);
  });

  it("reads an answer sent as thousands of small chunks, as a node streaming its JSON writes a log a chunk", async function () {
    const log = (i: number) => JSON.stringify({ logIndex: `0x${i.toString(16)}`, data: `0x${"0".repeat(400)}` });
    answer = (response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"jsonrpc":"2.0","id":1,"result":[');
      for (let i = 0; i < 1_500; i++) response.write((i === 0 ? "" : ",") + log(i));
      response.end("]}");
    };
    const logs = (await call()) as { logIndex: string }[];
    expect(logs.map((entry) => entry.logIndex)).to.deep.equal(Array.from({ length: 1_500 }, (_, i) => `0x${i.toString(16)}`));
  });

  it("fails an answer outside 2xx on its status, and stops reading its endless body at the bound", async function () {
    written = 0;
    answer = (response) => {
      response.writeHead(503, { "content-type": "text/plain", "retry-after": "7" });
      const chunk = "busy ".repeat(13_000);
      const more = () => {
        while (!response.destroyed && written < 64 * LIMIT) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", more);
        }
      };
      more();
    };
    const error = (await refusal()) as Error & { code?: string; response?: { statusCode: number; headers: Record<string, string> } };
    expect(error.code).to.equal("SERVER_ERROR");
    expect(error.message).to.equal("eth_getLogs: HTTP 503");
    expect(error.response).to.deep.equal({ statusCode: 503, headers: { "retry-after": "7" } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(written).to.be.below(8 * LIMIT);
  });

  it("bounds the answer after decompression: a small gzip body that inflates past the bound is refused", async function () {
    const bomb = gzipSync(body(4 * LIMIT));
    expect(bomb.length).to.be.below(LIMIT / 100);
    answer = (response) => response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(bomb);
    expectTooLarge(await refusal());
  });

  it("takes a body that does not decompress, or is cut short of its length, as the provider's fault (BAD_DATA)", async function () {
    answer = (response) =>
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end("not gzip at all");
    const corrupt = await refusal();
    expect([corrupt.code, corrupt.message]).to.deep.equal([
      "BAD_DATA",
      "eth_getLogs: the answer could not be read: incorrect header check",
    ]);
    expect(faultOf(corrupt)).to.equal("transport_error");
    answer = (response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" }).write('{"jsonrpc":');
      setTimeout(() => response.socket?.destroy(), 50);
    };
    const cut = await refusal();
    expect(cut.code).to.equal("BAD_DATA");
    expect(cut.message).to.match(/^eth_getLogs: the answer could not be read: /);
  });

  it("reads a gzip answer that inflates to less than the bound", async function () {
    answer = (response) =>
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(body(LIMIT / 2)));
    expect(((await call()) as string).length).to.equal(LIMIT / 2);
  });

  it("reads an answer beyond ASCII as UTF-8, and one of ASCII alike", async function () {
    // Two-, three- and four-byte characters, and one split across the answer's chunks.
    const text = "café ✓ 𝔘 ü";
    answer = (response) => {
      const bytes = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(text)}}`);
      const split = bytes.indexOf("ü") + 1;
      response.writeHead(200, { "content-type": "application/json" });
      response.write(bytes.subarray(0, split));
      setTimeout(() => response.end(bytes.subarray(split)), 20);
    };
    expect(await call()).to.equal(text);
    answer = (response) => response.writeHead(200, { "content-type": "application/json" }).end(body(10));
    expect(await call()).to.equal("a".repeat(10));
  });

  it("sends a call once more on a new connection when the server closed the kept-alive one as it was reused", async function () {
    // The race of every kept-alive connection: the server's idle timeout closes it as the next call is sent on it (or
    // the client's event loop was busy when it closed). This server closes a connection at its second request instead.
    const closing = await startClosingServer(() => body(3).toString());
    const closingNetworks = new Networks({ localhost: closing.url }, 120_000, { maxAnswerBytes: LIMIT });
    try {
      const provider = closingNetworks.provider("localhost");
      for (let i = 0; i < 3; i++) expect(await rawRpc<unknown>(provider, "eth_getLogs", [{}]), `call ${i}`).to.equal("aaa");
      // The second call was sent on the first's connection, closed, and sent again on a connection of its own; the
      // third found no kept-alive connection and opened one.
      expect(closing.requestsPerConnection()).to.deep.equal([2, 1, 1]);
    } finally {
      closingNetworks.close();
      await closing.close();
    }
  });

  it("takes an answer that is JSON but not a JSON-RPC answer as the provider's fault (BAD_DATA), whatever its shape", async function () {
    for (const text of ["null", "[]", '"x"', "42", "true"]) {
      answer = (response) => response.writeHead(200, { "content-type": "application/json" }).end(text);
      const error = await refusal();
      expect({ code: error.code, message: error.message, fault: faultOf(error) }, text).to.deep.equal({
        code: "BAD_DATA",
        message: "eth_getLogs: the answer is not a JSON-RPC answer",
        fault: "transport_error",
      });
    }
  });
});
