import { expect } from "chai";
import { getAddress, Wallet } from "ethers";
import { Networks } from "../../../server/chain/networks";
import { NETWORKS } from "../../../server/chain/registry";
import { DomainError } from "../../../server/lib/domain-error";
import { prove } from "../../../server/signed-metadata/proof";
import { chosenStatements, OMITTED_COUNT_MAX } from "../../../server/signed-metadata/store";
import { withQueryHook } from "../../../support/query-hook";
import { boundText, encodeMetadata, unboundText, type Target } from "../../../server/signed-metadata/signed-text";
import { startOfMinute, startTestApp, type TestApp } from "../../helpers/app";
import { closesAfterEach } from "../../helpers/closes-after-each";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { deployTestSigners } from "../../helpers/signers";
import { SuiteChain } from "../../helpers/suite-chain";
import { startTcpProxy } from "../../helpers/tcp-proxy";
import { expectRefusal, type RefusalExpectation } from "../../helpers/refusal";

const CONTRACT = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
type NftTarget = Extract<Target, { kind: "nft" }>;
const NFT: NftTarget = { kind: "nft", network: "localhost", contract: CONTRACT.toLowerCase(), tokenId: 7n };

/** The tests post far more than a client may in a minute; the limit has its own test. */
const UNLIMITED = { METADATA_POST_RATE_LIMIT: "1000000" };

