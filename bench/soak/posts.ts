import { randomBytes } from "node:crypto";
import { computeAddress, hexlify } from "ethers";
import type { Queryable } from "../../server/db/database";
import { boundText, encodeMetadata } from "../../server/signed-metadata/signed-text";
import { personalSign } from "../lib/sign";
import type { Answers } from "./answers";
import { jsonPost, send } from "./http";

/** The contract the posts are about: no code needed, a post is a statement by its issuer. */
export const POSTS_CONTRACT = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";

/** Signed-metadata posts, each by a fresh wallet about a token id of its own; it remembers the ones answered `"ok"`. */
export class MetadataPosts {
  readonly acknowledged: Array<{ issuer: string; tokenId: number }> = [];
  private nextId = 1;

  constructor(
    private readonly answers: Answers,
    private readonly base: string,
  ) {}

  async post(): Promise<void> {
    const tokenId = this.nextId++;
    const key = randomBytes(32);
    const issuer = computeAddress(hexlify(key));
    const metadata = encodeMetadata({ name: `soak post ${tokenId}` });
    const sig = personalSign(
      key,
      boundText({ kind: "nft", network: "localhost", contract: POSTS_CONTRACT, tokenId: BigInt(tokenId) }, metadata),
    );
    const answer = await send(this.answers, this.base, {
      family: "metadata post",
      route: "POST /metadata/{network}/{contract}/{id}",
      path: `/metadata/localhost/${POSTS_CONTRACT}/${tokenId}`,
      init: jsonPost({ iss: issuer, sig, metadata }),
    });
    if (answer.status === 200 && answer.body === "ok") this.acknowledged.push({ issuer: issuer.toLowerCase(), tokenId });
  }

  /** The acknowledged posts the database lacks. */
  async missing(db: Queryable): Promise<Array<{ issuer: string; tokenId: number }>> {
    const { rows } = await db.query<{ issuer: string; token_id: string }>(
      "SELECT issuer, token_id::text FROM metadata_posts WHERE network = 'localhost' AND target = $1",
      [POSTS_CONTRACT],
    );
    const stored = new Set(rows.map((row) => `${row.issuer.toLowerCase()}/${row.token_id}`));
    return this.acknowledged.filter((post) => !stored.has(`${post.issuer}/${post.tokenId}`));
  }
}
