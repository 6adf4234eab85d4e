import fc from "fast-check";
import { MetadataNFT__factory, RepeatedUriERC1155__factory } from "../../../typechain-types";
import type { TestApp } from "../../helpers/app";
import { dataJson } from "../../helpers/data-uri";
import { jsonAnswerProblem } from "../../helpers/statement-reads";
import { SuiteChain } from "../../helpers/suite-chain";
import type { FuzzOptions } from "./fuzz";

/**
 * The answer-size part of the fuzz: generated requests to every route that embeds token metadata, over tokens whose
 * metadata is large in each way it can be (big documents, a tokenURI that {id} substitution grows, a tokenURI whose
 * JSON escaping grows it), each answer checked against its documented bound (SECURITY.md, limits table).
 */

/** The per-answer metadata budget of the target (the smallest METADATA_ANSWERS_MAX_BYTES takes). */
const BUDGET = 65_536;
/** What an item adds beyond its metadata fields: ids, addresses, balance, the omission marker. */
const PER_ITEM = 512;
/** What `GET /token` adds: its holders (up to 100 balances) and signed statements (none in this target). */
const TOKEN_EXTRA = 100 * 80 + 512;

const ERC721_TOKENS = 12;
const ERC1155_IDS = 6;

export interface AnswerSizeTarget {
  t: TestApp;
  holder: string;
  erc721: string;
  erc1155: string;
  close(): Promise<void>;
}

/** The service with a small answer budget over an ERC-721 of big documents and an ERC-1155 whose uri is 2000 "{id}"s. */
export async function startAnswerSizeTarget(): Promise<AnswerSizeTarget> {
  const chain = await SuiteChain.sharedNode();
  try {
    const deployer = await chain.signer(0);
    const holder = (await chain.signer(12)).address;
    const nft = await new MetadataNFT__factory(deployer).deploy();
    for (let id = 1; id <= ERC721_TOKENS; id++) {
      // Documents from 0.2 to 13 kB; every fourth a tokenURI of raw control characters, six times larger as JSON.
      const uri =
        id % 4 === 0
          ? `data:application/json,{"x":"${"\u0001".repeat(1000 * id)}"}`
          : dataJson({ name: `Big #${id}`, description: "d".repeat(200 + 1100 * (id - 1)) });
      await (await nft.mint(holder, id, uri)).wait();
    }
    // 8 kB as the contract answers, 128 kB once substituted: within the tokenURI limit, beyond the answer budget.
    const multi = await new RepeatedUriERC1155__factory(deployer).deploy(2000n);
    const ids = Array.from({ length: ERC1155_IDS }, (_, i) => BigInt(i + 1));
    await (
      await multi.mintBatch(
        holder,
        ids,
        ids.map(() => 3n),
      )
    ).wait();
    const erc721 = await nft.getAddress();
    const erc1155 = await multi.getAddress();
    const t = await chain.startIndexingApp({
      env: {
        INDEXER_CONTRACTS_LOCALHOST: `${erc721},${erc1155}`,
        METADATA_FETCH_WAIT_MS: "5000",
        METADATA_ANSWERS_MAX_BYTES: String(BUDGET),
        METADATA_FETCH_REFRESH_RATE_LIMIT: "1000000",
      },
    });
    return { t, holder, erc721, erc1155, close: () => chain.close() };
  } catch (error) {
    await chain.close();
    throw error;
  }
}

export interface AnswerSizesResult {
  requests: number;
  /** The largest answer seen, in bytes. */
  largest: number;
  /** Items answered with metadataOmitted, over all answers. */
  omitted: number;
}

/** A generated request to a route that embeds metadata. */
const requestArb = (target: AnswerSizeTarget) =>
  fc.oneof(
    fc
      .record({
        contract: fc.constantFrom(target.erc721, target.erc1155),
        limit: fc.option(fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 1000 })), { nil: undefined }),
      })
      .map(({ contract, limit }) => ({
        kind: "page" as const,
        method: "GET" as const,
        url: `/inventory/localhost/${target.holder}/${contract}?metadata=true${limit === undefined ? "" : `&limit=${limit}`}`,
      })),
    fc
      .record({
        contract: fc.constantFrom(target.erc721, target.erc1155),
        id: fc.integer({ min: 1, max: ERC721_TOKENS }),
        refresh: fc.boolean(),
      })
      .map(({ contract, id, refresh }) => ({
        kind: "token" as const,
        method: refresh ? ("POST" as const) : ("GET" as const),
        url: `/token/localhost/${contract}/${id}${refresh ? "/refresh" : ""}`,
      })),
  );

/**
 * Sends `runs` generated requests; each answer must be complete, JSON every reader takes, within its bound
 * (METADATA_ANSWERS_MAX_BYTES plus a fixed size per item), and say in X-Metadata-Omitted how many items it left out.
 */
export async function fuzzAnswerSizes(target: AnswerSizeTarget, options: FuzzOptions): Promise<AnswerSizesResult> {
  const result: AnswerSizesResult = { requests: 0, largest: 0, omitted: 0 };
  await fc.assert(
    fc.asyncProperty(requestArb(target), async (request) => {
      const response = await target.t.app.inject({ method: request.method, url: request.url });
      result.requests++;
      const bytes = response.rawPayload;
      const describe = (problem: string) =>
        `${problem}: ${request.method} ${request.url} -> ${response.statusCode} (${bytes.length} bytes)`;
      const notJson = jsonAnswerProblem(bytes);
      if (notJson) throw new Error(describe(`an answer that is ${notJson}`));
      const body = JSON.parse(bytes.toString("utf8"));
      // Ids the ERC-1155 does not have are 404s; everything else is answered.
      if (response.statusCode === 404 && body.error === "not_found") return;
      if (response.statusCode !== 200) throw new Error(describe(`status ${response.statusCode} ${JSON.stringify(body).slice(0, 200)}`));
      const items: Array<{ metadataOmitted?: unknown }> = request.kind === "page" ? body : [body];
      const bound = BUDGET + PER_ITEM * items.length + (request.kind === "token" ? TOKEN_EXTRA : 0);
      if (bytes.length > bound) throw new Error(describe(`larger than its bound of ${bound} bytes`));
      result.largest = Math.max(result.largest, bytes.length);
      const omitted = items.filter((item) => item.metadataOmitted === true).length;
      result.omitted += omitted;
      if (request.kind === "page" && response.headers["x-metadata-omitted"] !== String(omitted))
        throw new Error(describe(`X-Metadata-Omitted ${response.headers["x-metadata-omitted"]} for ${omitted} items left out`));
    }),
    { seed: options.seed, numRuns: options.runs, endOnFailure: true, verbose: 0 },
  );
  return result;
}
