import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checksummer } from "../chain/values";
import { badRequest, notFound } from "../http/http-error";
import { contractSummaries, holderCountAt, holdersAt, type ContractSummary } from "../indexer";
import { encodeCursor, fromIndex } from "./paging";

/** The formats holders at a block are written in: a page of JSON, or every holder streamed for an export. */
export type SnapshotFormat = "json" | "ndjson" | "csv";

const MEDIA_TYPES: Record<Exclude<SnapshotFormat, "json">, string> = {
  ndjson: "application/x-ndjson; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};

/** Holders an export reads per statement. */
const EXPORT_PAGE = 1_000;

/** `format` when given, else what Accept names first of NDJSON and CSV, else a JSON page. */
export function snapshotFormat(format: SnapshotFormat | undefined, accept: string | undefined): SnapshotFormat {
  if (format) return format;
  const wanted = (accept ?? "").toLowerCase();
  if (/application\/(x-)?ndjson/.test(wanted)) return "ndjson";
  if (wanted.includes("text/csv")) return "csv";
  return "json";
}

/**
 * The block a snapshot is asked at, checked against the contract's summary: from its first indexed block to the
 * block the index is complete to, of a contract with at most HOLDERS_SNAPSHOT_MAX_TRANSFERS transfers (each page
 * reads them all). Sets `X-Indexed-Block` and `X-Snapshot-Block`.
 */
export async function snapshotOf(
  app: FastifyInstance,
  reply: FastifyReply,
  query: { network: string; contract: string; block: string },
): Promise<{ block: number; summary: ContractSummary }> {
  const { network, contract } = query;
  if (!/^\d{1,15}$/.test(query.block)) throw badRequest("invalid_block_number", "block must be a decimal block number");
  const block = Number(query.block);
  const { indexed, summaries } = await fromIndex({
    app,
    reply,
    network,
    // The contract's summary says whether its index is complete: X-Index-Complete as on the other pages about one contract.
    read: async (db) => {
      const found = await contractSummaries(db, network, [contract]);
      return found && { ...found, incomplete: found.summaries.get(contract)?.incomplete };
    },
  });
  const summary = summaries.get(contract);
  if (!summary) throw notFound(`The index of ${network} holds no transfer of ${contract}`);
  if (block < summary.firstBlock || block > indexed)
    throw badRequest(
      "block_out_of_range",
      `block ${block} is outside what the index holds of ${contract}: from its first indexed block ${summary.firstBlock} to ${indexed}, the block the index is complete to`,
    );
  const max = app.config.snapshots.maxTransfers;
  if (summary.transfers > max)
    throw badRequest(
      "snapshot_too_large",
      `${contract} has ${summary.transfers} indexed transfers, more than HOLDERS_SNAPSHOT_MAX_TRANSFERS (${max}): its holders at a block are not computed`,
    );
  reply.header("x-indexed-block", String(indexed)).header("x-snapshot-block", String(block));
  return { block, summary };
}

/**
 * Holders at a block: a page (`Link` to the next as today's holders) or, as NDJSON or CSV, every holder streamed, a
 * statement per thousand. Read from the primary, which has every block a replica may have said it holds.
 */
export async function sendSnapshot(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  query: {
    network: string;
    contract: string;
    block: number;
    tokenId?: string;
    after?: string;
    limit: number;
    format: SnapshotFormat;
    /** Left out (`?spam=exclude` of a flagged collection): no holders. */
    excluded: boolean;
  },
): Promise<FastifyReply> {
  const checksum = checksummer();
  const { format, limit, excluded, ...at } = query;
  const read = (after: string | undefined, limit: number) =>
    excluded ? Promise.resolve({ items: [], more: false }) : holdersAt(app.db, { ...at, after, limit });
  if (format === "json") {
    const { items, more } = await read(at.after, limit);
    if (more) {
      const url = new URL(request.url, "http://service");
      url.searchParams.set("limit", String(limit));
      url.searchParams.set("cursor", encodeCursor([items[items.length - 1].owner]));
      reply.header("link", `<${url.pathname}${url.search}>; rel="next"`);
    }
    return reply
      .type("application/json; charset=utf-8")
      .send(`[${items.map((r) => `{"owner":"${checksum(r.owner)}","count":${r.count}}`).join(",")}]`);
  }
  const line =
    format === "ndjson"
      ? (r: { owner: string; count: string }) => `{"owner":"${checksum(r.owner)}","count":${r.count}}\n`
      : (r: { owner: string; count: string }) => `${checksum(r.owner)},${r.count}\n`;
  async function* lines() {
    if (format === "csv") yield "owner,count\n";
    let after = at.after;
    for (;;) {
      const { items, more }: { items: Array<{ owner: string; count: string }>; more: boolean } = await read(after, EXPORT_PAGE);
      yield items.map(line).join("");
      if (!more) return;
      after = items[items.length - 1].owner;
    }
  }
  return reply.type(MEDIA_TYPES[format]).send(Readable.from(lines()));
}

/** How many owners held tokens of the contract at the end of the block. */
export function snapshotCount(app: FastifyInstance, query: { network: string; contract: string; block: number }): Promise<number> {
  return holderCountAt(app.db, query);
}
