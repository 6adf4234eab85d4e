import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { expect } from "chai";
import { forbiddenAddress } from "../../../server/outbound/address-guard";
import { fetchDocument, type FetchOptions } from "../../../server/token-metadata/fetch-document";
import { KeyedLimiter, QueueFull } from "../../../server/lib/keyed-limiter";
import { signalsMadeFrom } from "../../helpers/abort-signals";
import {
  browserUrl,
  decodeDataUri,
  imageUrl,
  locate,
  MetadataError,
  parseMetadata,
  substituteId,
} from "../../../server/token-metadata/uri";

const GATEWAYS = { ipfs: "https://ipfs.example/ipfs/", arweave: "https://ar.example/" };

describe("token metadata: addresses, URIs and the guarded fetch", function () {
  describe("forbiddenAddress", function () {
    const refused = [
      "127.0.0.1",
      "127.255.0.9",
      "0.0.0.0",
      "10.0.0.1",
      "172.16.5.5",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "100.100.100.200",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
      "::ffff:10.0.0.1",
      "fe80::1",
      "febf::1",
      "fc00::1",
      "fd00:ec2::254",
      "ff02::1",
      "64:ff9b::a9fe:a9fe",
      "2002:c0a8:101::1",
      "[::1]",
      "::127.0.0.1",
      // Special-purpose IPv6 ranges that are not globally reachable.
      "::ffff:8.8.8.8",
      "::ffff:0:808:808",
      "64:ff9b:1::808:808",
      "100::1",
      "100:0:0:1::1",
      "2001:2::1",
      "2001:10::1",
      "2001:db8::1",
      "3fff::1",
      "5f00::1",
    ];
    for (const address of refused) {
      it(`refuses ${address}`, function () {
        expect(forbiddenAddress(address)).to.match(/loopback, private, link-local or reserved/);
      });
    }
    for (const address of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "64:ff9b::808:808", "2001:4860:4860::8888"]) {
      it(`lets ${address} through`, function () {
        expect(forbiddenAddress(address)).to.equal(undefined);
      });
    }
    it("refuses what is not an IP address", function () {
      expect(forbiddenAddress("localhost")).to.match(/not an IP address/);
    });
  });

  describe("URIs", function () {
    it("decodes base64 and percent-encoded data: URIs, and raw JSON written after the comma", function () {
      const json = '{"name":"Ünïcode 100%","n":12345678901234567890}';
      expect(decodeDataUri(`data:application/json;base64,${Buffer.from(json).toString("base64")}`, 1000).body.toString()).to.equal(json);
      expect(decodeDataUri(`data:application/json,${encodeURIComponent(json)}`, 1000).body.toString()).to.equal(json);
      expect(decodeDataUri(`data:application/json;utf8,${json}`, 1000).body.toString()).to.equal(json);
      expect(decodeDataUri("data:image/svg+xml;base64,PHN2Zy8+", 1000).mediaType).to.equal("image/svg+xml");
    });

    it("refuses data: URIs that are malformed or too large", function () {
      expect(() => decodeDataUri("data:application/json;base64", 100)).to.throw(MetadataError, /without a comma/);
      expect(() => decodeDataUri("data:application/json;base64,@@@@", 100)).to.throw(MetadataError, /invalid Base64/);
      expect(() => decodeDataUri(`data:application/json;base64,${Buffer.alloc(200).toString("base64")}`, 100)).to.throw(
        MetadataError,
        /larger than 100 bytes/,
      );
      expect(() => decodeDataUri(`data:application/json,${"x".repeat(200)}`, 100)).to.throw(MetadataError, /larger than 100 bytes/);
    });

    it("substitutes {id} with 64 lower-case hex digits", function () {
      expect(substituteId("https://x/{id}.json?v={id}", 0xabcn)).to.equal(`https://x/${"0".repeat(61)}abc.json?v=${"0".repeat(61)}abc`);
      expect(substituteId("https://x/{id}", 2n ** 256n - 1n)).to.equal(`https://x/${"f".repeat(64)}`);
    });

    it("maps ipfs:// and ar:// through the gateways, and names unsupported schemes", function () {
      expect(locate("ipfs://bafy/1.json", GATEWAYS, 100)).to.deep.include({ kind: "http", gateway: true });
      expect((locate("ipfs://bafy/1.json", GATEWAYS, 100) as { url: URL }).url.href).to.equal("https://ipfs.example/ipfs/bafy/1.json");
      expect((locate("ipfs://ipfs/bafy/1.json", GATEWAYS, 100) as { url: URL }).url.href).to.equal("https://ipfs.example/ipfs/bafy/1.json");
      expect((locate("ar://tx123", GATEWAYS, 100) as { url: URL }).url.href).to.equal("https://ar.example/tx123");
      expect(locate("https://example.com/1", GATEWAYS, 100)).to.deep.include({ kind: "http", gateway: false });
      expect(() => locate("ftp://example.com/1", GATEWAYS, 100)).to.throw(MetadataError, /unsupported URI scheme "ftp"/);
      expect(() => locate("file:///etc/passwd", GATEWAYS, 100)).to.throw(MetadataError, /unsupported URI scheme "file"/);
      expect(() => locate("just words", GATEWAYS, 100)).to.throw(MetadataError, /not a URI/);
      // A URL of a supported scheme that does not parse is named as such, not as an unsupported scheme.
      for (const uri of ["http://[::1", "https://exa mple.com/", "http://", "HTTP://[x]/1"])
        expect(() => locate(uri, GATEWAYS, 100), uri).to.throw(MetadataError, /^tokenURI is not a valid http\(s\) URL$/);
    });

    it("builds gateway URLs that cannot leave the gateway's path", function () {
      const gateways = { ipfs: "http://gateway.example/ipfs/", arweave: "http://gateway.example/ar/" };
      for (const uri of ["ipfs://../x", "ipfs://%2e%2e/x", "ipfs://ipfs/../../x", "ar://..\\x", "ipfs://bafy/%2F..%2Fx", "ar://./x"]) {
        expect(() => locate(uri, gateways, 100), uri).to.throw(
          MetadataError,
          /^gateway URI path has a "\." or "\.\." segment, a backslash or an encoded slash$/,
        );
        expect(imageUrl({ image: uri }, gateways), uri).to.equal(null);
      }
      const href = (uri: string) => (locate(uri, gateways, 100) as { url: URL }).url.href;
      expect(href("ipfs://bafy/dir/1.json?x=1")).to.equal("http://gateway.example/ipfs/bafy/dir/1.json?x=1");
      expect(href("ipfs://bafy/a%20b/%C3%A9.json")).to.equal("http://gateway.example/ipfs/bafy/a%20b/%C3%A9.json");
      expect(href("ipfs://bafy/a b")).to.equal("http://gateway.example/ipfs/bafy/a%20b");
      expect(href("ar://tx-1_x")).to.equal("http://gateway.example/ar/tx-1_x");
      expect(() => locate("ipfs://bafy/%zz", gateways, 100)).to.throw(
        MetadataError,
        /^gateway URI path is not valid percent-encoded UTF-8$/,
      );
    });

    it("gives images as browser URLs: gateways for ipfs/ar, data:image as it is, image_data as SVG", function () {
      expect(imageUrl({ image: "ipfs://bafy/1.png" }, GATEWAYS)).to.equal("https://ipfs.example/ipfs/bafy/1.png");
      expect(imageUrl({ image_url: "ar://tx/1.png" }, GATEWAYS)).to.equal("https://ar.example/tx/1.png");
      expect(imageUrl({ image: "data:image/svg+xml;base64,PHN2Zy8+" }, GATEWAYS)).to.equal("data:image/svg+xml;base64,PHN2Zy8+");
      expect(imageUrl({ image_data: "<svg xmlns='http://www.w3.org/2000/svg'/>" }, GATEWAYS)).to.equal(
        `data:image/svg+xml;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}`,
      );
      expect(imageUrl({ image: "javascript:alert(1)" }, GATEWAYS)).to.equal(null);
      expect(imageUrl({ image: 42 }, GATEWAYS)).to.equal(null);
      expect(browserUrl("https://x/\u0000.png", GATEWAYS)).to.equal(null);
    });

    it("takes one JSON object as metadata and keeps its text", function () {
      expect(parseMetadata(Buffer.from('\uFEFF {"big": 123456789012345678901234567890} ')).text).to.equal(
        '{"big": 123456789012345678901234567890}',
      );
      expect(() => parseMetadata(Buffer.from("[1]"))).to.throw(MetadataError, /not a JSON object/);
      expect(() => parseMetadata(Buffer.from("<html>"))).to.throw(MetadataError, /not valid JSON/);
    });
  });

  describe("fetchDocument", function () {
    let server: http.Server;
    let base: string;
    let port: number;
    const hits: string[] = [];

    before(async function () {
      server = http.createServer((request, response) => {
        hits.push(request.url!);
        const path = request.url!;
        if (path === "/ok.json") return void response.writeHead(200, { "content-type": "application/json" }).end('{"name":"ok"}');
        if (path === "/to-ok") return void response.writeHead(302, { location: "/ok.json" }).end();
        if (path === "/loop") return void response.writeHead(302, { location: "/loop" }).end();
        if (path === "/to-file") return void response.writeHead(302, { location: "file:///etc/passwd" }).end();
        if (path === "/html") return void response.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
        if (path === "/big") return void response.writeHead(200, { "content-type": "application/json" }).end(`"${"x".repeat(5000)}"`);
        if (path === "/bomb") {
          return void response
            .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
            .end(zlib.gzipSync(Buffer.alloc(1_000_000, 32)));
        }
        if (path === "/gzip")
          return void response
            .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
            .end(zlib.gzipSync('{"z":1}'));
        if (path === "/hang") return; // never answers
        response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
      base = `http://127.0.0.1:${port}`;
    });
    after(function () {
      server?.closeAllConnections();
      server?.close();
    });

    const open: FetchOptions = { allowPrivate: true, timeoutMs: 3000, maxBytes: 4096 };
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.fail("expected a refusal"),
        (error: Error) => {
          expect(error).to.be.instanceOf(MetadataError);
          return error.message;
        },
      );

    it("reads a document, following redirects and decompressing", async function () {
      expect((await fetchDocument(new URL(`${base}/to-ok`), open)).body.toString()).to.equal('{"name":"ok"}');
      expect((await fetchDocument(new URL(`${base}/gzip`), open)).body.toString()).to.equal('{"z":1}');
    });

    it("refuses loopback addresses, by IP and by name, without connecting", async function () {
      hits.length = 0;
      const guarded = { ...open, allowPrivate: false };
      expect(await failure(fetchDocument(new URL(`${base}/ok.json`), guarded))).to.equal(
        `refused to fetch 127.0.0.1:${port}: 127.0.0.1 is a loopback, private, link-local or reserved address`,
      );
      expect(await failure(fetchDocument(new URL(`http://localhost:${port}/ok.json`), guarded))).to.match(
        /^refused to fetch localhost: .* is a loopback/,
      );
      expect(await failure(fetchDocument(new URL(`http://[::ffff:127.0.0.1]:${port}/ok.json`), guarded))).to.match(
        /refused to fetch .* loopback/,
      );
      expect(await failure(fetchDocument(new URL(`http://0.0.0.0:${port}/ok.json`), guarded))).to.match(/refused to fetch 0\.0\.0\.0/);
      expect(await failure(fetchDocument(new URL("http://169.254.169.254/latest/meta-data/"), guarded))).to.match(
        /refused to fetch 169\.254\.169\.254/,
      );
      expect(hits).to.deep.equal([]);
    });

    it("checks the target of every redirect, even from a trusted gateway", async function () {
      hits.length = 0;
      const message = await failure(fetchDocument(new URL(`${base}/to-ok`), { ...open, allowPrivate: false, trustedFirstHop: true }));
      expect(message).to.match(/^refused to fetch 127\.0\.0\.1:\d+: .*loopback/);
      expect(hits).to.deep.equal(["/to-ok"]);
    });

    it("stops after 5 redirects and refuses redirects to other schemes", async function () {
      expect(await failure(fetchDocument(new URL(`${base}/loop`), open))).to.equal("more than 5 redirects");
      expect(await failure(fetchDocument(new URL(`${base}/to-file`), open))).to.match(/redirected to a file: URL/);
    });

    it("refuses other content types, bodies over the limit (after decompression), errors and hangs", async function () {
      expect(await failure(fetchDocument(new URL(`${base}/html`), open))).to.match(/answered text\/html, not JSON/);
      expect(await failure(fetchDocument(new URL(`${base}/big`), open))).to.equal("metadata is larger than 4096 bytes");
      expect(await failure(fetchDocument(new URL(`${base}/bomb`), open))).to.equal("metadata is larger than 4096 bytes");
      expect(await failure(fetchDocument(new URL(`${base}/missing`), open))).to.match(/answered HTTP 404/);
      expect(await failure(fetchDocument(new URL(`${base}/hang`), { ...open, timeoutMs: 300 }))).to.equal(
        `127.0.0.1:${port} did not answer within 300 ms`,
      );
      expect(await failure(fetchDocument(new URL("http://no-such-host.invalid/x"), open))).to.match(/does not resolve|failed/);
    });

    it("leaves nothing behind on the service's long-lived signal, and still stops when it aborts", async function () {
      // The resolver passes its shutdown signal to every fetch: a record kept on it per fetch would never be freed.
      const closing = new AbortController();
      for (let i = 0; i < 50; i++)
        expect((await fetchDocument(new URL(`${base}/ok.json`), { ...open, signal: closing.signal })).body.toString()).to.equal(
          '{"name":"ok"}',
        );
      expect(await failure(fetchDocument(new URL(`${base}/hang`), { ...open, timeoutMs: 200, signal: closing.signal }))).to.equal(
        `127.0.0.1:${port} did not answer within 200 ms`,
      );
      expect(signalsMadeFrom(closing.signal)).to.equal(0);
      const hanging = failure(fetchDocument(new URL(`${base}/hang`), { ...open, signal: closing.signal }));
      setTimeout(() => closing.abort(), 100);
      expect(await hanging).to.equal("the fetch was cancelled");
      expect(await failure(fetchDocument(new URL(`${base}/ok.json`), { ...open, signal: closing.signal }))).to.equal(
        "the fetch was cancelled",
      );
    });
  });

  describe("KeyedLimiter", function () {
    it("lets tasks of other keys pass a key that is at its limit, and bounds the queue", async function () {
      const limiter = new KeyedLimiter(3, 1, 4);
      const order: string[] = [];
      let release!: () => void;
      const slow = new Promise<void>((resolve) => (release = resolve));
      const a1 = limiter.run("a", () => slow.then(() => void order.push("a1")));
      const a2 = limiter.run("a", async () => void order.push("a2"));
      const b1 = limiter.run("b", async () => void order.push("b1"));
      await b1;
      expect(order).to.deep.equal(["b1"]);
      expect(limiter.size).to.deep.equal({ active: 1, waiting: 1 });
      for (let i = 0; i < 3; i++) void limiter.run("a", async () => {});
      await limiter
        .run("a", async () => {})
        .then(
          () => expect.fail("expected QueueFull"),
          (error) => expect(error).to.be.instanceOf(QueueFull),
        );
      release();
      await Promise.all([a1, a2]);
      expect(order).to.deep.equal(["b1", "a1", "a2"]);
    });

    it("runs a task with several keys only when each is below its limit", async function () {
      const limiter = new KeyedLimiter(10, 1);
      const order: string[] = [];
      let release!: () => void;
      const slow = new Promise<void>((resolve) => (release = resolve));
      const first = limiter.run(["address:a", "contract:x"], () => slow.then(() => void order.push("a/x")));
      // Another address of the same contract waits; another contract on another address does not.
      const sameContract = limiter.run(["address:b", "contract:x"], async () => void order.push("b/x"));
      const sameAddress = limiter.run(["address:a", "contract:y"], async () => void order.push("a/y"));
      await limiter.run(["address:c", "contract:z"], async () => void order.push("c/z"));
      expect(order).to.deep.equal(["c/z"]);
      expect(limiter.size).to.deep.equal({ active: 1, waiting: 2 });
      release();
      await Promise.all([first, sameContract, sameAddress]);
      expect(order).to.deep.equal(["c/z", "a/x", "b/x", "a/y"]);
      expect(limiter.size).to.deep.equal({ active: 0, waiting: 0 });
    });
  });
});