describe("metadata service", function () {
  let tokenCounter = 100n;
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const signers = await deployTestSigners(await chain.signer(0));
    return { signers, t: chain.closesWith(await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, ...UNLIMITED } })) };
  });
  const closesAfterTest = closesAfterEach();

  /** A fresh token per test, so tests do not see each other's statements. */
  const freshNft = (): NftTarget => ({ ...NFT, tokenId: tokenCounter++ });
  const nftPath = (target: Target, prefix = "/metadata") =>
    target.kind === "nft" ? `${prefix}/${target.network}/${target.contract}/${target.tokenId}` : "";
  const accountPath = (target: Target) => (target.kind === "account" ? `/metadata/ethereum/${target.network}/${target.account}` : "");

  async function body(
    signer: { address: string; sign(m: string): Promise<string> },
    target: Target,
    data: object,
    binding: "target" | "none" = "target",
  ) {
    const metadata = encodeMetadata(data);
    const text = binding === "target" ? boundText(target, metadata) : unboundText(metadata);
    return { iss: signer.address, sig: await signer.sign(text), metadata };
  }
  const eoa = () => {
    const wallet = Wallet.createRandom();
    return { address: wallet.address, sign: (m: string) => wallet.signMessage(m) };
  };

  /** An answer's JSON as the tests read it: the fields of the raw format they pass on are typed as served. */
  type Answer = { [field: string]: unknown; text: string; sig: string; posted_at: string };

  async function post(path: string, payload: unknown, app: TestApp = suite().t) {
    const response = await app.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    return { status: response.status, body: (await response.json()) as Answer };
  }
  async function get(path: string, app: TestApp = suite().t) {
    const response = await app.fetch(path);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as Answer };
  }
  const storedPosts = async (app: TestApp) =>
    (await app.app.db.query<{ n: number }>("SELECT count(*)::int AS n FROM metadata_posts")).rows[0].n;
  /** Posts a body the service must refuse: checks the refusal, and that it stored nothing. */
  async function refusedPost(
    path: string,
    payload: unknown,
    status: number,
    code: string,
    { app = suite().t, ...extra }: { app?: TestApp } & RefusalExpectation = {},
  ) {
    const before = await storedPosts(app);
    const response = await app.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    const refusal = await expectRefusal(response, status, code, extra);
    expect(await storedPosts(app), `${extra.label ?? path}: a refused post stored a statement`).to.equal(before);
    return refusal;
  }

  describe("routes and aliases", function () {
    it("posts NFT metadata ('ok') and reads it on both paths as {issuer: metadata}", async function () {
      const target = freshNft();
      const issuer = eoa();
      expect(await post(nftPath(target), await body(issuer, target, { name: "Sword", power: 3 }))).to.deep.equal({
        status: 200,
        body: "ok",
      });
      for (const prefix of ["/metadata", "/metadata/ethereum"]) {
        const read = await get(nftPath(target, prefix));
        expect(read.status).to.equal(200);
        expect(read.body).to.deep.equal({ [issuer.address]: { name: "Sword", power: 3 } });
      }
    });

    it("posts on the /metadata/ethereum/<network>/<contract>/<id> alias too", async function () {
      const target = freshNft();
      const issuer = eoa();
      expect((await post(nftPath(target, "/metadata/ethereum"), await body(issuer, target, { a: 1 }))).body).to.equal("ok");
      expect((await get(nftPath(target))).body).to.deep.equal({ [issuer.address]: { a: 1 } });
    });

    it("posts and reads account metadata", async function () {
      const issuer = eoa();
      const account: Target = { kind: "account", network: "localhost", account: Wallet.createRandom().address.toLowerCase() };
      expect((await post(accountPath(account), await body(issuer, account, { nickname: "alice" }))).body).to.equal("ok");
      expect((await get(accountPath(account))).body).to.deep.equal({ [issuer.address]: { nickname: "alice" } });
    });

    it('accepts a body wrapped as {"data": {...}}', async function () {
      const target = freshNft();
      const issuer = eoa();
      expect((await post(nftPath(target), { data: await body(issuer, target, { wrapped: true }) })).body).to.equal("ok");
      expect((await get(nftPath(target))).body).to.deep.equal({ [issuer.address]: { wrapped: true } });
    });

    it("keeps the issuer's JSON exactly: key order and numbers beyond 2^53", async function () {
      const target = freshNft();
      const issuer = eoa();
      const json = '{"z":1,"a":{"big":123456789012345678901234567890},"name":"x"}';
      const metadata = Buffer.from(json).toString("base64");
      await post(nftPath(target), { iss: issuer.address, sig: await issuer.sign(boundText(target, metadata)), metadata });
      expect((await get(`${nftPath(target)}?iss=${issuer.address}`)).text).to.equal(json);
    });
  });

  describe("reads", function () {
    let target: NftTarget;
    let first: ReturnType<typeof eoa>;
    let second: ReturnType<typeof eoa>;

    before(async function () {
      target = freshNft();
      first = eoa();
      second = eoa();
      await post(nftPath(target), await body(first, target, { by: "first" }));
      await post(nftPath(target), await body(second, target, { by: "second", 名前: "剣" }));
    });

    it("lists every issuer with checksummed keys", async function () {
      const read = await get(nftPath(target));
      expect(read.body).to.deep.equal({ [first.address]: { by: "first" }, [second.address]: { by: "second", 名前: "剣" } });
      for (const key of Object.keys(read.body)) expect(key).to.equal(getAddress(key));
    });

    it("answers one issuer's metadata object with ?iss= (what a tokenURI points at)", async function () {
      expect((await get(`${nftPath(target)}?iss=${first.address.toLowerCase()}`)).body).to.deep.equal({ by: "first" });
    });

    it("adds iss, sig, the Base64, the signed text and the time in raw format (format or Format)", async function () {
      for (const query of ["format=raw", "Format=raw"]) {
        const read = await get(`${nftPath(target)}?${query}&iss=${second.address}`);
        const metadata = encodeMetadata({ by: "second", 名前: "剣" });
        expect(read.body).to.include({
          iss: second.address,
          metadata,
          text: boundText(target, metadata),
          binding: "target",
          signer: "eoa",
        });
        expect(read.body.sig).to.match(/^0x[0-9a-f]{130}$/);
        expect(read.body.time).to.be.a("number");
        expect(Math.floor(Date.parse(read.body.posted_at) / 1000)).to.equal(read.body.time);
        expect(read.body.data).to.deep.equal({ by: "second", 名前: "剣" });
        // The record proves itself: the signature recovers iss over the text.
        const { verifyMessage } = await import("ethers");
        expect(verifyMessage(read.body.text, read.body.sig)).to.equal(second.address);
      }
      const all = await get(`${nftPath(target)}?format=raw`);
      expect(Object.keys(all.body)).to.have.members([first.address, second.address]);
      expect((all.body[first.address] as { data: unknown }).data).to.deep.equal({ by: "first" });
    });

    it("finds the same records with addresses in another letter case", async function () {
      const upper: NftTarget = { ...target, contract: `0x${CONTRACT.slice(2).toUpperCase()}` };
      expect((await get(nftPath(upper))).body).to.have.keys([first.address, second.address]);
      expect((await get(`${nftPath(target)}?iss=0x${first.address.slice(2).toUpperCase()}`)).body).to.deep.equal({ by: "first" });
    });

    it("is a 404 'Not found' when nothing is stored, for the target or the issuer", async function () {
      for (const path of [
        nftPath(freshNft()),
        `${nftPath(target)}?iss=${Wallet.createRandom().address}`,
        accountPath({ kind: "account", network: "localhost", account: Wallet.createRandom().address }),
      ]) {
        const read = await get(path);
        await expectRefusal(read, 404, "not_found", { label: path, message: "Not found" });
      }
    });

    it("refuses a bad format, address, id or network in a read", async function () {
      await expectRefusal(await get(`${nftPath(target)}?format=xml`), 400, "invalid_request");
      await expectRefusal(await get(`${nftPath(target)}?format=raw&Format=json`), 400, "invalid_request", {
        message: "format and Format disagree",
      });
      await expectRefusal(await get(`/metadata/localhost/0x1234/1`), 400, "invalid_address");
      await expectRefusal(await get(`/metadata/localhost/${CONTRACT}/-1`), 400, "invalid_token_id");
      await expectRefusal(await get(`/metadata/ethereum2/${CONTRACT}/1`), 400, "unknown_network");
      await expectRefusal(await get(`${nftPath(target)}?iss=nobody`), 400, "invalid_address");
    });
  });

  describe("many issuers about one target", function () {
    const MAX = 16;
    let target: NftTarget;
    let issuers: ReturnType<typeof eoa>[];
    const expected = (kept: ReturnType<typeof eoa>[]) =>
      Object.fromEntries(kept.map((issuer) => [issuer.address, { i: issuers.indexOf(issuer) }]));

    before(async function () {
      expect(suite().t.config.metadata.answerMaxIssuers).to.equal(MAX);
      target = freshNft();
      issuers = Array.from({ length: 40 }, eoa);
      // One after the other, so that each is more recent than the one before.
      for (const [i, issuer] of issuers.entries())
        expect((await post(nftPath(target), await body(issuer, target, { i }))).status).to.equal(200);
    });

    it("answers the SIGNED_METADATA_ANSWER_MAX_ISSUERS most recent, by issuer, and counts the others in X-Signed-Omitted", async function () {
      for (const format of ["", "?format=raw"]) {
        const read = await get(`${nftPath(target)}${format}`);
        expect(read.status).to.equal(200);
        expect(read.headers.get("x-signed-omitted")).to.equal("24");
        const kept = issuers.slice(24);
        if (format === "") expect(read.body).to.deep.equal(expected(kept));
        else {
          expect(Object.keys(read.body)).to.have.members(kept.map((issuer) => issuer.address));
          for (const issuer of kept) expect((read.body[issuer.address] as Answer).data).to.deep.equal({ i: issuers.indexOf(issuer) });
        }
        const keys = Object.keys(read.body);
        expect(keys).to.deep.equal([...keys].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      }
    });

    it("answers the issuers named in issuers first (any letter case, repeated or not), then the most recent", async function () {
      const named = [issuers[3], issuers[0], issuers[30]];
      const list = [named[0].address.toLowerCase(), named[1].address, named[2].address, named[0].address].join(",");
      const read = await get(`${nftPath(target)}?issuers=${list}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(expected([issuers[0], issuers[3], ...issuers.slice(26)]));
      expect(read.headers.get("x-signed-omitted")).to.equal("24");
      const all = await get(
        `${nftPath(target)}?issuers=${issuers
          .slice(0, MAX)
          .map((issuer) => issuer.address)
          .join(",")}`,
      );
      expect(all.body).to.deep.equal(expected(issuers.slice(0, MAX)));
    });

    it("still answers any one issuer with ?iss=, and no X-Signed-Omitted within the limit", async function () {
      expect((await get(`${nftPath(target)}?iss=${issuers[0].address}`)).body).to.deep.equal({ i: 0 });
      const few = freshNft();
      await post(nftPath(few), await body(issuers[0], few, { i: 0 }));
      const read = await get(nftPath(few));
      expect(read.body).to.deep.equal({ [issuers[0].address]: { i: 0 } });
      expect(read.headers.get("x-signed-omitted")).to.equal(null);
    });

    it("reads a bounded number of a target's statements however many it has, and counts the others up to a bound", async function () {
      const { t } = suite();
      const crowded = freshNft();
      const count = OMITTED_COUNT_MAX + 2_000;
      // As many current statements as that many issuers' posts would leave, each more recent than the one before.
      await t.app.db.query(
        `INSERT INTO metadata_posts (kind, network, target, token_id, issuer, metadata_b64, body_hash, signature, signed_text, binding, signer_kind, json_checked, posted_at)
         SELECT 'nft', $1, $2, $3, '0x' || lpad(to_hex(n), 40, '0'), encode(convert_to('{"i":' || n || '}', 'UTF8'), 'base64'),
                sha256(int4send(n)), '0x', '', 'target', 'eoa', true, timestamptz '2026-01-01' + n * interval '1 second'
         FROM generate_series(1, $4::int) n`,
        [crowded.network, crowded.contract, crowded.tokenId.toString(), count],
      );
      await t.app.db.query("ANALYZE metadata_posts");
      const issuer = (n: number) => getAddress(`0x${n.toString(16).padStart(40, "0")}`);

      const read = await get(`${nftPath(crowded)}?issuers=${issuer(1)}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(
        Object.fromEntries([1, ...Array.from({ length: MAX - 1 }, (_, i) => count - i)].map((n) => [issuer(n), { i: n }])),
      );
      expect(read.headers.get("x-signed-omitted")).to.equal(String(OMITTED_COUNT_MAX - MAX));

      // What the statement reads of metadata_posts, from its plan as run: its bound, not the target's statements.
      let readRows = 0;
      const explained = withQueryHook(t.app.db, async (sql, params, run) => {
        const { rows } = await t.app.db.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
        const pending: unknown[] = [rows[0]["QUERY PLAN"]];
        while (pending.length > 0) {
          const node = pending.pop();
          if (Array.isArray(node)) pending.push(...node);
          else if (node && typeof node === "object") {
            const plan = node as Record<string, unknown>;
            if (plan["Relation Name"] === "metadata_posts") readRows += Number(plan["Actual Rows"]) * Number(plan["Actual Loops"]);
            pending.push(...Object.values(plan));
          }
        }
        return run();
      });
      const chosen = await chosenStatements(explained, { target: crowded, named: [issuer(1).toLowerCase()], max: MAX });
      expect(chosen.statements).to.have.length(MAX);
      expect(readRows).to.be.greaterThan(0);
      expect(readRows).to.be.at.most(2 * MAX + OMITTED_COUNT_MAX);
    });

    it("refuses more than SIGNED_METADATA_ANSWER_MAX_ISSUERS named issuers, a bad one, or issuers with iss", async function () {
      const { t } = suite();
      const path = nftPath(target);
      const tooMany = issuers
        .slice(0, MAX + 1)
        .map((issuer) => issuer.address)
        .join(",");
      await expectRefusal(await t.fetch(`${path}?issuers=${tooMany}`), 400, "invalid_request", {
        message: "issuers names at most 16 issuers (SIGNED_METADATA_ANSWER_MAX_ISSUERS)",
      });
      await expectRefusal(await t.fetch(`${path}?issuers=${issuers[0].address},`), 400, "invalid_address", {
        message: "issuers must be 0x followed by 40 hex digits",
      });
      await expectRefusal(await t.fetch(`${path}?issuers=${issuers[0].address}&iss=${issuers[1].address}`), 400, "invalid_request", {
        message: "give iss or issuers, not both",
      });
    });
  });

  describe("refusals", function () {
    it("a missing iss, sig or metadata is a 400 naming the field", async function () {
      const target = freshNft();
      const full = await body(eoa(), target, { a: 1 });
      for (const field of ["iss", "sig", "metadata"] as const) {
        const { [field]: _, ...rest } = full;
        const r = await refusedPost(nftPath(target), rest, 400, "invalid_request", { label: field });
        expect(r.body).to.deep.equal({ error: "invalid_request", message: `${field} is required` });
      }
      await refusedPost(nftPath(target), { ...full, sig: 12 }, 400, "invalid_request", { message: "sig must be a string" });
      await refusedPost(nftPath(target), [full], 400, "invalid_request", { message: "body must be object" });
    });

    it("a malformed signature is a 400", async function () {
      const target = freshNft();
      const full = await body(eoa(), target, { a: 1 });
      for (const sig of ["0x1234", "hello", full.sig.slice(0, -2)]) {
        await refusedPost(nftPath(target), { ...full, sig }, 400, "malformed_signature", { label: sig });
      }
    });

    it("a signature by someone other than iss is a 401", async function () {
      const target = freshNft();
      const signed = await body(eoa(), target, { a: 1 });
      await refusedPost(nftPath(target), { ...signed, iss: Wallet.createRandom().address }, 401, "invalid_signature", {
        message: "sig is not a signature by iss of this target's text",
      });
    });

    it("invalid Base64, or Base64 of anything but a UTF-8 JSON object, is a 400", async function () {
      const target = freshNft();
      const issuer = eoa();
      const cases = [
        "not base64!",
        "YWJj=",
        Buffer.from("[1,2]").toString("base64"),
        Buffer.from('"text"').toString("base64"),
        Buffer.from("null").toString("base64"),
        Buffer.from("{bad json").toString("base64"),
        Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString("base64"),
      ];
      for (const metadata of cases) {
        await refusedPost(
          nftPath(target),
          { iss: issuer.address, sig: await issuer.sign(boundText(target, metadata)), metadata },
          400,
          "invalid_metadata",
          { label: metadata },
        );
      }
    });

    it("metadata over the size limit is a 413, and so is a body over the route's limit", async function () {
      const target = freshNft();
      const issuer = eoa();
      const big = await body(issuer, target, { blob: "x".repeat(70 * 1024) });
      await refusedPost(nftPath(target), big, 413, "payload_too_large");
      await refusedPost(nftPath(target), { ...big, metadata: "A".repeat(400 * 1024) }, 413, "payload_too_large");
    });

    it("an account post by a contract wallet is a 403 (an EOA is required)", async function () {
      const { signers } = suite();
      const account: Target = { kind: "account", network: "localhost", account: Wallet.createRandom().address.toLowerCase() };
      for (const kind of ["single", "counterfactual"] as const) {
        await refusedPost(accountPath(account), await body(signers[kind], account, { a: 1 }), 403, "eoa_required", {
          label: kind,
        });
      }
    });

    it("an account post by an EOA that delegates to code (EIP-7702) is judged by its key: 401 for another key's signature, not 403", async function () {
      const { signers, chain } = suite();
      const delegating = Wallet.createRandom();
      await chain.provider.send("hardhat_setCode", [delegating.address, `0xef0100${signers.single.address.slice(2)}`]);
      const account: Target = { kind: "account", network: "localhost", account: Wallet.createRandom().address.toLowerCase() };
      const signed = await body({ address: delegating.address, sign: (m) => delegating.signMessage(m) }, account, { a: 1 });
      await refusedPost(
        accountPath(account),
        { ...signed, sig: await Wallet.createRandom().signMessage("another text") },
        401,
        "invalid_signature",
      );
      expect((await post(accountPath(account), signed)).body).to.equal("ok");
    });

    it("a body signed for another token, account or network is a 401", async function () {
      const issuer = eoa();
      const target = freshNft();
      const signed = await body(issuer, target, { a: 1 });
      const others = [
        nftPath({ ...target, tokenId: tokenCounter++ }),
        nftPath({ ...target, contract: Wallet.createRandom().address.toLowerCase() }),
      ];
      for (const path of others) await refusedPost(path, signed, 401, "invalid_signature", { label: path });
      // Signed for mainnet, posted for localhost.
      const mainnetSigned = await body(issuer, { ...target, network: "mainnet" }, { a: 1 });
      await refusedPost(nftPath(target), mainnetSigned, 401, "invalid_signature");
      const account: Target = { kind: "account", network: "localhost", account: Wallet.createRandom().address.toLowerCase() };
      const accountSigned = await body(issuer, account, { a: 1 });
      const otherAccount = accountPath({ ...account, account: Wallet.createRandom().address.toLowerCase() } as Target);
      await refusedPost(otherAccount, accountSigned, 401, "invalid_signature");
    });

    it("a superseded body is a 409; the current body again is a 200 and changes nothing", async function () {
      const { t } = suite();
      const target = freshNft();
      const issuer = eoa();
      const v1 = await body(issuer, target, { v: 1 });
      const v2 = await body(issuer, target, { v: 2 });
      expect((await post(nftPath(target), v1)).body).to.equal("ok");
      expect((await post(nftPath(target), v2)).body).to.equal("ok");
      await refusedPost(nftPath(target), v1, 409, "replayed");
      const again = await post(nftPath(target), v2);
      expect(again).to.deep.equal({ status: 200, body: "ok" });
      expect((await get(nftPath(target))).body).to.deep.equal({ [issuer.address]: { v: 2 } });
      const { rows } = await t.app.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM metadata_posts WHERE target = $1 AND token_id = $2 AND issuer = $3",
        [target.contract, target.tokenId.toString(), issuer.address.toLowerCase()],
      );
      expect(rows[0].n).to.equal(2);
    });

    it("a contract wallet's post for a network without a node is a 503, a post for an unknown network a 400", async function () {
      const { signers } = suite();
      const target = { ...freshNft(), network: "sepolia" };
      for (const kind of ["single", "counterfactual"] as const) {
        const r = await refusedPost(nftPath(target), await body(signers[kind], target, { a: 1 }), 503, "network_unavailable", {
          label: kind,
        });
        expect(r.body.message, kind).to.include("RPC_URL_SEPOLIA");
      }
      await refusedPost(`/metadata/ethereum2/${CONTRACT}/1`, await body(eoa(), target, { a: 1 }), 400, "unknown_network");
    });
  });

  describe("EOA issuers on networks without a node", function () {
    // The service has no RPC_URL_MAINNET (nor any other but localhost's): an EOA's signature needs no node.
    it("takes NFT and account posts on mainnet, bound and unbound, at both prefixes, and reads them back", async function () {
      const issuer = eoa();
      const nft: NftTarget = { ...freshNft(), network: "mainnet" };
      expect(await post(nftPath(nft, "/metadata/ethereum"), await body(issuer, nft, { name: "Sword" }))).to.deep.equal({
        status: 200,
        body: "ok",
      });
      const unboundNft: NftTarget = { ...freshNft(), network: "mainnet" };
      expect(await post(nftPath(unboundNft), await body(issuer, unboundNft, { name: "Shield" }, "none"))).to.deep.equal({
        status: 200,
        body: "ok",
      });
      const account: Target = { kind: "account", network: "mainnet", account: Wallet.createRandom().address.toLowerCase() };
      expect(await post(accountPath(account), await body(issuer, account, { nickname: "alice" }))).to.deep.equal({
        status: 200,
        body: "ok",
      });
      expect((await get(nftPath(nft, "/metadata/ethereum"))).body).to.deep.equal({ [issuer.address]: { name: "Sword" } });
      expect((await get(`${nftPath(unboundNft)}?format=raw`)).body[issuer.address]).to.include({ binding: "none", signer: "eoa" });
      expect((await get(accountPath(account))).body).to.deep.equal({ [issuer.address]: { nickname: "alice" } });
    });

    it("works on every network of the registry", async function () {
      const { t } = suite();
      const issuer = eoa();
      const withoutNode = Object.keys(NETWORKS).filter((network) => !t.app.networks.configured().includes(network));
      expect(withoutNode).to.include.members(["mainnet", "matic-mainnet", "mch-verse"]);
      for (const network of withoutNode) {
        const target: NftTarget = { ...freshNft(), network };
        expect(await post(nftPath(target), await body(issuer, target, { network })), network).to.deep.equal({ status: 200, body: "ok" });
      }
    });

    it("still refuses, without a node: a wrong signature of an account (401), a 6492 wrapper for an account (403), a malformed sig (400)", async function () {
      const { signers } = suite();
      const account: Target = { kind: "account", network: "mainnet", account: Wallet.createRandom().address.toLowerCase() };
      const signed = await body(eoa(), account, { a: 1 });
      await refusedPost(accountPath(account), { ...signed, iss: Wallet.createRandom().address }, 401, "invalid_signature");
      await refusedPost(accountPath(account), await body(signers.counterfactual, account, { a: 1 }), 403, "eoa_required");
      for (const sig of ["0xzz", "nothex", "0x"]) {
        await refusedPost(nftPath({ ...freshNft(), network: "mainnet" }), { ...signed, sig }, 400, "malformed_signature", {
          label: sig,
        });
      }
    });

    it("an EOA's signature of another target is a 503 there (it might be a contract wallet's), and SIGNED_METADATA_REQUIRE_BINDING still holds", async function () {
      const { chain } = suite();
      const issuer = eoa();
      const target: NftTarget = { ...freshNft(), network: "mainnet" };
      const signedElsewhere = await body(issuer, { ...target, tokenId: target.tokenId + 1000n }, { a: 1 });
      await refusedPost(nftPath(target), signedElsewhere, 503, "network_unavailable");
      const strict = closesAfterTest(
        await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, SIGNED_METADATA_REQUIRE_BINDING: "true", ...UNLIMITED } }),
      );
      await refusedPost(nftPath(target), await body(issuer, target, { a: 1 }, "none"), 401, "binding_required", {
        app: strict,
      });
      expect((await post(nftPath(target), await body(issuer, target, { a: 1 }), strict)).body).to.equal("ok");
    });
  });

  describe("EIP-1271 issuers", function () {
    it("accepts single-owner and multisig wallets after the on-chain check", async function () {
      const { signers } = suite();
      const target = freshNft();
      for (const kind of ["single", "multisig", "counterfactual"] as const) {
        expect((await post(nftPath(target), await body(signers[kind], target, { by: kind }))).body, kind).to.equal("ok");
      }
      const read = await get(`${nftPath(target)}?format=raw`);
      expect((read.body[signers.single.address] as { signer: string }).signer).to.equal("erc1271");
      expect((read.body[signers.counterfactual.address] as { signer: string }).signer).to.equal("erc6492");
    });

    it("refuses the reverting and the wrong-value wallets with a 401", async function () {
      const { signers } = suite();
      const target = freshNft();
      const reverting = await body(signers.reverting, target, { a: 1 });
      await refusedPost(nftPath(target), { ...reverting, sig: await signers.eoa.sign("other") }, 401, "invalid_signature");
      await refusedPost(nftPath(target), await body(signers.wrongValue, target, { a: 1 }), 401, "invalid_signature");
    });

    it("answers 502, not 500, when the node fails during the check, and works again after", async function () {
      const { signers, chain } = suite();
      const url = new URL(chain.url);
      const proxy = closesAfterTest(await startTcpProxy(url.hostname, Number(url.port)));
      const other = closesAfterTest(
        await startTestApp({ env: { RPC_URL_LOCALHOST: proxy.url(chain.url), RPC_TIMEOUT_MS: "1000", ...UNLIMITED } }),
      );
      const target = freshNft();
      const signed = await body(signers.single, target, { a: 1 });
      proxy.cut();
      await refusedPost(nftPath(target), signed, 502, "upstream_error", { app: other });
      proxy.restore();
      expect((await post(nftPath(target), signed, other)).body).to.equal("ok");
    });
  });

  describe("the predecessor's unbound signatures", function () {
    const japanese = { name: "勇者", description: "伝説の剣を持つ" };

    it("accepts a signature over the Base64 alone, marked binding none, with non-ASCII text", async function () {
      const issuer = eoa();
      const account = Wallet.createRandom().address;
      // What mchplus.js does: btoa(unescape(encodeURIComponent(JSON.stringify(data)))), personal_sign of that.
      const metadata = Buffer.from(unescape(encodeURIComponent(JSON.stringify(japanese))), "latin1").toString("base64");
      expect(metadata).to.equal(encodeMetadata(japanese));
      const r = await post(`/metadata/ethereum/localhost/${account}`, { iss: issuer.address, sig: await issuer.sign(metadata), metadata });
      expect(r).to.deep.equal({ status: 200, body: "ok" });
      const raw = await get(`/metadata/ethereum/localhost/${account}?format=raw&iss=${issuer.address}`);
      expect(raw.body).to.include({ binding: "none", text: metadata });
      expect(raw.body.data).to.deep.equal(japanese);
      expect((await get(`/metadata/ethereum/localhost/${account}`)).body).to.deep.equal({ [issuer.address]: japanese });
    });

    it("accepts unbound NFT metadata too", async function () {
      const target = freshNft();
      const issuer = eoa();
      expect((await post(nftPath(target), await body(issuer, target, japanese, "none"))).body).to.equal("ok");
      expect((await get(`${nftPath(target)}?format=raw&iss=${issuer.address}`)).body.binding).to.equal("none");
    });

    it("lets the issuer's bound post of the same Base64 replace an unbound record a third party posted first", async function () {
      const { t } = suite();
      const target = freshNft();
      const issuer = eoa();
      // Someone who saw the issuer's unbound signature elsewhere posts it here first.
      const unbound = await body(issuer, target, japanese, "none");
      expect((await post(nftPath(target), unbound)).body).to.equal("ok");
      const bound = await body(issuer, target, japanese);
      expect(bound.metadata).to.equal(unbound.metadata);
      expect(await post(nftPath(target), bound)).to.deep.equal({ status: 200, body: "ok" });
      const raw = (await get(`${nftPath(target)}?format=raw&iss=${issuer.address}`)).body;
      expect(raw).to.include({ binding: "target", sig: bound.sig, text: boundText(target, bound.metadata) });
      // The unbound form again changes nothing: the bound record stays current.
      expect((await post(nftPath(target), unbound)).body).to.equal("ok");
      expect((await get(`${nftPath(target)}?format=raw&iss=${issuer.address}`)).body).to.include({ binding: "target", sig: bound.sig });
      const { rows } = await t.app.db.query<{ binding: string; current: boolean }>(
        "SELECT binding, current FROM metadata_posts WHERE target = $1 AND token_id = $2 ORDER BY id",
        [target.contract, target.tokenId.toString()],
      );
      expect(rows).to.deep.equal([
        { binding: "none", current: false },
        { binding: "target", current: true },
      ]);
    });

    it("refuses them when SIGNED_METADATA_REQUIRE_BINDING=true, and still takes bound ones", async function () {
      const { chain } = suite();
      const strict = closesAfterTest(
        await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, SIGNED_METADATA_REQUIRE_BINDING: "true", ...UNLIMITED } }),
      );
      const issuer = eoa();
      const account: Target = { kind: "account", network: "localhost", account: Wallet.createRandom().address.toLowerCase() };
      await refusedPost(accountPath(account), await body(issuer, account, japanese, "none"), 401, "binding_required", {
        app: strict,
      });
      expect((await post(accountPath(account), await body(issuer, account, japanese), strict)).body).to.equal("ok");
    });
  });

  describe("rate limit", function () {
    it("counts the three post routes together against METADATA_POST_RATE_LIMIT per IP: then 429, nothing stored; reads are not counted", async function () {
      const { chain } = suite();
      const limited = closesAfterTest(
        await startTestApp({ env: { RPC_URL_LOCALHOST: chain.url, INDEXER: "false", METADATA_POST_RATE_LIMIT: "3" } }),
      );
      startOfMinute(limited.clock);
      const issuer = eoa();
      const nft = freshNft();
      const account: Target = { kind: "account", network: "localhost", account: issuer.address.toLowerCase() };
      expect((await post(nftPath(nft), await body(issuer, nft, { a: 1 }), limited)).body).to.equal("ok");
      expect((await post(nftPath(nft, "/metadata/ethereum"), await body(issuer, nft, { a: 2 }), limited)).body).to.equal("ok");
      expect((await post(accountPath(account), await body(issuer, account, { a: 3 }), limited)).body).to.equal("ok");
      for (let i = 0; i < 5; i++) expect((await get(nftPath(nft), limited)).status).to.equal(200);
      await refusedPost(nftPath(nft), await body(issuer, nft, { a: 4 }), 429, "too_many_requests", {
        app: limited,
        message: /^Rate limit exceeded/,
        headers: { "retry-after": true },
      });
      limited.clock.advance(60_000);
      expect((await post(nftPath(nft), await body(issuer, nft, { a: 5 }), limited)).body).to.equal("ok");
    });
  });

  describe("under load and faults", function () {
    it("lands 50 concurrent posts by different issuers to one token", async function () {
      const { t } = suite();
      const target = freshNft();
      const issuers = Array.from({ length: 50 }, eoa);
      const bodies = await Promise.all(issuers.map((issuer, i) => body(issuer, target, { i })));
      const answers = await Promise.all(bodies.map((b) => post(nftPath(target), b)));
      expect(answers.every((a) => a.status === 200 && (a.body as unknown) === "ok")).to.equal(true);
      // An answer carries at most SIGNED_METADATA_ANSWER_MAX_ISSUERS of them; each one is there for whoever names it.
      const read = await get(nftPath(target));
      expect(Object.keys(read.body)).to.have.length(t.config.metadata.answerMaxIssuers);
      expect(read.headers.get("x-signed-omitted")).to.equal(String(50 - t.config.metadata.answerMaxIssuers));
      for (const [i, issuer] of issuers.entries())
        expect((await get(`${nftPath(target)}?iss=${issuer.address}`)).body).to.deep.equal({ i });
    });

    it("ends concurrent posts by one issuer with exactly one current version and the whole history", async function () {
      const { t } = suite();
      const target = freshNft();
      const issuer = eoa();
      const bodies = await Promise.all(Array.from({ length: 20 }, (_, v) => body(issuer, target, { v })));
      const answers = await Promise.all(bodies.map((b) => post(nftPath(target), b)));
      expect(answers.every((a) => a.status === 200)).to.equal(true);
      const { rows } = await t.app.db.query<{ total: number; current: number }>(
        "SELECT count(*)::int AS total, count(*) FILTER (WHERE current)::int AS current FROM metadata_posts WHERE target = $1 AND token_id = $2",
        [NFT.contract, target.tokenId.toString()],
      );
      expect(rows[0]).to.deep.equal({ total: 20, current: 1 });
    });
  });

  describe("proof, without HTTP", function () {
    const networks = new Networks({}, 1000);
    after(() => networks.close());

    async function refusal(promise: Promise<unknown>): Promise<DomainError> {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(DomainError);
      return error as DomainError;
    }

    it("proves a statement from the networks registry and the settings alone, and refuses with the metadata's domain errors", async function () {
      const { signers } = suite();
      const issuer = Wallet.createRandom();
      const target: NftTarget = { ...freshNft(), network: "mainnet" };
      const metadata = encodeMetadata({ a: 1 });
      const statement = async (text: string) => ({ iss: issuer.address, sig: await issuer.signMessage(text), metadata, json: '{"a":1}' });
      const bound = await statement(boundText(target, metadata));
      const unbound = await statement(unboundText(metadata));

      expect(await prove(networks, { requireBinding: true }, target, bound)).to.deep.equal({
        binding: "target",
        signerKind: "eoa",
        signedText: boundText(target, metadata),
      });
      expect(await prove(networks, { requireBinding: false }, target, unbound)).to.deep.equal({
        binding: "none",
        signerKind: "eoa",
        signedText: metadata,
      });
      const strict = await refusal(prove(networks, { requireBinding: true }, target, unbound));
      expect([strict.kind, strict.code]).to.deep.equal(["unauthorized", "binding_required"]);
      const malformed = await refusal(prove(networks, { requireBinding: false }, target, { ...bound, sig: "0x123" }));
      expect([malformed.kind, malformed.code]).to.deep.equal(["invalid", "malformed_signature"]);
      // Not the issuer's key: it might be a contract wallet's signature, which needs the node mainnet has not here.
      const elsewhere = await refusal(prove(networks, { requireBinding: false }, target, { ...bound, iss: Wallet.createRandom().address }));
      expect([elsewhere.kind, elsewhere.code]).to.deep.equal(["unavailable", "network_unavailable"]);
      const account: Target = { kind: "account", network: "mainnet", account: Wallet.createRandom().address.toLowerCase() };
      const wallet = await refusal(
        prove(networks, { requireBinding: false }, account, { ...(await body(signers.counterfactual, account, { a: 1 })), json: "{}" }),
      );
      expect([wallet.kind, wallet.code]).to.deep.equal(["forbidden", "eoa_required"]);
    });
  });

  describe("restart", function () {
    let database: TestDatabase;

    after(async () => database?.drop());

    it("keeps every post answered 'ok' after the app is stopped and started again on the same database", async function () {
      const { chain } = suite();
      database = await createTestDatabase();
      const first = await startTestApp({ database, env: { RPC_URL_LOCALHOST: chain.url, ...UNLIMITED } });
      const target = freshNft();
      const issuers = Array.from({ length: 10 }, eoa);
      for (const [i, issuer] of issuers.entries()) {
        expect((await post(nftPath(target), await body(issuer, target, { i }), first)).body).to.equal("ok");
      }
      await first.close();
      const second = closesAfterTest(await startTestApp({ database, env: { RPC_URL_LOCALHOST: chain.url, ...UNLIMITED } }));
      const read = await get(nftPath(target), second);
      expect(Object.keys(read.body)).to.have.length(10);
      issuers.forEach((issuer, i) => expect(read.body[issuer.address]).to.deep.equal({ i }));
    });
  });
});
