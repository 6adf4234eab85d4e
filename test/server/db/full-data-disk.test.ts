import { expect } from "chai";
import { fetchJson } from "../../helpers/app";
import pg from "pg";
import type { TestApp } from "../../helpers/app";
import { sharedNode } from "../../helpers/chain";
import { dataDiskServerBinariesOrSkip, startPostgresServer, type PostgresServer } from "../../helpers/postgres-server";
import { MetadataPosts } from "../../helpers/metadata-posts";
import { expectRefusal } from "../../helpers/refusal";
import { startLoginApp } from "../auth/helpers";

const DATA_DISK_MB = 96;

/**
 * A real full disk: PostgreSQL's data directory on a small tmpfs of its own (its WAL elsewhere, as on a server whose
 * data disk fills while its WAL disk has room), filled by another session until it refuses to extend a table.
 * The service answers its writes 503 database_full with Retry-After, reads go on, nothing acknowledged is lost, and it
 * writes again without a restart once space is freed. Mounting needs root: elsewhere it is skipped, and the trigger
 * that raises PostgreSQL's own disk_full (disk-full.test.ts) stands in for it.
 */
describe("a full data disk (tmpfs)", function () {
  this.timeout(180_000);
  let server: PostgresServer | undefined;
  let t: TestApp | undefined;
  let filler: pg.Client | undefined;
  let posts: MetadataPosts;

  before(async function () {
    server = await startPostgresServer(dataDiskServerBinariesOrSkip(this), { dataDiskMb: DATA_DISK_MB });
    t = await startLoginApp((await sharedNode()).url, {
      database: server.database,
      env: { INDEXER: "false", DATABASE_POOL_SIZE: "2" },
    });
    posts = new MetadataPosts(t);
    filler = new pg.Client({ connectionString: server.url });
    await filler.connect();
    // Stored as it is, uncompressed: each row takes its size on the disk.
    await filler.query("CREATE TABLE test_filler (b text)");
    await filler.query("ALTER TABLE test_filler ALTER COLUMN b SET STORAGE EXTERNAL");
  });
  after(async function () {
    await filler?.end().catch(() => {});
    await t?.close();
    await server?.remove();
  });

  /** Inserts rows of `bytes` until PostgreSQL refuses one for the disk; resolves with how many went in. */
  async function fill(bytes: number): Promise<number> {
    for (let rows = 0; ; rows++) {
      try {
        await filler!.query("INSERT INTO test_filler SELECT repeat('x', $1::int)", [bytes]);
      } catch (error) {
        expect((error as { code?: string }).code, String(error)).to.equal("53100");
        return rows;
      }
    }
  }

  it("writes answer 503 database_full with Retry-After, reads go on, nothing acknowledged is lost, and writes resume once space is back", async function () {
    expect((await posts.post()).status).to.equal(200);
    // Large rows first, then ever smaller ones: no page of the filler has room left either.
    for (const bytes of [1_048_576, 65_536, 4_096, 512]) await fill(bytes);

    const answers: Array<{ status: number; error?: string; retryAfter: string | null }> = [];
    for (let i = 0; i < 60; i++) {
      const response = await posts.post();
      const body = (await response.json()) as { error?: string };
      answers.push({ status: response.status, error: body.error, retryAfter: response.headers.get("retry-after") });
    }
    // A post may still find room in a page its table has; once none is left, every one is refused, and only so.
    const first = answers.findIndex((a) => a.status !== 200);
    expect(first, "the first refusal").to.be.within(0, 49);
    const documented = (a: (typeof answers)[number]) => a.status === 503 && a.error === "database_full" && a.retryAfter === "60";
    expect(
      answers.slice(first).filter((a) => !documented(a)),
      JSON.stringify(answers),
    ).to.deep.equal([]);
    await expectRefusal(await t!.fetch(`/metadata/localhost/${posts.contract}/999999`), 404, "not_found");
    expect((await fetchJson(t!, "/health")).status).to.equal(200);

    // Space back: the filler's files are truncated at its drop, and the same process writes again.
    await filler!.query("DROP TABLE test_filler");
    let back = false;
    for (let i = 0; i < 20 && !back; i++) back = (await posts.post()).status === 200;
    expect(back, "a write once space is back").to.equal(true);
    await posts.expectAcknowledgedStored();
  });
});
