import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { MetadataNFT__factory } from "../../../typechain-types";
import { dataJson } from "../../helpers/data-uri";
import { SuiteChain } from "../../helpers/suite-chain";

/** 127.0.0.2–127.0.0.7: six addresses of this machine (Linux answers all of 127/8), one slow origin. */
const HANGING_ADDRESSES = [2, 3, 4, 5, 6, 7].map((n) => `127.0.0.${n}`);
const HANGING_TOKENS = 48;
const HOST_CONCURRENCY = 4;

describe("token metadata: one slow origin does not starve the queue", function () {
  this.timeout(180_000);
  let connections = 0;
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    /** `server` listening on `address`, cut off and closed with the chain (the hanging ones hold their connections). */
    const listening = async (server: http.Server, address: string) => {
      await new Promise<void>((resolve) => server.listen(0, address, resolve));
      chain.closesWith({
        close: async () => {
          server.closeAllConnections();
          server.close();
        },
      });
      return server.address() as AddressInfo;
    };
    const hanging: AddressInfo[] = [];
    for (const address of HANGING_ADDRESSES) {
      const server = http.createServer(() => void connections++); // never answers
      hanging.push(await listening(server, address));
    }
    const fast = await listening(
      http.createServer(
        (_request, response) => void response.writeHead(200, { "content-type": "application/json" }).end('{"name":"fast"}'),
      ),
      "127.0.0.1",
    );
    const holder = (await chain.signer(11)).address;
    const deployer = await chain.signer(0);
    const slow = await new MetadataNFT__factory(deployer).deploy();
    const slowAddress = await slow.getAddress();
    const other = await new MetadataNFT__factory(deployer).deploy();
    const otherAddress = await other.getAddress();
    for (let id = 1; id <= HANGING_TOKENS; id++) {
      const { address, port } = hanging[id % hanging.length];
      await (await slow.mint(holder, id, `http://${address}:${port}/meta/${id}`)).wait();
    }
    await (await other.mint(holder, 1, dataJson({ name: "inline" }))).wait();
    await (await other.mint(holder, 2, `http://127.0.0.1:${fast.port}/2.json`)).wait();
    const t = await chain.startIndexingApp({
      env: {
        INDEXER_CONTRACTS_LOCALHOST: `${slowAddress},${otherAddress}`,
        METADATA_FETCH_ALLOW_PRIVATE: "true",
        // The slow origin holds what it takes for longer than the test runs.
        METADATA_FETCH_TIMEOUT_MS: "60000",
        METADATA_FETCH_WAIT_MS: "1000",
        METADATA_FETCH_CONCURRENCY: "16",
        METADATA_FETCH_HOST_CONCURRENCY: String(HOST_CONCURRENCY),
      },
    });
    return { t, holder, slowAddress, otherAddress };
  });

  const token = async (id: number) => {
    const { t, otherAddress } = suite();
    return (await (await t.fetch(`/token/localhost/${otherAddress}/${id}`)).json()) as Record<string, unknown>;
  };

  /** The token's answer on the first read, or on the second when the first is "pending". */
  async function firstOrSecondRead(id: number) {
    const first = await token(id);
    return first.metadataError === "pending" ? token(id) : first;
  }

  it("answers an unrelated data: token and a token of another origin while a metadata page waits on one hanging origin", async function () {
    const { t, holder, slowAddress } = suite();
    const page = await t.fetch(`/inventory/localhost/${holder}/${slowAddress}?metadata=true&limit=${HANGING_TOKENS}`);
    expect(page.status).to.equal(200);
    const items = (await page.json()) as Array<{ metadataError: string }>;
    expect(items).to.have.length(HANGING_TOKENS);
    expect(items.every((item) => item.metadataError === "pending")).to.equal(true);
    expect(await firstOrSecondRead(1)).to.deep.include({ metadata: { name: "inline" }, metadataError: null });
    expect(await firstOrSecondRead(2)).to.deep.include({ metadata: { name: "fast" }, metadataError: null });
    // The hanging origin's contract holds at most its share of the fetch slots, however many addresses it spreads over.
    expect(connections).to.equal(HOST_CONCURRENCY);
  });
});
