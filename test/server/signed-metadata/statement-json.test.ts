import { expect } from "chai";
import { Wallet, type BaseWallet } from "ethers";
import { boundText, type Target } from "../../../server/signed-metadata/signed-text";
import { statementReadPaths, unreadableAnswers, type StatementTargets } from "../../helpers/statement-reads";
import { expectRefusal } from "../../helpers/refusal";
import { SuiteChain } from "../../helpers/suite-chain";

/**
 * What a stored statement serves: whatever bytes an issuer signs, every read that embeds statements answers JSON
 * every reader takes, and a body we accept is served byte for byte.
 */
describe("metadata service: the JSON a statement serves", function () {
  this.timeout(120_000);
  let nextId = 1n;
  const MINTED = 80n;
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    const owner = (await chain.signer(5)).address;
    const nft = await chain.deployAlice();
    await (await nft.mintRange(owner, 1, MINTED)).wait();
    const contract = (await nft.getAddress()).toLowerCase();
    // Far more posts than a client may make in a minute: the limit has its own test.
    const t = await chain.startIndexingApp({ env: { INDEXER_CONTRACTS_LOCALHOST: contract, METADATA_POST_RATE_LIMIT: "1000000" } });
    return { owner, contract, t };
  });

  /** A fresh indexed token and a fresh account, each with one ordinary statement already, so every read answers 200. */
  async function freshTargets(): Promise<StatementTargets & { nft: Target; accountTarget: Target }> {
    if (nextId > MINTED) throw new Error("out of minted tokens: raise MINTED");
    const { contract, owner } = suite();
    const nft: Target = { kind: "nft", network: "localhost", contract, tokenId: nextId++ };
    const account = Wallet.createRandom().address.toLowerCase();
    const accountTarget: Target = { kind: "account", network: "localhost", account };
    const bystander = Wallet.createRandom();
    for (const target of [nft, accountTarget]) {
      const ok = await post(target, bystander, Buffer.from(JSON.stringify({ name: "bystander" })));
      expect(ok, "the bystander's statement").to.deep.include({ status: 200, body: "ok" });
    }
    return { network: "localhost", contract, id: nft.tokenId as bigint, owner, account, issuers: [bystander.address], nft, accountTarget };
  }

  const pathOf = (target: Target) =>
    target.kind === "nft"
      ? `/metadata/${target.network}/${target.contract}/${target.tokenId}`
      : `/metadata/ethereum/${target.network}/${target.account}`;

  /** Posts `bytes` as the metadata, signed over the target's text by `issuer` (a real EOA key): it passes the signature check. */
  async function post(target: Target, issuer: BaseWallet, bytes: Uint8Array) {
    const metadata = Buffer.from(bytes).toString("base64");
    const response = await suite().t.fetch(pathOf(target), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ iss: issuer.address, sig: await issuer.signMessage(boundText(target, metadata)), metadata }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
  }

  const get = async (path: string) => {
    const response = await suite().t.fetch(path);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      status: response.status,
      headers: response.headers,
      contentType: response.headers.get("content-type") ?? "",
      bytes,
      body: Buffer.from(bytes).toString(),
    };
  };

  /** Every read of the targets answers JSON every reader takes (with `issuers`' own reads too). */
  async function expectReadable(targets: StatementTargets, issuers: string[] = []) {
    const paths = statementReadPaths({ ...targets, issuers: [...targets.issuers, ...issuers] });
    expect(await unreadableAnswers(paths, get)).to.deep.equal([]);
  }

  describe("a leading byte-order mark", function () {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"n":1}')]);

    it("is refused at post time (400 invalid_metadata), and the token's and the account's reads stay JSON", async function () {
      const targets = await freshTargets();
      const attacker = Wallet.createRandom();
      const answers = [await post(targets.nft, attacker, bom), await post(targets.accountTarget, attacker, bom)];
      await expectReadable(targets, [attacker.address]);
      for (const answer of answers) {
        await expectRefusal(answer, 400, "invalid_metadata", { message: "metadata must not begin with a byte-order mark (U+FEFF)" });
      }
    });
  });

  describe("Unicode and JSON edge cases, each validly signed", function () {
    const text = (value: string) => Buffer.from(value, "utf8");
    const inString = (...bytes: number[]) => Buffer.concat([text('{"a":"'), Buffer.from(bytes), text('"}')]);
    const nested = (depth: number) => text(`{"a":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`);
    const NOT_UTF8 = "metadata must be the Base64 of well-formed UTF-8 (no invalid, overlong or surrogate byte sequences)";
    const NOT_JSON = "metadata must be the Base64 of UTF-8 JSON";
    const NOT_OBJECT = "metadata must be the Base64 of a JSON object";
    const LONE = /^metadata must not contain a lone surrogate \(\\ud800–\\udfff without its other half\), at character \d+$/;
    const CONTROL = /^metadata strings must not contain control characters other than tab and line breaks, at character \d+$/;
    const REPEATED = /^metadata must not repeat a key within one object, at character \d+$/;
    const DEEP = "metadata must not nest arrays and objects more than 32 deep";
    const HUGE = /^metadata numbers must be within the range of a double \(magnitude below 1\.8e308\), at character \d+$/;

    /** Accepted bodies are served byte for byte; refused ones get 400 invalid_metadata with this message. */
    const cases: [name: string, bytes: Buffer, refused?: string | RegExp][] = [
      ["a byte-order mark inside a string", text('{"a":"x\ufeffy"}')],
      ["a byte-order mark between tokens", text('{\ufeff"a":1}'), NOT_JSON],
      ["a byte-order mark after the object", text('{"a":1}\ufeff'), NOT_JSON],
      ["two leading byte-order marks", text("\ufeff\ufeff{}"), "metadata must not begin with a byte-order mark (U+FEFF)"],
      ["UTF-16LE with its byte-order mark", Buffer.from("\ufeff{}", "utf16le"), NOT_UTF8],
      ["UTF-16BE without one (NUL bytes)", Buffer.from([0, 0x7b, 0, 0x7d]), NOT_JSON],
      ["a lone continuation byte", inString(0x80), NOT_UTF8],
      ["a sequence cut short", inString(0xe2, 0x82), NOT_UTF8],
      ["0xFE and 0xFF", inString(0xfe, 0xff), NOT_UTF8],
      ["an overlong slash (C0 AF)", inString(0xc0, 0xaf), NOT_UTF8],
      ["an overlong NUL (C0 80)", inString(0xc0, 0x80), NOT_UTF8],
      ["a three-byte overlong slash", inString(0xe0, 0x80, 0xaf), NOT_UTF8],
      ["a four-byte overlong slash", inString(0xf0, 0x80, 0x80, 0xaf), NOT_UTF8],
      ["a five-byte form", inString(0xf8, 0x88, 0x80, 0x80, 0x80), NOT_UTF8],
      ["a code point above U+10FFFF", inString(0xf4, 0x90, 0x80, 0x80), NOT_UTF8],
      ["a lone surrogate as raw bytes (ED A0 80)", inString(0xed, 0xa0, 0x80), NOT_UTF8],
      ["a surrogate pair as raw bytes (CESU-8)", inString(0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80), NOT_UTF8],
      ["a lone high surrogate escaped", text('{"a":"\\ud800"}'), LONE],
      ["a lone low surrogate escaped", text('{"a":"x\\udc00y"}'), LONE],
      ["a high surrogate escaped before a letter", text('{"a":"\\ud800\\u0041"}'), LONE],
      ["a surrogate pair's halves reversed", text('{"a":"\\ude00\\ud83d"}'), LONE],
      ["a lone surrogate escaped in a key", text('{"\\ud800":1}'), LONE],
      ["a surrogate pair escaped", text('{"a":"\\ud83d\\ude00"}')],
      ["a character beyond the BMP, raw", text('{"a":"😀"}')],
      ["U+2028 and U+2029 raw", text('{"a":"x\u2028y\u2029z","\u2028":1}')],
      ["U+2028 and U+2029 escaped", text('{"a":"x\\u2028y\\u2029"}')],
      ["noncharacters U+FFFE and U+FFFF", text('{"a":"\ufffe\uffff"}')],
      ["tab and line breaks escaped", text('{"a":"x\\ty\\nz\\r"}')],
      ["an escaped NUL", text('{"a":"x\\u0000y"}'), CONTROL],
      ["an escaped ESC", text('{"a":"\\u001b[31m"}'), CONTROL],
      ["an escaped C1 control (NEL)", text('{"a":"\\u0085"}'), CONTROL],
      ["a control character in a key", text('{"\\u0000":1}'), CONTROL],
      ["a raw NUL byte in a string", inString(0x00), NOT_JSON],
      ["a raw NUL byte after the object", Buffer.concat([text('{"a":1}'), Buffer.from([0])]), NOT_JSON],
      ["32 levels of nesting", nested(32)],
      ["33 levels of nesting", nested(33), DEEP],
      ["20,000 levels of nesting", nested(20_000), DEEP],
      ["a repeated key", text('{"a":1,"a":2}'), REPEATED],
      ["a repeated key spelled with an escape", text('{"a":1,"\\u0061":2}'), REPEATED],
      ["a repeated key in a nested object", text('{"o":{"k":1,"b":2,"k":3}}'), REPEATED],
      ["the same key in different objects", text('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}')],
      ["an integer with 301 digits (all kept)", text(`{"n":1${"0".repeat(300)},"m":-123456789012345678901234567890}`)],
      ["numbers at the edges of a double", text('{"max":1.7976931348623157e308,"tiny":1e-400,"neg":-0}')],
      ["1e309", text('{"n":1e309}'), HUGE],
      ["-1E400", text('{"n":[-1E400]}'), HUGE],
      ["an integer with 310 digits", text(`{"n":1${"0".repeat(309)}}`), HUGE],
      ["an array at the top", text("[1]"), NOT_OBJECT],
      ["a string at the top", text('"x"'), NOT_OBJECT],
      ["a number at the top", text("1"), NOT_OBJECT],
      ["null at the top", text("null"), NOT_OBJECT],
      ["trailing garbage", text('{"a":1}x'), NOT_JSON],
      ["two objects", text('{"a":1}{"b":2}'), NOT_JSON],
      ["whitespace around the object", text(' \r\n\t{"a" : 1 }\n')],
    ];

    for (const [name, bytes, refused] of cases) {
      it(`${name}: ${refused ? "refused with 400 invalid_metadata" : "accepted and served byte for byte"}, every read still JSON`, async function () {
        const targets = await freshTargets();
        const issuer = Wallet.createRandom();
        const answers = [await post(targets.nft, issuer, bytes), await post(targets.accountTarget, issuer, bytes)];
        await expectReadable(targets, [issuer.address]);
        for (const [i, target] of [targets.nft, targets.accountTarget].entries()) {
          if (refused) {
            await expectRefusal(answers[i], 400, "invalid_metadata", { label: target.kind, message: refused });
            await expectRefusal(await get(`${pathOf(target)}?iss=${issuer.address}`), 404, "not_found");
          } else {
            expect(answers[i], target.kind).to.deep.include({ status: 200, body: "ok" });
            const served = await get(`${pathOf(target)}?iss=${issuer.address}`);
            expect(Buffer.from(served.bytes).equals(bytes), "served byte for byte").to.equal(true);
            const raw = JSON.parse(Buffer.from((await get(`${pathOf(target)}?iss=${issuer.address}&format=raw`)).bytes).toString());
            expect(raw.metadata).to.equal(bytes.toString("base64"));
            expect(raw.data).to.deep.equal(JSON.parse(bytes.toString("utf8")));
          }
        }
      });
    }
  });

  describe("statements stored before these rules", function () {
    /** Stores a statement as a version before these rules did once it had checked the signature: no check of the JSON's rules. */
    async function insertAsBefore(target: Target, issuer: BaseWallet, bytes: Buffer) {
      const metadata = bytes.toString("base64");
      const signedText = boundText(target, metadata);
      await suite().t.app.db.query(
        `INSERT INTO metadata_posts (kind, network, target, token_id, issuer, metadata_b64, body_hash, signature, signed_text, binding, signer_kind)
         VALUES ($1, $2, $3, $4, $5, $6, sha256(convert_to($6, 'UTF8')), $7, $8, 'target', 'eoa')`,
        [
          target.kind,
          target.network,
          target.kind === "nft" ? target.contract : target.account,
          target.kind === "nft" ? target.tokenId.toString() : null,
          issuer.address.toLowerCase(),
          metadata,
          await issuer.signMessage(signedText),
          signedText,
        ],
      );
      return { metadata, signedText };
    }

    it("serve a leading byte-order mark's JSON without it, leave out what breaks a rule, and keep every read JSON", async function () {
      const targets = await freshTargets();
      const withBom = Wallet.createRandom();
      const ordinary = Wallet.createRandom();
      const broken = Array.from({ length: 5 }, () => Wallet.createRandom());
      const brokenBodies = [
        Buffer.from('{"a":1,"a":2}'),
        Buffer.from('{"a":"\\ud800"}'),
        Buffer.from('{"a":"\\u0000"}'),
        Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
        Buffer.from("this was never JSON"),
      ];
      const stored = [];
      for (const target of [targets.nft, targets.accountTarget]) {
        stored.push(await insertAsBefore(target, withBom, Buffer.from('\ufeff{"legacy":"bom"}')));
        await insertAsBefore(target, ordinary, Buffer.from('{"legacy":true}'));
        for (const [i, issuer] of broken.entries()) await insertAsBefore(target, issuer, brokenBodies[i]);
      }
      await expectReadable(targets, [withBom.address, ordinary.address, ...broken.map((w) => w.address)]);

      for (const [i, target] of [targets.nft, targets.accountTarget].entries()) {
        const all = JSON.parse(Buffer.from((await get(pathOf(target))).bytes).toString());
        expect(all, target.kind).to.deep.equal({
          [targets.issuers[0]]: { name: "bystander" },
          [withBom.address]: { legacy: "bom" },
          [ordinary.address]: { legacy: true },
        });
        expect(Buffer.from((await get(`${pathOf(target)}?iss=${withBom.address}`)).bytes).toString()).to.equal('{"legacy":"bom"}');
        // The record still proves itself: the stored Base64 (mark included) is what the signature covers.
        const raw = JSON.parse(Buffer.from((await get(`${pathOf(target)}?iss=${withBom.address}&format=raw`)).bytes).toString());
        expect(raw).to.include({ metadata: stored[i].metadata, text: stored[i].signedText });
        expect(raw.data).to.deep.equal({ legacy: "bom" });
        const { verifyMessage } = await import("ethers");
        expect(verifyMessage(raw.text, raw.sig)).to.equal(withBom.address);
        for (const issuer of broken) {
          const read = await get(`${pathOf(target)}?iss=${issuer.address}`);
          await expectRefusal(read, 404, "not_found");
        }
      }
      const token = JSON.parse(Buffer.from((await get(`/token/localhost/${suite().contract}/${targets.id}`)).bytes).toString());
      expect(token.signed).to.deep.equal({
        [targets.issuers[0]]: { name: "bystander" },
        [withBom.address]: { legacy: "bom" },
        [ordinary.address]: { legacy: true },
      });
    });

    it("answer 404 for a target whose only statement breaks a rule", async function () {
      const account: Target = { kind: "account", network: "localhost", account: Wallet.createRandom().address.toLowerCase() };
      await insertAsBefore(account, Wallet.createRandom(), Buffer.from('{"a":1,"a":2}'));
      const read = await get(pathOf(account));
      await expectRefusal(read, 404, "not_found", { message: "Not found" });
    });
  });
});
