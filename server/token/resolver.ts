import { Interface } from "ethers";
import { callOutcome } from "../chain/calls";
import { upstreamError } from "../chain/errors";
import type { Networks } from "../chain/networks";
import type { TokenMetadataConfig } from "../config";
import type { Database } from "../db/database";
import { fetchDocument } from "./fetch-document";
import { KeyedLimiter, QueueFull } from "./limiter";
import { cachedMetadata, saveMetadata, type CachedMetadata, type TokenKey } from "./store";
import { browserUrl, imageUrl, isJsonMediaType, locate, MetadataError, parseMetadata, substituteId, type Gateways } from "./uri";

export type Standard = "erc721" | "erc1155";

/** What a read of a token's metadata gave; `error` says why `metadata` is null ("pending": not read yet). */
export type Resolved = Omit<CachedMetadata, "expiresAt">;

/** A read's outcome; `transient` when it says nothing about the token (not stored, and a cached entry is better). */
type Read = Resolved & { transient?: true };

const TOKEN_URI = new Interface([
  "function tokenURI(uint256 tokenId) view returns (string)",
  "function uri(uint256 id) view returns (string)",
]);

interface Logger {
  warn(object: object, message: string): void;
}

/**
 * Reads tokens' metadata (tokenURI on chain, then the document it names) in a bounded background queue and caches
 * it in the database. A caller waits at most `waitMs`; what is not read by then comes from the cache as it is, or
 * as "pending", and the read goes on in the background for the next caller. Calls to a network's node and fetches
 * from each host are limited separately, so a slow host delays only its own tokens.
 */
export class TokenMetadataResolver {
  private readonly limiter: KeyedLimiter;
  private readonly inFlight = new Map<string, Promise<Read>>();
  private readonly closing = new AbortController();
  private readonly gateways: Gateways;

  constructor(
    private readonly config: TokenMetadataConfig,
    private readonly db: Database,
    private readonly networks: Networks,
    private readonly log: Logger,
  ) {
    this.limiter = new KeyedLimiter(config.concurrency, config.hostConcurrency);
    this.gateways = { ipfs: config.ipfsGateway, arweave: config.arweaveGateway };
  }

