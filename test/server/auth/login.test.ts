import { expect } from "chai";
import { Wallet } from "ethers";
import { RecentChallenges } from "../../../server/auth/challenges";
import { requesterOf } from "../../../server/lib/requester";
import { addClient, CachedClients } from "../../../server/auth/clients";
import { loadKeys } from "../../../server/auth/keys";
import { authorize, redeem, type AuthorizeRequest, type LoginDeps } from "../../../server/auth/login";
import { createProvider, MintedCodes } from "../../../server/auth/oidc";
import { Networks } from "../../../server/chain/networks";
import type { Database } from "../../../server/db/database";
import { systemClock } from "../../../server/lib/clock";
import { DomainError } from "../../../server/lib/domain-error";
import { testConfig } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { openMigratedTestDatabase, type TestDatabase } from "../../helpers/database";
import type { TestSigner, TestSignerKind } from "../../helpers/signers";
import { deploySigners } from "./helpers";

/** The login service without Fastify: plain inputs, a real database, a real local node for contract wallets. */
describe("login service (login.ts)", function () {
  const issuer = "https://login.example";
  const ip = "198.51.100.7";
  let database: TestDatabase;
  let db: Database;
  let deps: LoginDeps;
  let signers: Record<TestSignerKind, TestSigner>;
  let clientId: string;
  let publicClientId: string;
  const redirectUri = "https://rp.example/cb?x=1";

  before(async function () {
    const nodeUrl = (await sharedNode()).url;
    signers = await deploySigners(nodeUrl);
    ({ database, db } = await openMigratedTestDatabase());
    const config = testConfig({ ISSUER: issuer, RPC_URL_LOCALHOST: nodeUrl, DEFAULT_NETWORK: "localhost" }, database.config);
    const minted = new MintedCodes(systemClock);
    const clients = new CachedClients(db);
    const provider = await createProvider({ config, db, clients, keys: await loadKeys(db), minted });
    // Only localhost has a node: a contract wallet's login on any other network is refused as unsupported_network.
    const networks = new Networks({ localhost: nodeUrl }, 10_000);
    deps = {
      db,
      clients,
      networks,
      provider,
      settings: { issuer, defaultNetwork: "localhost", messageHeader: "Wallet Login", maxOpenChallenges: 10 },
      recent: new RecentChallenges(systemClock),
      minted,
      clock: systemClock,
    };
    clientId = (await addClient(db, { name: "Example RP", redirectUris: [redirectUri], public: false })).client.id;
    publicClientId = (await addClient(db, { name: "SPA", redirectUris: [redirectUri], public: true })).client.id;
  });
  after(async () => database?.drop());

  const request = (address: string, extra: AuthorizeRequest = {}): AuthorizeRequest => ({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid",
    address,
    ...extra,
  });
  /** The DomainError `promise` rejects with, as `kind code`. */
  async function refusal(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof DomainError) return `${error.kind} ${error.code}`;
      throw error;
    }
    expect.fail("no refusal");
  }

  describe("authorize", function () {
    it("stores the message for the requester's IP (an IPv6 address by its /64) and answers it", async function () {
      const wallet = Wallet.createRandom();
      const message = await authorize(deps, request(wallet.address, { state: "s" }), { ip: "2001:db8:1:2::10" });
      expect(message.split("\n").slice(0, 3)).to.deep.equal(["Wallet Login", "Log in to Example RP via login.example.", "---"]);
      const { rows } = await db.query<{ requester: string; message: string; state: string }>(
        "SELECT requester, message, state FROM login_challenges WHERE address = $1",
        [wallet.address.toLowerCase()],
      );
      expect(rows).to.deep.equal([{ requester: requesterOf("2001:db8:1:2::10"), message, state: "s" }]);
    });

    it("reports the first problem of a request, the fields checked in a fixed order", async function () {
      const address = Wallet.createRandom().address;
      // Every field wrong; each step fixes the one whose refusal it expects next.
      const steps: [Partial<AuthorizeRequest>, string][] = [
        [{}, "invalid invalid_request"],
        [{ client_id: "nope" }, "invalid invalid_client"],
        [{ client_id: clientId }, "invalid invalid_request"],
        [{ redirect_uri: "https://rp.example/cb" }, "invalid invalid_redirect_uri"],
        [{ redirect_uri: redirectUri }, "invalid unsupported_response_type"],
        [{ response_type: "code" }, "invalid invalid_scope"],
        [{ scope: "openid profile" }, "invalid invalid_request"],
        [{ address: address.toLowerCase().replace("0x", "0X") }, "invalid invalid_address"],
        [{ address }, "invalid invalid_lang"],
        [{ lang: "ja" }, "invalid invalid_request"],
        [{ message_format: "siwe" }, "invalid unknown_network"],
        [{ network: "mainnet" }, "invalid invalid_request"],
      ];
      let current: AuthorizeRequest = {
        scope: "profile",
        response_type: "token",
        lang: "fr",
        message_format: "eip712",
        network: "atlantis",
        code_challenge_method: "S256",
      };
      for (const [fix, expected] of steps) {
        current = { ...current, ...fix };
        expect(await refusal(authorize(deps, current, { ip: ip })), JSON.stringify(fix)).to.equal(expected);
      }
      const message = await authorize(deps, { ...current, code_challenge_method: undefined }, { ip: ip });
      expect(message).to.include("Chain ID: 1\n");
    });

    it("asks PKCE of a public client, S256 only", async function () {
      const address = Wallet.createRandom().address;
      const pkce = (extra: AuthorizeRequest) =>
        refusal(authorize(deps, request(address, { client_id: publicClientId, ...extra }), { ip: ip }));
      expect(await pkce({})).to.equal("invalid invalid_request");
      expect(await pkce({ code_challenge: "x".repeat(43), code_challenge_method: "plain" })).to.equal("invalid invalid_request");
      expect(await pkce({ code_challenge: "short", code_challenge_method: "S256" })).to.equal("invalid invalid_request");
      expect(
        await authorize(
          deps,
          request(address, { client_id: publicClientId, code_challenge: "x".repeat(43), code_challenge_method: "S256" }),
          { ip: ip },
        ),
      ).to.be.a("string");
    });

    it("refuses a requester holding maxOpenChallenges open messages with too_many_challenges, retry after 60 s", async function () {
      const crowded = "203.0.113.50";
      for (let i = 0; i < deps.settings.maxOpenChallenges; i++)
        await authorize(deps, request(Wallet.createRandom().address), { ip: crowded });
      const error = await authorize(deps, request(Wallet.createRandom().address), { ip: crowded }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DomainError);
      expect(error).to.include({ kind: "too_many", code: "too_many_challenges", retryAfterSeconds: 60 });
      expect((error as Error).message).to.equal(
        "This client address holds 10 open sign-in messages; sign or wait for one to expire (5 minutes)",
      );
      // Another requester is not affected.
      expect(await authorize(deps, request(Wallet.createRandom().address), { ip: "203.0.113.51" })).to.be.a("string");
    });
  });

  describe("redeem", function () {
    const loginsOf = async (account: string) =>
      Number(
        (await db.query<{ n: string }>("SELECT coalesce(sum(logins), 0) AS n FROM login_history WHERE account = $1", [account])).rows[0].n,
      );

    it("mints a stored code, records the login, and appends code, state and iss to the registered URI's own query", async function () {
      const wallet = Wallet.createRandom();
      const message = await authorize(deps, request(wallet.address, { state: "from-authorize" }), { ip: ip });
      const answer = await redeem(
        deps,
        { address: wallet.address, signature: await wallet.signMessage(message), client_id: clientId },
        { ip: ip },
      );
      const expected = new URLSearchParams({ code: answer.code, state: "from-authorize", iss: issuer });
      expect(answer).to.deep.equal({ code: answer.code, redirectUrl: `${redirectUri}&${expected}`, state: "from-authorize" });
      const { rows } = await db.query<{ payload: { accountId: string } }>(
        "SELECT payload FROM oidc_payloads WHERE kind = 'AuthorizationCode' AND id = $1",
        [answer.code],
      );
      expect(rows.map((row) => row.payload.accountId)).to.deep.equal([wallet.address.toLowerCase()]);
      expect(await loginsOf(wallet.address.toLowerCase())).to.equal(1);
      expect(
        await refusal(
          redeem(deps, { address: wallet.address, signature: await wallet.signMessage(message), client_id: clientId }, { ip: ip }),
        ),
      ).to.equal("unauthorized invalid_challenge");
    });

    it("answers the login's state, else authorize's, else none (and the redirect URL carries no state)", async function () {
      const cases: [string | undefined, string | undefined, string | null][] = [
        ["from-authorize", "from-login", "from-login"],
        ["from-authorize", undefined, "from-authorize"],
        [undefined, undefined, null],
      ];
      for (const [authorizeState, loginState, expected] of cases) {
        const wallet = Wallet.createRandom();
        const message = await authorize(deps, request(wallet.address, { state: authorizeState }), { ip: ip });
        const answer = await redeem(
          deps,
          { address: wallet.address, signature: await wallet.signMessage(message), client_id: clientId, state: loginState },
          { ip: ip },
        );
        expect(answer.state).to.equal(expected);
        expect(new URL(answer.redirectUrl).searchParams.get("state")).to.equal(expected);
      }
    });

    describe("the network a contract wallet is asked on", function () {
      const single = () => signers.single;
      const sub = () => `eip155:31337:${single().address.toLowerCase()}`;

      it("is the SIWE message's own chain when the login names a network of another chain", async function () {
        const message = await authorize(deps, request(single().address, { message_format: "siwe" }), { ip: ip });
        expect(message).to.include("Chain ID: 31337\n");
        const before = await loginsOf(sub());
        // sepolia has no node here: had it been asked, the login would fail with unsupported_network.
        const answer = await redeem(
          deps,
          { address: single().address, signature: await single().sign(message), client_id: clientId, network: "sepolia" },
          { ip: ip },
        );
        expect(answer.code).to.be.a("string");
        expect(await loginsOf(sub())).to.equal(before + 1);
      });

      it("is refused as network_mismatch when the login names the SIWE message and a network of another chain", async function () {
        const message = await authorize(deps, request(single().address, { message_format: "siwe" }), { ip: ip });
        const signature = await single().sign(message);
        expect(
          await refusal(
            redeem(deps, { address: single().address, signature, client_id: clientId, network: "sepolia", message }, { ip: ip }),
          ),
        ).to.equal("invalid network_mismatch");
        // The message is still open.
        expect((await redeem(deps, { address: single().address, signature, client_id: clientId, message }, { ip: ip })).code).to.be.a(
          "string",
        );
      });

      it("is the network the login names for a text message, which names no chain", async function () {
        const message = await authorize(deps, request(single().address), { ip: ip });
        expect(
          await refusal(
            redeem(
              deps,
              { address: single().address, signature: await single().sign(message), client_id: clientId, network: "sepolia" },
              { ip: ip },
            ),
          ),
        ).to.equal("invalid unsupported_network");
      });
    });

    it("answers from the database when the message this instance remembers was used or retired meanwhile", async function () {
      // Used: another instance redeemed it (its row is gone); this one still remembers it as open.
      const used = Wallet.createRandom();
      const usedMessage = await authorize(deps, request(used.address), { ip: ip });
      await db.query("DELETE FROM login_challenges WHERE message = $1", [usedMessage]);
      const signed = { address: used.address, signature: await used.signMessage(usedMessage), client_id: clientId };
      expect(await refusal(redeem(deps, signed, { ip: ip }))).to.equal("unauthorized invalid_challenge");
      expect(await loginsOf(used.address.toLowerCase())).to.equal(0);

      // Retired: the requester asked again from another instance, which retired this message (a newer one of another
      // requester is open); the signature of the retired message proves none of the open ones.
      const retired = Wallet.createRandom();
      const retiredMessage = await authorize(deps, request(retired.address), { ip: ip });
      await db.query("DELETE FROM login_challenges WHERE message = $1", [retiredMessage]);
      await authorize(deps, request(retired.address), { ip: "203.0.113.9" });
      const retiredLogin = { address: retired.address, signature: await retired.signMessage(retiredMessage), client_id: clientId };
      expect(await refusal(redeem(deps, retiredLogin, { ip: ip }))).to.equal("unauthorized invalid_signature");

      // Remembered or not, what the database holds is what a login can use: here, the message of the other requester.
      const open = await db.query<{ message: string }>("SELECT message FROM login_challenges WHERE address = $1", [
        retired.address.toLowerCase(),
      ]);
      const openLogin = { ...retiredLogin, signature: await retired.signMessage(open.rows[0].message) };
      expect((await redeem(deps, openLogin, { ip: ip })).code).to.be.a("string");
    });

    it("refuses: an unknown client, no open message, a malformed signature, a signature by another key", async function () {
      const wallet = Wallet.createRandom();
      const login = (signature: string, client = clientId) =>
        refusal(redeem(deps, { address: wallet.address, signature, client_id: client }, { ip: ip }));
      expect(await login("0x00", "nope")).to.equal("invalid invalid_client");
      expect(await login("0x00")).to.equal("unauthorized invalid_challenge");
      const message = await authorize(deps, request(wallet.address), { ip: ip });
      expect(await login("0x00")).to.equal("invalid malformed_signature");
      expect(await login(await Wallet.createRandom().signMessage(message))).to.equal("unauthorized invalid_signature");
      expect(
        await refusal(redeem(deps, { address: "0x12", signature: "0x00", client_id: clientId, network: "atlantis" }, { ip: ip })),
      ).to.equal("invalid invalid_address");
    });
  });
});
