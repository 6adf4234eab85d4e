import { startLoginApp } from "../server/auth/helpers";
import type { TestApp } from "./app";
import { sharedNode } from "./chain";
import { postgresTestDatabase } from "./database";
import { MetadataPosts } from "./metadata-posts";

/**
 * The service on a PostgreSQL database a drill breaks (`url`: a server it makes refuse, an address it moves to
 * another server), and the signed-metadata posts that write to it. Two connections, each waited for 1 s at most: an
 * outage is answered within the drill, not after the default 5 s. The database is the drill's own to remove.
 */
export async function startDrillApp(url: string): Promise<{ t: TestApp; posts: MetadataPosts }> {
  const t = await startLoginApp((await sharedNode()).url, {
    database: postgresTestDatabase(url, async () => {}),
    env: { INDEXER: "false", DATABASE_POOL_SIZE: "2", DATABASE_ACQUIRE_TIMEOUT_MS: "1000" },
  });
  return { t, posts: new MetadataPosts(t) };
}
