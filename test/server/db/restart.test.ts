import { expect } from "chai";
import { fetchJson } from "../../helpers/app";
import { Wallet } from "ethers";
import { encodeMetadata, boundText } from "../../../server/signed-metadata/signed-text";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { expectRefusal } from "../../helpers/refusal";
import { postgresServerBinariesOrSkip, startPostgresServer, type PostgresServer } from "../../helpers/postgres-server";
import { pollUntil } from "../../helpers/waiters";
import { authorizeQuery, exchangeCode, postJson, registerClient, startLoginApp, type RegisteredClient } from "../auth/helpers";

const CONTRACT = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
/** The answers docs/reference/api.md documents for a database that is down or saturated. */
const DATABASE_REFUSALS = new Set(["database_unavailable", "database_busy"]);
/** How many answers the longer outage lasts: the pool has dropped every connection it had well before. */
const OUTAGE_ANSWERS = 40;

interface Answer {
  what: string;
  phase: string;
  status: number;
  error?: string;
  retryAfter: string | null;
}

/**
 * The drill of docs/operations/runbooks.md: PostgreSQL restarts (fast, then an immediate stop and a longer outage) while logins
 * and metadata posts go on. Every answer is a success or a documented 503, /ready follows the database, the instance
 * recovers by itself, and nothing answered with a 2xx is lost.
 */
describe("drill: PostgreSQL restarts under load", function () {
  this.timeout(90_000);
  let server: PostgresServer | undefined;
  let t: TestApp | undefined;
  let client: RegisteredClient;
  let phase = "before";
  let loading = false;
  const answers: Answer[] = [];
  const logins: string[] = [];
  const posts: Array<{ issuer: string; tokenId: bigint }> = [];
  let tokenId = 1_000n;

  before(async function () {
    server = await startPostgresServer(postgresServerBinariesOrSkip(this));
    // Pool waits stay short so that an outage is seen within the drill, not after DATABASE_ACQUIRE_TIMEOUT_MS's 5 s.
    t = await startLoginApp((await sharedNode()).url, {
      database: server.database,
      listen: true,
      env: { INDEXER: "false", DATABASE_POOL_SIZE: "4", DATABASE_ACQUIRE_TIMEOUT_MS: "1000" },
    });
    client = await registerClient(t);
  });
  after(async function () {
    loading = false;
    await t?.close();
    await server?.remove();
  });

  /** An answer, filed under the phase its request started in: one sent before a stop may be answered after it. */
  function record(what: string, started: string, status: number, body: unknown, headers: Headers) {
    const error = status >= 300 ? (body as { error?: string }).error : undefined;
    answers.push({ what, phase: started, status, error, retryAfter: headers.get("retry-after") });
  }

  async function login() {
    const wallet = Wallet.createRandom();
    let started = phase;
    const { status, body, headers } = await fetchJson(t!, `/api/authorize?${authorizeQuery(client, wallet.address)}`);
    record("GET /api/authorize", started, status, body, headers);
    if (status !== 200) return;
    const signature = await wallet.signMessage(body.message);
    started = phase;
    const answer = await postJson(t!, "/api/login", { address: wallet.address, signature, client_id: client.id });
    record("POST /api/login", started, answer.status, answer.body, answer.headers);
    if (answer.status === 200) logins.push(answer.body.code);
  }

  async function post() {
    const wallet = Wallet.createRandom();
    const id = tokenId++;
    const metadata = encodeMetadata({ name: `drill ${id}` });
    const text = boundText({ kind: "nft", network: "localhost", contract: CONTRACT, tokenId: id }, metadata);
    const sig = await wallet.signMessage(text);
    const started = phase;
    const response = await t!.fetch(`/metadata/localhost/${CONTRACT}/${id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ iss: wallet.address, sig, metadata }),
    });
    const body: unknown = await response.json();
    record("POST /metadata", started, response.status, body, response.headers);
    if (response.status === 200) posts.push({ issuer: wallet.address.toLowerCase(), tokenId: id });
  }

  /** Logins and metadata posts, `workers` at a time, until `loading` is cleared. */
  function load(workers: number): Promise<void> {
    loading = true;
    return Promise.all(
      Array.from({ length: workers }, async (_, worker) => {
        for (let round = 0; loading; round++) await ((round + worker) % 2 ? login() : post());
      }),
    ).then(() => {});
  }

  /** Resolves when `done` holds, polled as the load runs. */
  const until = (done: () => boolean | Promise<boolean>, what: string) => pollUntil(what, async () => done());
  const successesIn = (name: string) => answers.filter((a) => a.phase === name && a.status < 300).length;
  const ready = async () => fetchJson(t!, "/ready");

  it("answers 503 while the database is down, recovers without a restart, and loses no login or post it confirmed", async function () {
    const running = load(3);
    try {
      phase = "warm";
      await until(() => successesIn("warm") >= 6, "the first successes");

      phase = "fast restart";
      await server!.restart("fast");
      phase = "after fast restart";
      await until(() => successesIn("after fast restart") >= 6, "successes after the fast restart");

      phase = "stopping";
      await server!.stop("immediate");
      phase = "outage";
      await until(() => answers.filter((a) => a.phase === "outage").length >= OUTAGE_ANSWERS, "answers during the outage");
      const notReady = await ready();
      expect(notReady.status, JSON.stringify(notReady.body)).to.equal(503);
      expect(notReady.body.error).to.equal("not_ready");
      expect((notReady.body.checks as { database: string }).database).to.match(/ECONNREFUSED/);
      // oidc-provider's endpoints answer in RFC 6749's dialect, with the same code and Retry-After.
      const token = await t!.fetch("/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: "unknown",
          redirect_uri: client.redirectUri,
          client_id: client.id,
          client_secret: client.secret!,
        }),
      });
      await expectRefusal(token, 503, "database_unavailable", { dialect: "oauth", headers: { "retry-after": "1" } });
      expect(
        answers.filter((a) => a.phase === "outage" && a.status < 300),
        "successes with the database down",
      ).to.deep.equal([]);

      phase = "recovery";
      await server!.start();
      await until(async () => (await ready()).status === 200, "/ready after the outage");
      phase = "after recovery";
      await until(() => successesIn("after recovery") >= 6, "successes after the outage");
    } finally {
      loading = false;
      await running;
    }

    const undocumented = answers.filter(
      (a) => a.status >= 300 && !(a.status === 503 && DATABASE_REFUSALS.has(a.error ?? "") && a.retryAfter === "1"),
    );
    expect(undocumented, "answers other than a success or a documented 503").to.deep.equal([]);
    expect(answers.filter((a) => a.phase === "outage" && a.status === 503).length, "503s during the outage").to.be.at.least(OUTAGE_ANSWERS);

    // Every confirmed login's code is still there to redeem; every confirmed post is stored.
    for (const code of logins) {
      const exchange = await exchangeCode(t!, client, code);
      expect(exchange.status, `code of a confirmed login: ${JSON.stringify(exchange.body)}`).to.equal(200);
    }
    const { rows } = await t!.app.db.query<{ issuer: string; token_id: string }>(
      "SELECT issuer, token_id::text FROM metadata_posts WHERE network = 'localhost' AND target = $1",
      [CONTRACT],
    );
    const stored = new Set(rows.map((r) => `${r.issuer.toLowerCase()}/${r.token_id}`));
    expect(
      posts.filter((p) => !stored.has(`${p.issuer}/${p.tokenId}`)),
      "confirmed posts missing",
    ).to.deep.equal([]);
    expect(logins.length, "confirmed logins").to.be.at.least(6);
    expect(posts.length, "confirmed posts").to.be.at.least(6);
  });
});
