import { expect } from "chai";
import { CLIENT_CACHE_MS, addClient, findClient, updateClient, type ProfileChange } from "../../../server/auth/clients";
import { fetchJson, type TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { registerClient, startLoginApp, type RegisteredClient } from "./helpers";
import { expectRefusal } from "../../helpers/refusal";

describe("GET /api/client", function () {
  let t: TestApp;
  let client: RegisteredClient;

  before(async function () {
    t = await startLoginApp((await sharedNode()).url);
    client = await registerClient(t, {
      name: "Profiled",
      profile: { title: { en: "Title", ja: "タイトル" }, homeUrl: "https://home.example/" },
    });
  });
  after(async () => t?.close());

  const ask = (query: string) => fetchJson(t, `/api/client?${query}`);

  it("answers the profile, every value a string, cacheable for a minute", async function () {
    const answer = await ask(`client_id=${client.id}`);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get("cache-control")).to.equal("public, max-age=60");
    expect(answer.body).to.deep.equal({
      client_id: client.id,
      title: "Title",
      description: "",
      logo_url: "",
      home_url: "https://home.example/",
    });
  });

  it("is a 404 in the error shape for an unknown client, also one no id could be (bidi, non-ASCII)", async function () {
    for (const id of ["nope", "%E2%80%AEabc", "%E3%83%86"]) {
      const answer = await ask(`client_id=${id}`);
      await expectRefusal(answer, 404, "not_found", { label: id, message: "Unknown client_id" });
    }
  });

  it("is a 400 for a missing, repeated, oversized or NUL-bearing client_id, or a lang that is not a language tag", async function () {
    const cases: [string, string][] = [
      ["", "invalid_request"],
      ["client_id=", "invalid_request"],
      [`client_id=${client.id}&client_id=${client.id}`, "invalid_request"],
      [`client_id=${"a".repeat(300)}`, "invalid_request"],
      [`client_id=${client.id}&lang=${"j".repeat(40)}`, "invalid_request"],
      // A control character anywhere in a query is refused before the route (input guard).
      ["client_id=abc%00def", "invalid_request"],
      [`client_id=${client.id}&lang=ja%00`, "invalid_request"],
      [`client_id=${client.id}&lang=%E2%80%AEja`, "invalid_lang"],
      [`client_id=${client.id}&lang=ja%20JP`, "invalid_lang"],
    ];
    for (const [query, error] of cases) {
      const answer = await ask(query);
      await expectRefusal(answer, 400, error, { label: query });
    }
  });

  it("is registered only with a sane profile: http(s) URLs, texts without control or bidi characters, bounded", async function () {
    const add = (profile: ProfileChange) =>
      addClient(t.app.db, { name: "x", redirectUris: ["https://a.example/cb"], public: false, profile });
    for (const [name, profile] of Object.entries<ProfileChange>({
      "javascript: home": { homeUrl: "javascript:alert(1)" },
      "relative home": { homeUrl: "/home" },
      "ftp logo": { logoUrl: "ftp://a.example/logo.png" },
      "space in logo": { logoUrl: "https://a.example/a b.png" },
      "NUL in logo": { logoUrl: "https://a.example/\u0000.png" },
      "line break in title": { title: { en: "two\nlines" } },
      "bell in title": { title: { en: "bell\u0007" } },
      "bidi override in title": { title: { ja: "\u202eevil" } },
      "NUL in description": { description: { en: "nul\u0000byte" } },
      "isolate in description": { description: { en: "a\u2066b" } },
      "line break in description": { description: { en: "Line one\nline two" } },
      "zero-width space in description": { description: { ja: "a\u200bb" } },
      "next line (U+0085) in title": { title: { en: "a\u0085b" } },
      "long title": { title: { en: "t".repeat(201) } },
      "long description": { description: { en: "d".repeat(2001) } },
      "unknown language": { title: { fr: "Bonjour" } as ProfileChange["title"] },
    })) {
      let refused: Error | undefined;
      await add(profile).catch((error: Error) => (refused = error));
      expect(refused, name).to.be.instanceOf(Error);
    }
    const { client: ok } = await add({ description: { en: "One paragraph — with punctuation, ✓." }, title: { en: "日本語 ✓" } });
    const before = ok.profile;
    let refused: Error | undefined;
    await updateClient(t.app.db, ok.id, { profile: { homeUrl: "data:text/html,x" } }).catch((error: Error) => (refused = error));
    expect(refused).to.be.instanceOf(Error);
    expect((await findClient(t.app.db, ok.id))!.profile).to.deep.equal(before);
  });

  it("shows an update within a second (the per-instance client cache)", async function () {
    const { client: fresh } = await addClient(t.app.db, { name: "Before", redirectUris: ["https://x.example/cb"], public: false });
    expect((await ask(`client_id=${fresh.id}`)).body.title).to.equal("Before");
    await updateClient(t.app.db, fresh.id, { name: "After", profile: { logoUrl: "https://x.example/logo.svg" } });
    t.clock.advance(CLIENT_CACHE_MS);
    expect((await ask(`client_id=${fresh.id}`)).body).to.deep.include({ title: "After", logo_url: "https://x.example/logo.svg" });
  });
});
