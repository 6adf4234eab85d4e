import { Http, type CallOptions, type ClientOptions } from "./http.ts";
import { subscribe, type LiveEvent, type SubscribeOptions } from "./events.ts";
import type { SignedMetadataBody, SignedMetadataRecord } from "./metadata.ts";
import { list, type List } from "./pages.ts";
import type {
  Address,
  Collection,
  Converter,
  ConverterPairs,
  HolderCount,
  Holder,
  InventoryItem,
  InventoryItemWithMetadata,
  Token,
  Transfer,
  Uint,
  UintInput,
} from "./types.ts";

export interface DataClientOptions extends ClientOptions {
  /** The network every call reads, as the service names it (`mainnet`, `matic-mainnet`, `localhost`…). */
  network: string;
}

/** What a signed statement is about, on the client's network: a token or an account. */
export type MetadataSubject = { contract: Address; id: UintInput } | { account: Address };

export interface ListOptions {
  /** Items per page, 1–1000 (the service's default is 100). */
  limit?: number;
}

export interface SpamOption {
  /** `exclude` leaves out what belongs to collections flagged as spam (a page may then hold fewer items, even none); default `include`. */
  spam?: "include" | "exclude";
}

/** A decimal string of an unsigned integer given as a string, bigint or safe integer. */
function decimal(value: UintInput): string {
  if (typeof value === "number" && !Number.isSafeInteger(value))
    throw new RangeError(`${value} is not a safe integer: pass a string or a bigint`);
  return String(value);
}

const segment = (value: string) => encodeURIComponent(value);
const optional = (value: UintInput | undefined) => (value === undefined ? undefined : decimal(value));

/**
 * The data service of one network: every read route as a method (docs/reference/data-api.md). Lists are
 * {@link List}s; integers that can be large are {@link Uint} decimal strings; refusals throw `ApiError`.
 */
export class DataClient {
  readonly network: string;
  /** @internal */
  readonly http: Http;

  constructor(options: DataClientOptions) {
    this.network = options.network;
    this.http = new Http(options);
  }

  private path(...parts: string[]): string {
    return `/${parts.map(segment).join("/")}`;
  }

  private async get<T>(path: string, options: CallOptions = {}, query?: Record<string, string | undefined>): Promise<T> {
    return (await this.http.json<T>(this.http.url(path, query), options)).body;
  }

  /** The latest block number (at most one block behind the node). */
  latestBlock(options?: CallOptions): Promise<Uint> {
    return this.get(this.path("block", this.network, "latest"), options);
  }

  /** A block's timestamp in unix seconds; `ApiError` `not_found` beyond the head. */
  async blockTime(block: UintInput, options?: CallOptions): Promise<number> {
    return Number(await this.get<Uint>(this.path("block", this.network, "time", decimal(block)), options));
  }

  /** The suggested gas price in wei. */
  gasPrice(options?: CallOptions): Promise<Uint> {
    return this.get(this.path("gas", this.network, "suggested-price"), options);
  }

  /** A token's owner on chain (`ownerOf`); `ApiError` `not_found` when the token does not exist. */
  ownerOf(contract: Address, id: UintInput, options?: CallOptions): Promise<Address> {
    return this.get(this.path(this.network, contract, decimal(id)), options);
  }

  /** Whether `operator` may move all of `owner`'s tokens of `contract` (`isApprovedForAll`). */
  isApprovedForAll(contract: Address, owner: Address, operator: Address, options?: CallOptions): Promise<boolean> {
    return this.get(this.path("approval", this.network, contract, owner, operator), options);
  }

  /** A token as a dApp shows it: holder(s), tokenURI, metadata, image, issuer-signed metadata. */
  token(contract: Address, id: UintInput, options?: CallOptions): Promise<Token> {
    return this.get(this.path("token", this.network, contract, decimal(id)), options);
  }

  /** Reads a token's metadata again now (rate-limited per client), then answers like {@link token}. */
  async refreshToken(contract: Address, id: UintInput, options: CallOptions = {}): Promise<Token> {
    const url = this.http.url(this.path("token", this.network, contract, decimal(id), "refresh"));
    return (await this.http.json<Token>(url, { ...options, method: "POST" })).body;
  }

  /** The tokens of `contract` that `owner` holds, in id order; `metadata: true` adds each one's metadata. */
  inventory(owner: Address, contract: Address, options: ListOptions & SpamOption & { metadata: true }): List<InventoryItemWithMetadata>;
  inventory(owner: Address, contract: Address, options?: ListOptions & SpamOption & { metadata?: boolean }): List<InventoryItem>;
  inventory(owner: Address, contract: Address, options: ListOptions & SpamOption & { metadata?: boolean } = {}): List<InventoryItem> {
    const { limit, spam, metadata } = options;
    return list(this.http, this.path("inventory", this.network, owner, contract), { limit, spam, metadata });
  }

  /** The contracts `owner` holds tokens of, each once, in address order. */
  inventoryContracts(owner: Address, options: ListOptions & SpamOption = {}): List<Address> {
    return list(this.http, this.path("inventory", this.network, owner), { limit: options.limit, spam: options.spam });
  }