  /**
   * The metadata of some tokens of one contract, by decimal id. Fresh cache entries are answered as they are (no
   * read at all); the others are read, unless `refresh` every one is read again.
   */
  async lookup(
    network: string,
    contract: string,
    tokens: ReadonlyArray<{ id: bigint; standard: Standard }>,
    { refresh = false, cached }: { refresh?: boolean; cached?: Map<string, CachedMetadata> } = {},
  ): Promise<Map<string, Resolved>> {
    cached ??= await this.cached(
      network,
      contract,
      tokens.map((t) => t.id),
    );
    const now = Date.now();
    const answers = new Map<string, Resolved>();
    const reads: Promise<void>[] = [];
    for (const { id, standard } of tokens) {
      const key = id.toString();
      const entry = cached.get(key);
      if (entry && !refresh && entry.expiresAt.getTime() > now) {
        answers.set(key, entry);
        continue;
      }
      reads.push(
        this.read({ network, contract, tokenId: id }, standard, refresh).then(
          (read) => void answers.set(key, (read.transient && entry) || read),
        ),
      );
    }
    if (reads.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(reads), new Promise((resolve) => (timer = setTimeout(resolve, this.config.waitMs)))]);
      clearTimeout(timer);
    }
    for (const { id } of tokens) {
      const key = id.toString();
      if (!answers.has(key)) answers.set(key, cached!.get(key) ?? { tokenUri: null, metadata: null, image: null, error: "pending" });
    }
    return answers;
  }

  /** What the cache holds for some ids of one contract (expired entries too), by decimal id: `lookup` can start from it. */
  cached(network: string, contract: string, ids: readonly bigint[]): Promise<Map<string, CachedMetadata>> {
    return cachedMetadata(this.db, network, contract, ids);
  }

  /** Stops reading: fetches in flight are aborted and nothing more is stored. */
  close(): void {
    this.closing.abort();
  }

  /** One read per token at a time on this instance; a refresh joins a read already under way. */
  private read(key: TokenKey, standard: Standard, refresh: boolean): Promise<Read> {
    const name = `${key.network}:${key.contract}:${key.tokenId}`;
    let pending = this.inFlight.get(name);
    if (!pending) {
      pending = this.readAndStore(key, standard, refresh).finally(() => this.inFlight.delete(name));
      this.inFlight.set(name, pending);
    }
    return pending;
  }

  private async readAndStore(key: TokenKey, standard: Standard, refresh: boolean): Promise<Read> {
    let tokenUri: string | null = null;
    try {
      tokenUri = await this.limiter.run(`rpc:${key.network}`, () => this.readTokenUri(key, standard));
      const resolved = await this.resolveDocument(tokenUri);
      return await this.store(key, resolved, this.config.ttlMs);
    } catch (error) {
      // Not facts about the token: answered (unless the cache has better), not stored.
      if (this.closing.signal.aborted || error instanceof QueueFull)
        return { tokenUri, metadata: null, image: null, error: "pending", transient: true };
      const upstream = upstreamError(error, key.network);
      if (upstream) return { tokenUri, metadata: null, image: null, error: upstream.message, transient: true };
      if (error instanceof MetadataError)
        return this.store(key, { tokenUri, metadata: null, image: null, error: error.message }, this.config.errorTtlMs);
      this.log.warn({ err: error, token: `${key.network}:${key.contract}:${key.tokenId}`, refresh }, "token metadata read failed");
      return { tokenUri, metadata: null, image: null, error: "internal error while reading the metadata", transient: true };
    }
  }

  private async store(key: TokenKey, resolved: Resolved, ttlMs: number): Promise<Resolved> {
    if (this.closing.signal.aborted) return resolved;
    return saveMetadata(this.db, key, resolved, ttlMs);
  }

  /** tokenURI(id) (ERC-721) or uri(id) with {id} substituted (ERC-1155). */
  private async readTokenUri(key: TokenKey, standard: Standard): Promise<string> {
    const fn = standard === "erc721" ? "tokenURI" : "uri";
    const outcome = await callOutcome(
      key.network,
      this.networks.provider(key.network).call({ to: key.contract, data: TOKEN_URI.encodeFunctionData(fn, [key.tokenId]) }),
    );
    if (!outcome.ok) throw new MetadataError(`${fn}(${key.tokenId}) reverted`);
    let uri: string;
    try {
      uri = TOKEN_URI.decodeFunctionResult(fn, outcome.data)[0] as string;
    } catch {
      throw new MetadataError(`${fn}(${key.tokenId}) did not return a string`);
    }
    // A data: URI may be a little larger than its decoded document; anything longer is refused before it is kept.
    if (uri.length > this.config.maxBytes * 2)
      throw new MetadataError(`${fn}(${key.tokenId}) is longer than ${this.config.maxBytes * 2} characters`);
    // Text columns cannot hold NUL; a URI with control characters is broken anyway.
    uri = uri.replace(/\u0000/g, "\uFFFD");
    if (uri.trim() === "") throw new MetadataError(`${fn}(${key.tokenId}) is empty`);
    return standard === "erc1155" ? substituteId(uri, key.tokenId) : uri;
  }

  /** The metadata document `tokenUri` names, parsed, with its image as a browser URL. */
  private async resolveDocument(tokenUri: string): Promise<Resolved> {
    const { maxBytes, allowPrivate, fetchTimeoutMs } = this.config;
    if (/[\u0000-\u001f\u007f\uFFFD]/.test(tokenUri) && !/^data:/i.test(tokenUri.trim()))
      throw new MetadataError("tokenURI contains control characters");
    const location = locate(tokenUri, this.gateways, maxBytes);
    const document =
      location.kind === "data"
        ? { mediaType: location.mediaType, body: location.body, url: tokenUri.trim() }
        : await this.limiter.run(`host:${location.url.host}`, () =>
            fetchDocument(location.url, {
              allowPrivate,
              trustedFirstHop: location.gateway,
              timeoutMs: fetchTimeoutMs,
              maxBytes,
              signal: this.closing.signal,
            }),
          );
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
