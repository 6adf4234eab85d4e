import { Wallet, type JsonRpcProvider, type JsonRpcSigner } from "ethers";
import { MetadataNFT__factory, type MetadataNFT } from "../../typechain-types";

/** The token URIs the minted tokens take in turn: inline, a host that answers, one that answers slowly, one that fails. */
export interface MetadataHosts {
  good: string;
  slow: string;
  failing: string;
}

/**
 * The local chain as the soak drives it: a MetadataNFT whose tokens are minted and handed on, one transaction a block
 * (automining), a tick every `tickMs`, and a reorg when asked (a snapshot, some blocks, a revert, more blocks than were
 * undone, so that the new branch is the longer one). Only this class writes to the chain, so a reorg never races a send.
 */
export class ChainDriver {
  nft!: MetadataNFT;
  /** Token ids minted (some undone by a reorg since), addresses that received one: what the data routes ask about. */
  readonly ids: number[] = [];
  readonly holders: string[] = [];
  reorgs = 0;
  blocksUndone = 0;
  private nextId = 1;
  private signer!: JsonRpcSigner;
  private running = false;
  private loop?: Promise<void>;
  private reorgAsked = false;

  constructor(
    private readonly provider: JsonRpcProvider,
    private readonly hosts: MetadataHosts,
  ) {}

  async deploy(): Promise<string> {
    this.signer = await this.provider.getSigner(0);
    this.nft = await new MetadataNFT__factory(this.signer).deploy();
    await this.nft.waitForDeployment();
    this.holders.push(await this.signer.getAddress());
    for (let i = 0; i < 8; i++) await this.tick();
    return this.nft.getAddress();
  }

  /** Mints one token (kept by the deployer one time in four) and hands the rest to fresh addresses, tick after tick. */
  start(tickMs: number): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        if (this.reorgAsked) {
          this.reorgAsked = false;
          await this.reorg();
        } else await this.tick();
        await new Promise((resolve) => setTimeout(resolve, tickMs));
      }
    })();
  }

  /** The next tick makes a reorg. */
  askReorg(): void {
    this.reorgAsked = true;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private uri(id: number): string {
    switch (id % 4) {
      case 0:
        return `data:application/json,${encodeURIComponent(JSON.stringify({ name: `Soak ${id}` }))}`;
      case 1:
        return `${this.hosts.good}/${id}.json`;
      case 2:
        return `${this.hosts.slow}/${id}.json`;
      default:
        return `${this.hosts.failing}/${id}.json`;
    }
  }

  private async tick(): Promise<void> {
    const id = this.nextId++;
    const owner = await this.signer.getAddress();
    await (await this.nft.mint(owner, id, this.uri(id))).wait();
    this.ids.push(id);
    if (id % 4 !== 0) {
      const to = Wallet.createRandom().address;
      await (await this.nft.transferFrom(owner, to, id)).wait();
      this.holders.push(to);
      if (this.holders.length > 200) this.holders.splice(1, 1);
    }
    if (this.ids.length > 2_000) this.ids.shift();
  }

  /** Three ticks undone and four others in their place: a reorg of about six blocks. */
  private async reorg(): Promise<void> {
    const snapshot: string = await this.provider.send("evm_snapshot", []);
    const before = await this.provider.getBlockNumber();
    for (let i = 0; i < 3; i++) await this.tick();
    const undone = (await this.provider.getBlockNumber()) - before;
    await this.provider.send("evm_revert", [snapshot]);
    for (let i = 0; i < 4; i++) await this.tick();
    this.reorgs++;
    this.blocksUndone += undone;
  }
}