  /** The contracts `owner` holds tokens of, each as a {@link collection}, in address order (`?details=true`). */
  collectionsOf(owner: Address, options: ListOptions & SpamOption = {}): List<Collection> {
    return list(this.http, this.path("inventory", this.network, owner), { limit: options.limit, spam: options.spam, details: true });
  }

  /** A collection: name, symbol, supplies, holders, indexed blocks, deployment, contract-level metadata, spam verdict. */
  collection(contract: Address, options?: CallOptions): Promise<Collection> {
    return this.get(this.path("collection", this.network, contract), options);
  }

  /**
   * The holders of `contract` (or of its token `id`) with what each holds, in address order; with `block`, as they were
   * at the end of that block.
   */
  holders(contract: Address, options: ListOptions & SpamOption & { id?: UintInput; block?: UintInput } = {}): List<Holder> {
    const query = { limit: options.limit, spam: options.spam, id: optional(options.id), block: optional(options.block) };
    return list(this.http, this.path("holders", this.network, contract), query);
  }

  /** How many owners hold tokens of `contract` (`{holders}`); with `block`, at the end of that block. */
  holderCount(contract: Address, options: CallOptions & { block?: UintInput } = {}): Promise<HolderCount> {
    return this.get(this.path("holders", this.network, contract, "count"), options, { block: optional(options.block) });
  }

  /** The transfers of one token, newest first. */
  transfers(contract: Address, id: UintInput, options: ListOptions & SpamOption = {}): List<Transfer> {
    return list(this.http, this.path("transfers", this.network, contract, decimal(id)), { limit: options.limit, spam: options.spam });
  }

  /** A converter's tokens, pause and reverse switches, and stock (docs/reference/converter.md#routes). */
  converter(converter: Address, options?: CallOptions): Promise<Converter> {
    return this.get(this.path("converter", this.network, converter), options);
  }

  /** Per token id of one side (`aliceIds` or `bobIds`): its counterpart, and whether it converts now (and why not). */
  converterPairs(
    converter: Address,
    ids: { aliceIds: UintInput[] } | { bobIds: UintInput[] },
    options?: CallOptions,
  ): Promise<ConverterPairs> {
    const [side, list] = "aliceIds" in ids ? ["aliceIds", ids.aliceIds] : ["bobIds", ids.bobIds];
    return this.get(this.path("converter", this.network, converter, "pairs"), options, { [side]: list.map(decimal).join(",") });
  }

  /**
   * The live events (transfers, reorgs' removals, resets, metadata changes) as they are indexed:
   * `for await (const event of client.events({ owner }))`. Reconnects by itself after a disconnect, resuming after the
   * last event it gave; ends when `signal` aborts.
   */
  events(options: SubscribeOptions = {}): AsyncIterable<LiveEvent> {
    return subscribe(this.http, this.network, options);
  }

  private metadataPath(about: MetadataSubject): string {
    return "account" in about
      ? this.path("metadata", "ethereum", this.network, about.account)
      : this.path("metadata", this.network, about.contract, decimal(about.id));
  }

  /** Posts an issuer's signed statement about a token or an account ({@link signMetadata}'s body, for this network). */
  async postSignedMetadata(about: MetadataSubject, body: SignedMetadataBody, options: CallOptions = {}): Promise<void> {
    await this.http.send(this.http.url(this.metadataPath(about)), {
      method: "POST",
      signal: options.signal,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });
  }

  /** The statement of each issuer about a token or an account; `records` gives them as signed ({@link SignedMetadataRecord}). */
  signedMetadata(
    about: MetadataSubject,
    options: CallOptions & { issuers?: Address[]; records: true },
  ): Promise<Record<Address, SignedMetadataRecord>>;
  signedMetadata(
    about: MetadataSubject,
    options?: CallOptions & { issuers?: Address[]; records?: false },
  ): Promise<Record<Address, Record<string, unknown>>>;
  /**
   * At most the service's limit of issuers (16 by default): those named in `issuers` first, then the most recent.
   * The documents are read as their authors wrote them (numbers as `JSON.parse` reads them). `ApiError` `not_found` when none.
   */
  async signedMetadata(
    about: MetadataSubject,
    options: CallOptions & { issuers?: Address[]; records?: boolean } = {},
  ): Promise<Record<Address, unknown>> {
    const query = { issuers: options.issuers?.join(","), format: options.records ? "raw" : undefined };
    const response = await this.http.send(this.http.url(this.metadataPath(about), query), {
      signal: options.signal,
      headers: { accept: "application/json" },
    });
    return (await response.json()) as Record<Address, unknown>;
  }

  /** The transfers from or to `owner`, newest first. */
  transfersOf(owner: Address, options: ListOptions & SpamOption = {}): List<Transfer> {
    return list(this.http, this.path("transfers", this.network, "owner", owner), { limit: options.limit, spam: options.spam });
  }
}

/** A {@link DataClient}: `createDataClient({ baseUrl, network })`. */
export function createDataClient(options: DataClientOptions): DataClient {
  return new DataClient(options);
}
