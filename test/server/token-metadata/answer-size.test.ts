import { expect } from "chai";
import { MetadataNFT__factory, RepeatedUriERC1155__factory } from "../../../typechain-types";
import { fetchJson } from "../../helpers/app";
import { expectRefusal } from "../../helpers/refusal";
import { dataJson } from "../../helpers/data-uri";
import { SuiteChain } from "../../helpers/suite-chain";

/** The per-answer metadata budget the app runs with (the smallest the setting takes). */
const BUDGET = 65_536;
/** What an item may add beyond its metadata fields: ids, addresses, balance, the omission marker. */
const PER_ITEM = 512;

describe("token metadata: answer sizes", function () {
  this.timeout(300_000);
  const REPEATED_IDS = Array.from({ length: 32 }, (_, i) => BigInt(i + 1));
  const BIG_DOCUMENTS = 16;

  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const deployer = await chain.signer(0);
    const holder = (await chain.signer(9)).address;
    // 1.12 MB of "{id}" (about what an eth_call's gas allows): under the 2 MiB tokenURI limit as the contract answers,
    // 18 MB once each "{id}" is 64 digits, and 32 of them more than a JavaScript string can hold.
    const repeated = await new RepeatedUriERC1155__factory(deployer).deploy(280_000n);
    const repeatedAddress = await repeated.getAddress();
    await (
      await repeated.mintBatch(
        holder,
        REPEATED_IDS,
        REPEATED_IDS.map(() => 1n),
      )
    ).wait();
    const nft = await new MetadataNFT__factory(deployer).deploy();
    const nftAddress = await nft.getAddress();
    // Documents of about 3 kB in data: URIs of about 4 kB: each item of a metadata page carries about 7 kB.
    for (let id = 1; id <= BIG_DOCUMENTS; id++)
      await (await nft.mint(holder, id, dataJson({ name: `Big #${id}`, description: "x".repeat(3000) }))).wait();
    const t = await chain.startIndexingApp({
      env: {
        INDEXER_CONTRACTS_LOCALHOST: `${repeatedAddress},${nftAddress}`,
        METADATA_FETCH_WAIT_MS: "20000",
        METADATA_ANSWERS_MAX_BYTES: String(BUDGET),
      },
    });
    return { t, holder, repeatedAddress, nftAddress };
  });

  /**
   * Asks until no item is "pending" or says the node failed (megabyte eth_calls on a loaded machine; such failures
   * are not stored, so the next ask reads again), at most 40 times.
   */
  async function settled(path: string) {
    for (let tries = 0; ; tries++) {
      const answer = await fetchJson(suite().t, path);
      const items: Array<{ metadataError: unknown }> = Array.isArray(answer.body) ? answer.body : [answer.body];
      const unsettled = items.some((item) => item.metadataError === "pending" || /^The localhost node /.test(String(item.metadataError)));
      if (tries >= 40 || !unsettled) return answer;
    }
  }

  it("refuses an ERC-1155 uri that {id} substitution makes longer than the tokenURI limit, and stores no such tokenURI", async function () {
    const { repeatedAddress, t } = suite();
    const { status, text, body } = await settled(`/token/localhost/${repeatedAddress}/1`);
    expect(status).to.equal(200);
    expect(body).to.deep.include({
      tokenURI: null,
      metadata: null,
      image: null,
      metadataError: "uri(1) with {id} substituted is longer than 2097152 characters",
    });
    expect(text.length).to.be.below(10_000);
    const { rows } = await t.app.db.query<{ length: number | null }>(
      "SELECT octet_length(token_uri) AS length FROM token_metadata WHERE contract = $1 AND token_id = 1",
      [repeatedAddress.toLowerCase()],
    );
    expect(rows).to.deep.equal([{ length: null }]);
  });

  it("answers a metadata page of 32 such ids as valid JSON (no 500), each naming the limit", async function () {
    const { holder, repeatedAddress } = suite();
    const { status, text, body } = await settled(`/inventory/localhost/${holder}/${repeatedAddress}?metadata=true&limit=32`);
    expect(status, text.slice(0, 300)).to.equal(200);
    expect(body).to.have.length(32);
    for (const item of body)
      expect(item).to.deep.include({
        tokenURI: null,
        metadata: null,
        metadataError: `uri(${item.id}) with {id} substituted is longer than 2097152 characters`,
      });
  });

  it("keeps a metadata page within METADATA_ANSWERS_MAX_BYTES, naming each item left out and counting them", async function () {
    const { holder, nftAddress, t } = suite();
    const path = `/inventory/localhost/${holder}/${nftAddress}?metadata=true&limit=${BIG_DOCUMENTS}`;
    const { status, headers, text, body } = await settled(path);
    expect(status).to.equal(200);
    expect(Buffer.byteLength(text)).to.be.at.most(BUDGET + PER_ITEM * BIG_DOCUMENTS);
    expect(body).to.have.length(BIG_DOCUMENTS);
    const omitted = body.filter((item: { metadataOmitted?: boolean }) => item.metadataOmitted === true);
    const included = body.filter((item: { metadataOmitted?: boolean }) => item.metadataOmitted === undefined);
    expect(omitted.length).to.be.greaterThan(0);
    expect(included.length).to.be.greaterThan(0);
    expect(headers.get("x-metadata-omitted")).to.equal(String(omitted.length));
    // Page order: what fits comes first, then everything after is left out.
    expect(body.map((item: { id: number }) => item.id)).to.deep.equal(Array.from({ length: BIG_DOCUMENTS }, (_, i) => i + 1));
    expect(body.findIndex((item: { metadataOmitted?: boolean }) => item.metadataOmitted)).to.equal(included.length);
    for (const item of included) expect(item.metadata).to.deep.include({ name: `Big #${item.id}` });
    for (const item of omitted) {
      expect(item).to.deep.equal({
        contract: nftAddress,
        id: item.id,
        owner: holder,
        tokenURI: null,
        metadata: null,
        image: null,
        metadataError: `omitted: this answer's metadata would be larger than METADATA_ANSWERS_MAX_BYTES (${BUDGET} bytes); ask for fewer items`,
        metadataUpdatedAt: null,
        metadataOmitted: true,
      });
    }
    // An item left out is there when asked for alone.
    const alone = await fetchJson(t, `/token/localhost/${nftAddress}/${omitted[0].id}`);
    expect(alone.body).to.deep.include({ metadataError: null });
    expect(alone.body).not.to.have.property("metadataOmitted");
  });

  it("answers parallel metadata pages each within the budget", async function () {
    const { holder, nftAddress, t } = suite();
    const path = `/inventory/localhost/${holder}/${nftAddress}?metadata=true&limit=${BIG_DOCUMENTS}`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => fetchJson(t, path)));
    for (const { status, text, body } of answers) {
      expect(status).to.equal(200);
      expect(Buffer.byteLength(text)).to.be.at.most(BUDGET + PER_ITEM * BIG_DOCUMENTS);
      expect(body).to.have.length(BIG_DOCUMENTS);
    }
  });

  it("answers 503 metadata_busy when METADATA_ANSWERS_CONCURRENCY answers are under way and their queue is full", async function () {
    const { holder, nftAddress, t } = suite();
    const { answersConcurrency } = t.config.tokenMetadata;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The slots and the queue (16 per slot) taken by answers that are still being sent.
    const holders = Array.from({ length: answersConcurrency * 17 }, () => t.app.tokenMetadata.withAnswerSlot(() => held));
    try {
      for (const path of [`/token/localhost/${nftAddress}/1`, `/inventory/localhost/${holder}/${nftAddress}?metadata=true`]) {
        const response = await t.fetch(path);
        await expectRefusal(response, 503, "metadata_busy", {
          label: path,
          message: "Too many answers with token metadata are under way; try again shortly",
          headers: { "retry-after": "1" },
        });
      }
      // Answers without metadata do not queue.
      expect((await t.fetch(`/inventory/localhost/${holder}/${nftAddress}`)).status).to.equal(200);
    } finally {
      release();
      await Promise.all(holders);
    }
    expect((await t.fetch(`/token/localhost/${nftAddress}/1`)).status).to.equal(200);
  });

  it("documents the omission in the OpenAPI document", async function () {
    const { t } = suite();
    const document = (await t.app.inject({ url: "/openapi.json" })).json();
    const ok = document.paths["/inventory/{network}/{owner}/{assetContract}"].get.responses["200"];
    expect(ok.headers).to.have.property("X-Metadata-Omitted");
    expect(JSON.stringify(ok.content["application/json"].schema)).to.contain("metadataOmitted");
    expect(JSON.stringify(document.paths["/token/{network}/{contract}/{id}"].get.responses["200"])).to.contain("metadataOmitted");
  });
});
