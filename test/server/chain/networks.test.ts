import http from "node:http";
import net, { type AddressInfo } from "node:net";
import zlib from "node:zlib";
import { expect } from "chai";
import { Networks, rpc } from "../../../server/chain/networks";
import { rawRpc } from "../../../server/chain/raw-rpc";
import { rpcEnvName } from "../../../server/chain/registry";
import { DomainError } from "../../../server/lib/domain-error";
import { Metrics } from "../../../server/metrics/metrics";
import { instrumentProvider } from "../../../server/metrics/rpc";
import { sharedNode } from "../../helpers/chain";
import { startClosingServer } from "../../helpers/closing-server";
import { sample } from "../../helpers/metrics";

describe("networks", function () {
  const servers: http.Server[] = [];
  async function serve(handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  after(function () {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  async function failure(promise: Promise<unknown>): Promise<DomainError> {
    try {
      await promise;
    } catch (error) {
      expect(error).to.be.instanceOf(DomainError);
      return error as DomainError;
    }
    throw new Error("expected a DomainError");
  }

  describe("provider", function () {
    it("an unknown name is an invalid unknown_network", function () {
      const networks = new Networks({}, 1000);
      expect(() => networks.provider("ethereum"))
        .to.throw(DomainError, /^Unknown network "ethereum": this service serves no network$/)
        .with.property("code", "unknown_network");
      expect(() => networks.provider("__proto__"))
        .to.throw(DomainError, /^Unknown network "__proto__": this service serves no network$/)
        .with.property("kind", "invalid");
    });

    it("an unknown name's refusal lists the served networks and names the one meant by another case or a chain id", function () {
      const networks = new Networks({ localhost: "http://127.0.0.1:1", sepolia: "http://127.0.0.1:1" }, 1000);
      const messages = ["ethereum", "Localhost", "SEPOLIA", "31337", "0x7a69", "1", "0x", "99999999999999999999999"].map((name) => {
        try {
          networks.info(name);
        } catch (error) {
          expect(error, name).to.be.instanceOf(DomainError).with.property("code", "unknown_network");
          return (error as DomainError).message;
        }
        return expect.fail(`${name} was taken`);
      });
      expect(messages).to.deep.equal([
        'Unknown network "ethereum": this service serves localhost, sepolia',
        'Unknown network "Localhost" (did you mean "localhost"?): this service serves localhost, sepolia',
        'Unknown network "SEPOLIA" (did you mean "sepolia"?): this service serves localhost, sepolia',
        'Unknown network "31337" (did you mean "localhost", chain id 31337?): this service serves localhost, sepolia',
        'Unknown network "0x7a69" (did you mean "localhost", chain id 31337?): this service serves localhost, sepolia',
        // A registry network the service has no node for is still the one meant (it answers 503 network_unavailable).
        'Unknown network "1" (did you mean "mainnet", chain id 1?): this service serves localhost, sepolia',
        'Unknown network "0x": this service serves localhost, sepolia',
        'Unknown network "99999999999999999999999": this service serves localhost, sepolia',
      ]);
      networks.close();
    });

    it("a known network without an RPC URL is an unavailable network_unavailable naming the variable", function () {
      const networks = new Networks({}, 1000);
      expect(() => networks.provider("matic-mainnet"))
        .to.throw(DomainError)
        .that.satisfies(
          (e: DomainError) =>
            e.kind === "unavailable" && e.code === "network_unavailable" && e.message.includes(rpcEnvName("matic-mainnet")),
        );
    });

    it("reaches a real node", async function () {
      const node = await sharedNode();
      const networks = new Networks({ localhost: node.url }, 5000);
      expect(await rpc("localhost", networks.provider("localhost").getBlockNumber())).to.be.a("number");
      await networks.check("localhost");
      networks.close();
    });

    it("sends the credentials of its URL as basic authentication, through ethers' transport and the raw reads alike", async function () {
      const seen: (string | undefined)[] = [];
      const url = await serve((req, res) => {
        seen.push(req.headers.authorization);
        req
          .resume()
          .on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":"0x2a"}'));
      });
      const networks = new Networks({ mainnet: url.replace("http://", "http://user:p%40ss@") }, 2000);
      try {
        expect(await networks.provider("mainnet").send("eth_blockNumber", [])).to.equal("0x2a");
        expect(await rawRpc(networks.provider("mainnet"), "eth_blockNumber", [])).to.equal("0x2a");
      } finally {
        networks.close();
      }
      const basic = `Basic ${Buffer.from("user:p@ss").toString("base64")}`;
      expect(seen).to.deep.equal([basic, basic]);
    });

    it("sends a call once more on a new connection when the server closed the kept-alive one as it was reused", async function () {
      // The race of every kept-alive connection: the provider's idle timeout closes it as the next call is sent on it
      // (or the event loop was busy when it closed). This server closes a connection at its second request instead.
      const closing = await startClosingServer((body) =>
        JSON.stringify({ jsonrpc: "2.0", id: (JSON.parse(body) as { id: number }).id, result: "0x2a" }),
      );
      const networks = new Networks({ localhost: closing.url }, 5000);
      try {
        for (let i = 0; i < 3; i++)
          expect(await rpc("localhost", networks.provider("localhost").getBlockNumber()), `call ${i}`).to.equal(42);
        // The second call was sent on the first's connection, closed, and sent again on a connection of its own; the
        // third found no kept-alive connection and opened one.
        expect(closing.requestsPerConnection()).to.deep.equal([2, 1, 1]);
      } finally {
        networks.close();
        await closing.close();
      }
    });
  });

  describe("answers (RPC_MAX_ANSWER_BYTES, RPC_TIMEOUT_MS)", function () {
    const LIMIT = 1024 * 1024;
    /** A JSON-RPC answer of 42 to the call in `body`, padded with `padding` bytes of whitespace. */
    const answer42 = (body: string, padding = 0) =>
      `{"jsonrpc":"2.0","id":${(JSON.parse(body) as { id: number }).id},"result":"0x2a"${" ".repeat(padding)}}`;
    /** Calls `handler` with the request's body once it has all arrived. */
    const withBody =
      (handler: (body: string, res: http.ServerResponse) => void): http.RequestListener =>
      (req, res) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk)).on("end", () => handler(body, res));
      };

    it("stops reading an answer past RPC_MAX_ANSWER_BYTES: upstream_error, counted as too_large, and the provider's connection is closed", async function () {
      let written = 0;
      let connectionClosed!: () => void;
      const closed = new Promise<void>((resolve) => (connectionClosed = resolve));
      const endless = await serve((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"jsonrpc":"2.0","id":1,"result":"0x2a"');
        // Whitespace for as long as the connection lasts, as fast as it is read.
        const chunk = " ".repeat(64 * 1024);
        const more = () => {
          while (!res.destroyed && res.write(chunk)) written += chunk.length;
          if (!res.destroyed) res.once("drain", more);
        };
        res.on("close", connectionClosed);
        more();
      });
      const metrics = new Metrics();
      const networks = new Networks({ mainnet: endless }, 10_000, {
        maxAnswerBytes: LIMIT,
        onProvider: (network, provider) => instrumentProvider(metrics, network, provider),
      });
      try {
        const error = await failure(rpc("mainnet", networks.provider("mainnet").getBlockNumber()));
        expect([error.kind, error.code]).to.deep.equal(["upstream", "upstream_error"]);
        await closed;
        const counted = await metrics.registry.metrics();
        expect(sample(counted, "rpc_calls_total", { network: "mainnet", method: "eth_blockNumber", outcome: "too_large" })).to.equal(1);
        // What was written but not read sat in the two sockets' buffers (a few MiB at most), not in the service.
        expect(written).to.be.below(LIMIT + 16 * 1024 * 1024);
      } finally {
        networks.close();
      }
    });

    it("refuses a compressed answer that inflates past RPC_MAX_ANSWER_BYTES, and reads one that does not (gzip, deflate, br)", async function () {
      const encoders = {
        gzip: zlib.gzipSync,
        deflate: zlib.deflateSync,
        br: (text: string) => zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
      };
      for (const [encoding, encode] of Object.entries(encoders)) {
        const url = (padding: number) =>
          serve(withBody((body, res) => res.writeHead(200, { "content-encoding": encoding }).end(encode(answer42(body, padding)))));
        // 16 MiB of whitespace compress to a few kB.
        const bomb = new Networks({ mainnet: await url(16 * LIMIT) }, 10_000, { maxAnswerBytes: LIMIT });
        const small = new Networks({ mainnet: await url(LIMIT / 2) }, 10_000, { maxAnswerBytes: LIMIT });
        try {
          const error = await failure(rpc("mainnet", bomb.provider("mainnet").getBlockNumber()));
          expect([error.kind, error.code], encoding).to.deep.equal(["upstream", "upstream_error"]);
          expect(await rpc("mainnet", small.provider("mainnet").getBlockNumber()), encoding).to.equal(42);
        } finally {
          bomb.close();
          small.close();
        }
      }
    });

    it("ends a call whose answer trickles past RPC_TIMEOUT_MS as an upstream_timeout, and closes its connection", async function () {
      let timer: NodeJS.Timeout | undefined;
      let connectionClosed!: () => void;
      const closed = new Promise<void>((resolve) => (connectionClosed = resolve));
      const trickling = await serve((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"jsonrpc":"2.0","id":1,"result":"0x2a"');
        // A byte every 50 ms: never idle long enough for a timeout between two chunks to end it.
        timer = setInterval(() => res.write(" "), 50);
        res.on("close", () => {
          clearInterval(timer);
          connectionClosed();
        });
      });
      const networks = new Networks({ mainnet: trickling }, 500);
      try {
        const error = await failure(rpc("mainnet", networks.provider("mainnet").getBlockNumber()));
        expect([error.kind, error.code]).to.deep.equal(["upstream_timeout", "upstream_timeout"]);
        await closed;
      } finally {
        clearInterval(timer);
        networks.close();
      }
    });
  });

  describe("rpc error mapping (upstream_error, upstream_timeout)", function () {
    it("a node that refuses connections is an upstream upstream_error", async function () {
      const networks = new Networks({ mainnet: "http://127.0.0.1:1" }, 1000);
      const error = await failure(rpc("mainnet", networks.provider("mainnet").getBlockNumber()));
      expect([error.kind, error.code, error.message]).to.deep.equal(["upstream", "upstream_error", "The mainnet node failed to answer"]);
      networks.close();
    });

    it("a node that does not answer in time is an upstream_timeout", async function () {
      const url = await serve(() => {});
      const networks = new Networks({ mainnet: url }, 300);
      const error = await failure(rpc("mainnet", networks.provider("mainnet").getBlockNumber()));
      expect([error.kind, error.code, error.message]).to.deep.equal([
        "upstream_timeout",
        "upstream_timeout",
        "The mainnet node did not answer in time",
      ]);
      networks.close();
    });

    it("an HTTP 500, a body that is not JSON, and a JSON-RPC error are upstream errors", async function () {
      const urls = [
        await serve((_req, res) => res.writeHead(500).end("internal")),
        await serve((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("<html>")),
        await serve((req, res) => {
          let body = "";
          req
            .on("data", (chunk) => (body += chunk))
            .on("end", () => {
              const { id } = JSON.parse(body);
              res
                .writeHead(200, { "content-type": "application/json" })
                .end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: "internal" } }));
            });
        }),
      ];
      for (const url of urls) {
        const networks = new Networks({ mainnet: url }, 2000);
        const error = await failure(rpc("mainnet", networks.provider("mainnet").getBlockNumber()));
        expect([error.kind, error.code], url).to.deep.equal(["upstream", "upstream_error"]);
        networks.close();
      }
    });

    it("an answer that is not HTTP, and one cut short of its declared length, are upstream errors", async function () {
      const answers = ["SSH-2.0-OpenSSH_9.6\r\n\r\n", "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{}"];
      for (const answer of answers) {
        const server = net.createServer((socket) => {
          socket.on("error", () => undefined);
          socket.once("data", () => socket.end(answer));
        });
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const networks = new Networks({ mainnet: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, 2000);
        try {
          const error = await failure(rpc("mainnet", networks.provider("mainnet").getBlockNumber()));
          expect([error.kind, error.code], answer).to.deep.equal(["upstream", "upstream_error"]);
        } finally {
          networks.close();
          await new Promise((resolve) => server.close(resolve));
        }
      }
    });

    it("a revert is not an upstream failure: it reaches the caller as it is", async function () {
      const node = await sharedNode();
      const networks = new Networks({ localhost: node.url }, 5000);
      // ownerOf(1) on an account with no code returns no data: ethers reports BAD_DATA? No: a call to an
      // EOA returns 0x; a call that reverts is a CALL_EXCEPTION. Make one revert with a bad opcode.
      const call = networks.provider("localhost").call({ data: "0xfe" });
      let caught: unknown;
      await rpc("localhost", call).catch((error) => (caught = error));
      expect(caught).not.to.be.instanceOf(DomainError);
      expect((caught as { code?: string }).code).to.equal("CALL_EXCEPTION");
      networks.close();
    });

    it("a node serving another chain fails the check", async function () {
      const node = await sharedNode();
      const networks = new Networks({ mainnet: node.url }, 5000);
      const error = await failure(networks.check("mainnet"));
      expect([error.kind, error.code, error.message]).to.deep.equal([
        "upstream",
        "upstream_error",
        "The mainnet node serves chain 31337, not 1",
      ]);
      networks.close();
    });
  });
});
