import { expect } from "chai";
import { Wallet } from "ethers";
import { boundText, encodeMetadata } from "../../server/signed-metadata/signed-text";
import type { TestApp } from "./app";

/**
 * Signed-metadata posts to one contract, each of a fresh wallet and a token id of its own, for the drills that make
 * the database fail under writes: it remembers the posts answered 200 and checks they are all stored.
 */
export class MetadataPosts {
  /** Token ids of the posts answered 200. */
  readonly acknowledged: number[] = [];
  private nextId = 1;

  constructor(
    private readonly t: TestApp,
    readonly contract = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
  ) {}

  async post(): Promise<Response> {
    const id = this.nextId++;
    const wallet = Wallet.createRandom();
    const metadata = encodeMetadata({ name: `post ${id}` });
    const target = { kind: "nft", network: "localhost", contract: this.contract, tokenId: BigInt(id) } as const;
    const response = await this.t.fetch(`/metadata/localhost/${this.contract}/${id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ iss: wallet.address, sig: await wallet.signMessage(boundText(target, metadata)), metadata }),
    });
    if (response.status === 200) this.acknowledged.push(id);
    return response;
  }

  /** Every post answered 200 is stored. */
  async expectAcknowledgedStored(): Promise<void> {
    const { rows } = await this.t.app.db.query<{ token_id: string }>("SELECT token_id::text FROM metadata_posts WHERE target = $1", [
      this.contract,
    ]);
    const stored = new Set(rows.map((row) => Number(row.token_id)));
    expect(
      this.acknowledged.filter((id) => !stored.has(id)),
      "acknowledged posts missing",
    ).to.deep.equal([]);
  }
}
