import { Interface } from "ethers";
import { decodeResult } from "../chain/abi-string";
import { callOutcome, rawCall } from "../chain/calls";
import { upstreamError } from "../chain/errors";
import { DomainError } from "../lib/domain-error";
import type { Networks } from "../chain/networks";
import type { TokenMetadataConfig } from "../config";
import type { Database } from "../db/database";
import type { Clock } from "../lib/clock";
import { COLLECTION_TOKEN_ID } from "../indexer";
import { fetchDocument, firstAddress } from "./fetch-document";
import { KeyedLimiter, QueueFull } from "../lib/keyed-limiter";
import { cachedCollections, cachedMetadata, saveMetadata, type CachedEntry, type CachedMetadata, type TokenKey } from "./store";
import { fieldsWithin, type BudgetedFields } from "./token";
import {
  browserUrl,
  imageUrl,
  isJsonMediaType,
  locate,
  MetadataError,
  parseMetadata,
  substituteId,
  substitutedLength,
  type Gateways,
} from "./uri";

export type Standard = "erc721" | "erc1155";

/** What a read of a token's metadata gave; `error` says why `metadata` is null ("pending": not read yet). */
export type Resolved = Omit<CachedMetadata, "expiresAt" | "updatedAt"> & {
  /** When the cache's entry was read; absent for what is not from the cache (pending, a read that stored nothing). */
  updatedAt?: Date | null;
};

/** A token whose metadata an answer leaves out: it did not fit in the answer's budget. */
export interface Omitted {
  omitted: true;
}
export const OMITTED: Omitted = { omitted: true };

const PENDING: Resolved = { tokenUri: null, metadata: null, image: null, error: "pending" };

/** A read's outcome: undefined when it was stored (the cache has it), else what it says (nothing about the token). */
type Read = Resolved | undefined;

const readName = (key: TokenKey) => `${key.network}:${key.contract}:${key.tokenId}`;

const TOKEN_URI = new Interface([
  "function tokenURI(uint256 tokenId) view returns (string)",
  "function uri(uint256 id) view returns (string)",
  "function contractURI() view returns (string)",
]);

interface Logger {
  warn(object: object, message: string): void;
}

/**
 * Reads tokens' metadata (tokenURI on chain, then the document it names) in a bounded background queue and caches
 * it in the database. A caller waits at most `waitMs`; what is not read by then comes from the cache as it is, or
 * as "pending", and the read goes on in the background for the next caller. Calls to a network's node and fetches
 * are limited apart, and fetches per address and per contract, so a slow origin delays only its own tokens.
 */
export class TokenMetadataResolver {
  /** Document fetches, limited per address and per contract. */
  private readonly fetches: KeyedLimiter;
  /** tokenURI calls to the networks' nodes, apart from the fetches: a slow origin never delays them. */
  private readonly calls: KeyedLimiter;
  private readonly answers: KeyedLimiter;
  private readonly inFlight = new Map<string, Promise<Read>>();
  private readonly closing = new AbortController();
  private readonly gateways: Gateways;

  constructor(
    private readonly config: TokenMetadataConfig,
    private readonly db: Database,
    private readonly networks: Networks,
    private readonly log: Logger,
    /** The time the cache's entries expire in: written with each entry (its TTL from now) and compared with. */
    private readonly clock: Clock,
  ) {
    this.fetches = new KeyedLimiter(config.concurrency, config.hostConcurrency);
    this.calls = new KeyedLimiter(config.concurrency, config.hostConcurrency);
    this.answers = new KeyedLimiter(config.answersConcurrency, config.answersConcurrency, config.answersConcurrency * 16);
    this.gateways = { ipfs: config.ipfsGateway, arweave: config.arweaveGateway };
  }

