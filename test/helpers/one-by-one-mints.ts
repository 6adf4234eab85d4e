import type { JsonRpcProvider } from "ethers";
import type { Queryable } from "../../server/db/database";
import { AliceNFT__factory, type AliceNFT } from "../../typechain-types";
import { expectHoldingsMatchRecount } from "./holdings-check";
import { expectIndexMatchesChain, indexedTo } from "./index-check";

/**
 * An AliceNFT of the chain's first signer whose tokens are minted one block each, to `users` in turn: for the drills
 * that put the indexer through a faulty or lagging node while the chain grows, then check that the index equals it.
 */
export class OneByOneMints {
  private readonly minted: bigint[] = [];
  private nextId = 1n;

  private constructor(
    private readonly provider: JsonRpcProvider,
    readonly alice: AliceNFT,
    /** The addresses of the signers after the first, who receive the tokens. */
    readonly users: string[],
  ) {}

  static async deploy(provider: JsonRpcProvider, userCount: number): Promise<OneByOneMints> {
    const deployer = await provider.getSigner(0);
    const users = await Promise.all(Array.from({ length: userCount }, async (_, i) => (await provider.getSigner(i + 1)).getAddress()));
    const alice = await new AliceNFT__factory(deployer).deploy(await deployer.getAddress());
    return new OneByOneMints(provider, alice, users);
  }

  /** Mints `count` tokens, one block each, to the users in turn. */
  async mint(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const id = this.nextId++;
      this.minted.push(id);
      await (await this.alice.mint(this.users[i % this.users.length], id)).wait();
    }
  }

  /**
   * Once `db` has indexed the chain's head, its index equals the chain: the owner of every token minted and of the
   * next id (none), and the holdings a recount gives.
   */
  async expectIndexEqualsChain(db: Queryable): Promise<void> {
    await indexedTo(db, "localhost", this.provider, undefined, 60_000);
    await expectIndexMatchesChain(db, this.provider, "localhost", await this.alice.getAddress(), [...this.minted, this.nextId]);
    await expectHoldingsMatchRecount(db, "localhost");
  }
}
