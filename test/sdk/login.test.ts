import { expect } from "chai";
import { Wallet } from "ethers";
import { clientInfo, pkce, signIn } from "../../sdk/src/login";
import { createLoginServer } from "../../sdk/src/server";
import { expectRefusal } from "../helpers/refusal";
import { rejection, sdkRefusal } from "../helpers/sdk";
import { deployTestSigners } from "../helpers/signers";
import { SuiteChain } from "../helpers/suite-chain";
import { eoaProvider } from "../helpers/test-wallet";
import { registerClient, startLoginApp } from "../server/auth/helpers";

describe("SDK login helpers against the service", function () {
  const suite = SuiteChain.forSuite("shared", async (chain) => {
    // It listens: the SDK fetches discovery, the JWKS, the token endpoint and userinfo over HTTP.
    const t = chain.closesWith(await startLoginApp(chain.url, { listen: true }));
    const confidential = await registerClient(t, { name: "SDK RP", redirectUris: ["https://rp.example/callback"] });
    const publicClient = await registerClient(t, { name: "SDK SPA", redirectUris: ["https://spa.example/callback"], public: true });
    return { t, confidential, publicClient };
  });

  it("logs an EOA in with any EIP-1193 provider, then exchanges the code, verifies the ID token and reads userinfo", async function () {
    const { t, confidential } = suite();
    const wallet = Wallet.createRandom();
    const provider = eoaProvider(wallet);
    const login = await signIn({
      baseUrl: t.url,
      provider,
      clientId: confidential.id,
      redirectUri: confidential.redirectUri,
      state: "s1",
      nonce: "n1",
    });
    expect(provider.calls).to.deep.equal(["eth_requestAccounts", "personal_sign"]);
    expect(login).to.include({ address: wallet.address, state: "s1" });
    expect(login.redirectUrl.startsWith(`${confidential.redirectUri}?`)).to.equal(true);
    expect(new URL(login.redirectUrl).searchParams.get("code")).to.equal(login.code);

    const server = createLoginServer({ issuer: t.config.issuer, clientId: confidential.id, clientSecret: confidential.secret });
    const { tokens, claims } = await server.exchangeCode({ code: login.code, redirectUri: confidential.redirectUri, nonce: "n1" });
    expect(claims).to.include({ sub: wallet.address.toLowerCase(), iss: t.config.issuer, aud: confidential.id, nonce: "n1" });
    expect(await server.verifyIdToken(tokens.id_token)).to.deep.equal(claims);
    const info = await server.userinfo(tokens.access_token);
    expect(info).to.include({ sub: wallet.address.toLowerCase(), address: wallet.address, first_service: confidential.id });
    expect((await server.refresh(tokens.refresh_token!)).access_token)
      .to.be.a("string")
      .and.not.equal(tokens.access_token);

    // A code works once: the second exchange is the token endpoint's refusal, as an ApiError.
    const again = await rejection(server.exchangeCode({ code: login.code, redirectUri: confidential.redirectUri }));
    await expectRefusal(sdkRefusal(again), 400, "invalid_grant");
  });

  it("logs a public client in with PKCE and a SIWE message", async function () {
    const { t, publicClient } = suite();
    const wallet = Wallet.createRandom();
    const { verifier, challenge } = await pkce();
    expect(verifier).to.match(/^[\w-]{43}$/);
    const login = await signIn({
      baseUrl: t.url,
      provider: eoaProvider(wallet),
      clientId: publicClient.id,
      redirectUri: publicClient.redirectUri,
      codeChallenge: challenge,
      messageFormat: "siwe",
    });
    const server = createLoginServer({ issuer: t.config.issuer, clientId: publicClient.id });
    const wrong = await rejection(
      server.exchangeCode({ code: login.code, redirectUri: publicClient.redirectUri, codeVerifier: "x".repeat(43) }),
    );
    await expectRefusal(sdkRefusal(wrong), 400, "invalid_grant");

    const login2 = await signIn({
      baseUrl: t.url,
      provider: eoaProvider(wallet),
      clientId: publicClient.id,
      redirectUri: publicClient.redirectUri,
      codeChallenge: challenge,
    });
    const { claims } = await server.exchangeCode({ code: login2.code, redirectUri: publicClient.redirectUri, codeVerifier: verifier });
    expect(claims.sub).to.equal(wallet.address.toLowerCase());
  });

  it("logs in through an ethers provider's send, the local node signing with its account's key", async function () {
    const { t, confidential, chain } = suite();
    const account = (await chain.signer(9)).address;
    const login = await signIn({
      baseUrl: t.url,
      // As docs/reference/sdk-login.md shows it for an ethers BrowserProvider.
      provider: { request: ({ method, params }) => chain.provider.send(method, (params as unknown[]) ?? []) },
      address: account, // a node answers no eth_requestAccounts
      clientId: confidential.id,
      redirectUri: confidential.redirectUri,
    });
    expect(login.address).to.equal(account);
    const server = createLoginServer({ issuer: t.config.issuer, clientId: confidential.id, clientSecret: confidential.secret });
    const { claims } = await server.exchangeCode({ code: login.code, redirectUri: confidential.redirectUri });
    expect(claims.sub).to.equal(account.toLowerCase());
  });

  it("logs contract wallets in (EIP-1271 single owner and 2-of-3 multisig, EIP-6492 not yet deployed), their owners signing", async function () {
    const { t, confidential, chain } = suite();
    const signers = await deployTestSigners(await chain.signer(0));
    const server = createLoginServer({ issuer: t.config.issuer, clientId: confidential.id, clientSecret: confidential.secret });
    for (const kind of ["single", "multisig", "counterfactual"] as const) {
      const signer = signers[kind];
      // The wallet's provider answers for the contract's address and signs with its owners' keys, as a smart wallet does.
      const provider = eoaProvider({ address: signer.address, signMessage: (message) => signer.sign(message) });
      const login = await signIn({
        baseUrl: t.url,
        provider,
        clientId: confidential.id,
        redirectUri: confidential.redirectUri,
        nonce: kind,
      });
      expect(login.address, kind).to.equal(signer.address);
      const { claims } = await server.exchangeCode({ code: login.code, redirectUri: confidential.redirectUri, nonce: kind });
      expect(claims, kind).to.include({ sub: `eip155:31337:${signer.address.toLowerCase()}`, address: signer.address });
    }
    // A wallet whose check fails (it answers a wrong value) is the service's 401, as an ApiError.
    const wrong = signers.wrongValue;
    const provider = eoaProvider({ address: wrong.address, signMessage: (message) => wrong.sign(message) });
    const error = await rejection(signIn({ baseUrl: t.url, provider, clientId: confidential.id, redirectUri: confidential.redirectUri }));
    await expectRefusal(sdkRefusal(error), 401, "invalid_signature");
  });

  it("refuses an ID token with another nonce, for another client, or with a forged signature", async function () {
    const { t, confidential, publicClient } = suite();
    const wallet = Wallet.createRandom();
    const login = await signIn({
      baseUrl: t.url,
      provider: eoaProvider(wallet),
      clientId: confidential.id,
      redirectUri: confidential.redirectUri,
      nonce: "right",
    });
    const server = createLoginServer({ issuer: t.config.issuer, clientId: confidential.id, clientSecret: confidential.secret });
    const { tokens } = await server.exchangeCode({ code: login.code, redirectUri: confidential.redirectUri });
    expect(await rejection(server.verifyIdToken(tokens.id_token, { nonce: "wrong" }))).to.have.property(
      "message",
      "the ID token's nonce is not the login's",
    );
    const other = createLoginServer({ issuer: t.config.issuer, clientId: publicClient.id });
    expect(await rejection(other.verifyIdToken(tokens.id_token))).to.have.property(
      "message",
      `the ID token is not for client ${publicClient.id}`,
    );
    const [header, payload] = tokens.id_token.split(".");
    const forged = `${header}.${payload}.${"A".repeat(342)}`;
    expect(await rejection(server.verifyIdToken(forged))).to.have.property("code", "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
  });

  it("reads a client's profile, and refuses an unknown client as an ApiError", async function () {
    const { t, confidential } = suite();
    expect(await clientInfo({ baseUrl: t.url, clientId: confidential.id, lang: "ja" })).to.deep.equal({
      client_id: confidential.id,
      title: "SDK RP",
      description: "",
      logo_url: "",
      home_url: "",
    });
    const unknown = await rejection(clientInfo({ baseUrl: t.url, clientId: "nobody" }));
    await expectRefusal(sdkRefusal(unknown), 404, "not_found", { message: "Unknown client_id" });
  });

  it("throws the service's refusal of a login as an ApiError", async function () {
    const { t, confidential } = suite();
    const error = await rejection(
      signIn({
        baseUrl: t.url,
        provider: eoaProvider(Wallet.createRandom()),
        clientId: confidential.id,
        redirectUri: "https://elsewhere.example/cb",
      }),
    );
    await expectRefusal(sdkRefusal(error), 400, "invalid_redirect_uri");
  });
});
