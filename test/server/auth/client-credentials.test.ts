import { expect } from "chai";
import { Wallet } from "ethers";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { expectRefusal } from "../../helpers/refusal";
import { exchangeCode, postForm, registerClient, signedLogin, startLoginApp } from "./helpers";

describe("login: the client_credentials grant (a confidential client's own access token)", function () {
  let t: TestApp;

  before(async function () {
    t = await startLoginApp((await sharedNode()).url);
  });
  after(async () => t?.close());

  it("gives a confidential client a token that names it, and nothing more", async function () {
    const client = await registerClient(t);
    const { status, body } = await postForm(t, "/token", {
      grant_type: "client_credentials",
      client_id: client.id,
      client_secret: client.secret!,
    });
    expect(status, JSON.stringify(body)).to.equal(200);
    expect(body).to.include({ token_type: "Bearer", expires_in: 3600 });
    expect(body).to.not.have.any.keys("refresh_token", "id_token");
    expect(await t.app.clientTokens.clientOf(body.access_token as string)).to.equal(client.id);
    // Another client's token names that client; a made-up one, or one of another shape, nobody.
    const other = await registerClient(t, { name: "Other" });
    const theirs = await postForm(t, "/token", { grant_type: "client_credentials", client_id: other.id, client_secret: other.secret! });
    expect(await t.app.clientTokens.clientOf(theirs.body.access_token as string)).to.equal(other.id);
    expect(await t.app.clientTokens.clientOf("x".repeat(43))).to.equal(undefined);
    expect(await t.app.clientTokens.clientOf("not a token")).to.equal(undefined);
  });

  it("refuses a public client and a wrong secret; a user's access token from a login is not a client's own", async function () {
    const publicClient = await registerClient(t, { public: true });
    const refused = await postForm(t, "/token", { grant_type: "client_credentials", client_id: publicClient.id });
    await expectRefusal(refused, 400, "invalid_request", {
      dialect: "oauth",
      message: "requested grant type is not allowed for this client",
    });
    const client = await registerClient(t);
    const wrong = await postForm(t, "/token", { grant_type: "client_credentials", client_id: client.id, client_secret: "nope" });
    await expectRefusal(wrong, 401, "invalid_client", { dialect: "oauth", message: "client authentication failed" });
    const login = await signedLogin(t, client, Wallet.createRandom());
    const tokens = await exchangeCode(t, client, login.body.code as string);
    expect(tokens.status).to.equal(200);
    expect(await t.app.clientTokens.clientOf(tokens.body.access_token as string)).to.equal(undefined);
  });
});