  /**
   * Answers the metadata of some tokens of one contract: `write` gets their fields (by decimal id, within
   * METADATA_ANSWERS_MAX_BYTES), makes the answer and hands it to its connection. The answer is made in an answer slot
   * (see withAnswerSlot), given back as soon as the answer is handed over: how fast its client reads it is no concern
   * of the slot's (HTTP_SEND_TIMEOUT_MS bounds that). One statement reads the cache's entries, within the budget, with
   * their expiry: when all are there and fresh, the answer is made of them. Else those missing or stale are read
   * (every one with `refresh`, and then the cache is not read first), the answer waits at most METADATA_WAIT_MS for
   * them, holding no slot meanwhile, and is made of the cache as it is then.
   */
  async answer(
    network: string,
    contract: string,
    tokens: ReadonlyArray<{ id: bigint; standard: Standard }>,
    write: (fields: BudgetedFields) => void,
    { refresh = false }: { refresh?: boolean } = {},
  ): Promise<void> {
    const ids = tokens.map((t) => t.id);
    const keys = ids.map((id) => id.toString());
    const budget = this.config.answersMaxBytes;
    const answerOf = (cached: ReadonlyMap<string, CachedEntry>, transient: ReadonlyMap<string, Resolved>) => {
      const answers = new Map<string, Resolved | Omitted>();
      for (const key of keys) {
        const entry = cached.get(key);
        answers.set(key, entry ? (entry.entry ?? OMITTED) : (transient.get(key) ?? PENDING));
      }
      return fieldsWithin(keys, answers, budget);
    };
    // When each entry expires; only that is kept past the slot, not the content read with it.
    const expiry = new Map<string, Date>();
    if (!refresh) {
      const answered = await this.withAnswerSlot(async () => {
        const cached = await cachedMetadata(this.db, { network, contract, ids, budget });
        const now = this.clock();
        if (keys.every((key) => (cached.get(key)?.expiresAt.getTime() ?? 0) > now)) {
          write(answerOf(cached, new Map()));
          return true;
        }
        for (const [key, { expiresAt }] of cached) expiry.set(key, expiresAt);
        return false;
      });
      if (answered) return;
    }
    const now = this.clock();
    // What a read gave that the cache does not hold (failures that say nothing about the token).
    const transient = new Map<string, Resolved>();
    const reads: Promise<void>[] = [];
    // One answer starts at most METADATA_FETCH_CONCURRENCY new reads (joining reads under way is free): a page of a
    // thousand tokens does not fill the queue; its next asks start the next ones.
    let startable = this.config.concurrency;
    for (const { id, standard } of tokens) {
      const expiresAt = expiry.get(id.toString());
      if (expiresAt && expiresAt.getTime() > now) continue;
      if (!this.inFlight.has(readName({ network, contract, tokenId: id }))) {
        if (startable === 0) continue;
        startable--;
      }
      reads.push(
        this.read({ network, contract, tokenId: id }, standard, refresh).then((read) => void (read && transient.set(id.toString(), read))),
      );
    }
    if (reads.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(reads), new Promise((resolve) => (timer = setTimeout(resolve, this.config.waitMs)))]);
      clearTimeout(timer);
    }
    await this.withAnswerSlot(async () => {
      write(answerOf(await cachedMetadata(this.db, { network, contract, ids, budget }), transient));
    });
  }

  /**
   * Runs `answer` (which reads and assembles an answer that embeds metadata, and settles once it is handed to its
   * connection) when fewer than METADATA_ANSWERS_CONCURRENCY such answers are being made: what the process holds to
   * make them is bounded, however many arrive at once. Beyond a short queue it refuses with 503 `metadata_busy`.
   */
  withAnswerSlot<T>(answer: () => Promise<T>): Promise<T> {
    return this.answers.run("answers", answer).catch((error: unknown) => {
      if (error instanceof QueueFull)
        throw new DomainError("unavailable", "metadata_busy", "Too many answers with token metadata are under way; try again shortly", 1);
      throw error;
    });
  }

  /**
   * Reads a token's metadata again in the background (its cached document went stale): true when the read stored
   * something, false when it said nothing about the token (a node or queue failure, a closing service).
   */
  async reread(key: TokenKey, standard: Standard): Promise<boolean> {
    return (await this.read(key, standard, true)) === undefined;
  }

  /** One cache entry, its content within the answers' budget, with its expiry (the marks' say included). */
  private async cachedEntry(key: TokenKey): Promise<CachedEntry | undefined> {
    const cached = await cachedMetadata(this.db, { ...key, ids: [key.tokenId], budget: this.config.answersMaxBytes });
    return cached.get(key.tokenId.toString());
  }

  /**
   * The image of one token as a browser URL, read first unless the cache holds it fresh; null when it has none or the
   * read failed. Waits for the read, within the queue's limits: for callers that run in the background (a login's
   * ENS avatar), which the answers' wait would cut short.
   */
  async image(network: string, contract: string, id: bigint, standard: Standard): Promise<string | null> {
    const key = { network, contract: contract.toLowerCase(), tokenId: id };
    const cached = await this.cachedEntry(key);
    if (cached && cached.expiresAt.getTime() > this.clock()) return cached.entry?.image ?? null;
    const read = await this.read(key, standard, false);
    if (read) return read.image;
    return (await this.cachedEntry(key))?.entry?.image ?? null;
  }

  /**
   * The contract-level metadata of a contract (ERC-7572: the document its `contractURI()` names), read through the same
   * queue, guarded fetcher and cache as tokens' (cached under COLLECTION_TOKEN_ID; a ContractURIUpdated log makes the
   * entry stale as a MetadataUpdate makes a token's). Waits at most METADATA_FETCH_WAIT_MS for a read, then answers
   * what the cache holds ("pending" when nothing yet). `tokenUri` is then the contractURI.
   */
  async collection(network: string, contract: string): Promise<Resolved> {
    const key = { network, contract, tokenId: COLLECTION_TOKEN_ID };
    const cached = await this.cachedEntry(key);
    if (cached && cached.expiresAt.getTime() > this.clock()) return cached.entry ?? PENDING;
    let transient: Resolved | undefined;
    let timer: NodeJS.Timeout | undefined;
    const read = this.read(key, "erc721", false).then((read) => void (transient = read));
    await Promise.race([read, new Promise((resolve) => (timer = setTimeout(resolve, this.config.waitMs)))]);
    clearTimeout(timer);
    return (await this.cachedEntry(key))?.entry ?? transient ?? PENDING;
  }

  /**
   * The cached contract-level metadata of some contracts of a network, in one statement, by contract: within
   * METADATA_ANSWERS_MAX_BYTES (in contract order; the others OMITTED), "pending" for those never read. Those missing
   * or stale are read in the background (at most METADATA_FETCH_CONCURRENCY new reads per call), not waited for.
   */
  async collections(network: string, contracts: readonly string[]): Promise<Map<string, Resolved | Omitted>> {
    return this.collectionsCached(network, contracts, await cachedCollections(this.db, network, contracts, this.config.answersMaxBytes));
  }

  /**
   * As {@link collections}, from what a statement of the caller read of the cache (with the same budget, e.g. beside
   * an index page): the answers by contract, and those missing or stale read in the background.
   */
  collectionsCached(
    network: string,
    contracts: readonly string[],
    cached: ReadonlyMap<string, CachedEntry>,
  ): Map<string, Resolved | Omitted> {
    const now = this.clock();
    let startable = this.config.concurrency;
    const answers = new Map<string, Resolved | Omitted>();
    for (const contract of contracts) {
      const entry = cached.get(contract);
      answers.set(contract, entry ? (entry.entry ?? OMITTED) : PENDING);
      if (entry && entry.expiresAt.getTime() > now) continue;
      const key = { network, contract, tokenId: COLLECTION_TOKEN_ID };
      if (this.inFlight.has(readName(key)) || startable === 0) continue;
      startable--;
      // Nobody waits for it: a failure to store is the next ask's to see.
      this.read(key, "erc721", false).catch(() => undefined);
    }
    return answers;
  }

  /** The byte budget of one answer's metadata (METADATA_ANSWERS_MAX_BYTES): what a caller's own read of the cache keeps to. */
  get answersMaxBytes(): number {
    return this.config.answersMaxBytes;
  }

  /** Stops reading: fetches in flight are aborted and nothing more is stored. */
  close(): void {
    this.closing.abort();
  }

  /** One read per token at a time on this instance; a refresh joins a read already under way. */
  private read(key: TokenKey, standard: Standard, refresh: boolean): Promise<Read> {
    const name = readName(key);
    let pending = this.inFlight.get(name);
    if (!pending) {
      pending = this.readAndStore(key, standard, refresh).finally(() => this.inFlight.delete(name));
      this.inFlight.set(name, pending);
    }
    return pending;
  }

  private async readAndStore(key: TokenKey, standard: Standard, refresh: boolean): Promise<Read> {
    // Failures that are not facts about the token are answered (unless the cache has better) and not stored; they
    // carry no tokenURI, so what a pending read holds for its answer stays small.
    const transient = (error: string): Read => ({ tokenUri: null, metadata: null, image: null, error });
    try {
      const tokenUri = await this.calls.run(key.network, () => this.readTokenUri(key, standard));
      let failed = false;
      const resolved = await this.resolveDocument(key, tokenUri).catch((error: unknown) => {
        if (!(error instanceof MetadataError)) throw error;
        failed = true;
        return { tokenUri, metadata: null, image: null, error: error.message };
      });
      await this.store(key, resolved, failed ? this.config.errorTtlMs : this.config.ttlMs);
      return undefined;
    } catch (error) {
      if (this.closing.signal.aborted || error instanceof QueueFull) return transient("pending");
      const upstream = upstreamError(error, key.network);
      if (upstream) return transient(upstream.message);
      if (error instanceof MetadataError) {
        await this.store(key, { tokenUri: null, metadata: null, image: null, error: error.message }, this.config.errorTtlMs);
        return undefined;
      }
      this.log.warn({ err: error, token: `${key.network}:${key.contract}:${key.tokenId}`, refresh }, "token metadata read failed");
      return transient("internal error while reading the metadata");
    }
  }

  private async store(key: TokenKey, resolved: Resolved, ttlMs: number): Promise<void> {
    if (this.closing.signal.aborted) return;
    const now = this.clock();
    await saveMetadata(this.db, { key, entry: resolved, readAt: new Date(now), expiresAt: new Date(now + ttlMs) });
  }

  /** tokenURI(id) (ERC-721), uri(id) with {id} substituted (ERC-1155), or contractURI() (the collection's). */
  private async readTokenUri(key: TokenKey, standard: Standard): Promise<string> {
    const collection = key.tokenId === COLLECTION_TOKEN_ID;
    const fn = collection ? "contractURI" : standard === "erc721" ? "tokenURI" : "uri";
    const call = `${fn}(${collection ? "" : key.tokenId})`;
    const data = collection ? TOKEN_URI.encodeFunctionData(fn) : TOKEN_URI.encodeFunctionData(fn, [key.tokenId]);
    const outcome = await callOutcome(key.network, rawCall(this.networks.provider(key.network), { to: key.contract, data }));
    if (!outcome.ok) throw new MetadataError(`${call} reverted`);
    let uri: string;
    try {
      uri = decodeResult(TOKEN_URI, fn, outcome.data) as string;
    } catch {
      throw new MetadataError(`${call} did not return a string`);
    }
    // A data: URI may be a little larger than its decoded document; anything longer is refused before it is kept.
    if (uri.length > this.config.maxBytes * 2) throw new MetadataError(`${call} is longer than ${this.config.maxBytes * 2} characters`);
    // Text columns cannot hold NUL; a URI with control characters is broken anyway.
    uri = uri.replace(/\u0000/g, "\uFFFD");
    if (uri.trim() === "") throw new MetadataError(`${call} is empty`);
    if (standard === "erc721" || collection) return uri;
    // Each "{id}" grows to 64 digits: the limit holds for what is stored and served, so it is checked before the
    // substituted text is made.
    if (substitutedLength(uri) > this.config.maxBytes * 2)
      throw new MetadataError(`${fn}(${key.tokenId}) with {id} substituted is longer than ${this.config.maxBytes * 2} characters`);
    return substituteId(uri, key.tokenId);
  }

  /** The metadata document `tokenUri` names, parsed, with its image as a browser URL. */
  private async resolveDocument(key: TokenKey, tokenUri: string): Promise<Resolved> {
    const { maxBytes, allowPrivate, fetchTimeoutMs } = this.config;
    if (/[\u0000-\u001f\u007f\uFFFD]/.test(tokenUri) && !/^data:/i.test(tokenUri.trim()))
      throw new MetadataError("tokenURI contains control characters");
    const location = locate(tokenUri, this.gateways, maxBytes);
    // data: needs no slot. A fetch waits for one under its address (names are free, so not under the name) and under
    // its contract (addresses are cheap too, contracts cost a deployment): a slow origin holds at most
    // METADATA_FETCH_HOST_CONCURRENCY slots, however it spreads its tokenURIs.
    let document: { mediaType: string; body: Buffer; url: string };
    if (location.kind === "data") document = { mediaType: location.mediaType, body: location.body, url: tokenUri.trim() };
    else {
      const address = await firstAddress(location.url, !allowPrivate && !location.gateway);
      document = await this.fetches.run([`address:${address.address}`, `contract:${key.network}:${key.contract}`], () =>
        fetchDocument(location.url, {
          allowPrivate,
          trustedFirstHop: location.gateway,
          timeoutMs: fetchTimeoutMs,
          maxBytes,
          signal: this.closing.signal,
          address,
        }),
      );
    }
    // Some tokens point straight at their image.
    if (/^image\//i.test(document.mediaType)) {
      return {
        tokenUri,
        metadata: null,
        image: browserUrl(document.url, this.gateways),
        error: "tokenURI points at an image, not at JSON metadata",
      };
    }
    if (!isJsonMediaType(document.mediaType)) throw new MetadataError(`tokenURI is ${document.mediaType.slice(0, 100)}, not JSON`);
    const { text, value } = parseMetadata(document.body);
    return { tokenUri, metadata: text, image: imageUrl(value, this.gateways), error: null };
  }
}
