import { checksumAddress } from "../chain/values";
import { Type } from "typebox";
import type { Holding } from "../indexer";
import type { Omitted, Resolved } from "./resolver";
import { omissionMessage } from "../signed-metadata";

/**
 * `"tokenURI":…,"metadata":…,"image":…,"metadataError":…,"metadataUpdatedAt":…`, the metadata object as served (exact
 * digits, key order).
 */
function metadataFields(resolved: Resolved): string {
  return [
    `"tokenURI":${JSON.stringify(resolved.tokenUri)}`,
    `"metadata":${resolved.metadata ?? "null"}`,
    `"image":${JSON.stringify(resolved.image)}`,
    `"metadataError":${JSON.stringify(resolved.metadata === null ? (resolved.error ?? "no metadata") : null)}`,
    `"metadataUpdatedAt":${JSON.stringify(resolved.updatedAt?.toISOString() ?? null)}`,
  ].join(",");
}

/** The fields of a token an answer leaves out: all null, why in `metadataError`, and `metadataOmitted`. */
const omittedFields = (budget: number) =>
  `"tokenURI":null,"metadata":null,"image":null,"metadataError":${JSON.stringify(
    `omitted: this answer's metadata would be larger than METADATA_ANSWERS_MAX_BYTES (${budget} bytes); ask for fewer items`,
  )},"metadataUpdatedAt":null,"metadataOmitted":true`;

/** The schema of the omission marker, for the routes' TypeBox schemas. */
export const MetadataOmitted = Type.Optional(
  Type.Literal(true, {
    description:
      "Present (true) when this item's metadata was left out because the answer's metadata reached METADATA_ANSWERS_MAX_BYTES; " +
      "tokenURI, metadata, image and metadataUpdatedAt are then null and metadataError says so. Ask for fewer items or for the token alone.",
  }),
);

/** The schema of `metadataUpdatedAt`, for the routes' TypeBox schemas. */
export const MetadataUpdatedAt = Type.Union([Type.String(), Type.Null()], {
  description:
    "When the service last read the document (or the error) metadata and metadataError come from (ISO 8601); a failed read that " +
    "kept the document read before does not move it. null when it was never read (pending) or left out",
});

/** The metadata fields of an answer's tokens, in its order, and how many were left out. */
export interface BudgetedFields {
  fields: Map<string, string>;
  omitted: number;
}

/**
 * The metadata fields of each token (by decimal id, in `ids` order) as long as all of them together stay within
 * `budget` bytes; each token after that (or one the lookup already left out) gets the omitted fields instead. The
 * answer's size so has a bound by construction: `budget` plus a small, fixed size per item.
 */
export function fieldsWithin(ids: readonly string[], resolved: Map<string, Resolved | Omitted>, budget: number): BudgetedFields {
  const fields = new Map<string, string>();
  let left = budget;
  let omitted = 0;
  for (const id of ids) {
    const entry = resolved.get(id);
    let text: string | undefined;
    // The characters are a lower bound of the bytes: an entry already too large is not serialized at all.
    if (entry && !("omitted" in entry) && rawLength(entry) <= left) {
      text = metadataFields(entry);
      const bytes = Buffer.byteLength(text);
      if (bytes <= left) left -= bytes;
      else text = undefined;
    }
    if (text === undefined) {
      // Page order: once something is left out, so is everything after it (a next, smaller page picks them up).
      left = 0;
      omitted++;
      text = omittedFields(budget);
    }
    fields.set(id, text);
  }
  return { fields, omitted };
}

const rawLength = (entry: Resolved) =>
  (entry.tokenUri?.length ?? 0) + (entry.metadata?.length ?? 0) + (entry.image?.length ?? 0) + (entry.error?.length ?? 0);

/**
 * `"signed":{…}`, and when the statements were more than an answer carries, how many it left out and how to ask for
 * them (as the metadata budget's omissions say it).
 */
export function signedJson(signed: { json: string; omitted: number }, max: number): string {
  const omitted =
    signed.omitted > 0 ? `,"signedOmitted":${signed.omitted},"signedError":${JSON.stringify(omissionMessage(signed.omitted, max))}` : "";
  return `"signed":${signed.json}${omitted}`;
}

/** The whole token answer as JSON text. */
export function tokenJson({
  contract,
  id,
  holding,
  fields,
  signed,
}: {
  contract: string;
  id: bigint;
  holding: Holding;
  /** The metadata fields (`metadataFields`). */
  fields: string;
  /** The signed fields (`signedJson`). */
  signed: string;
}): string {
  const holders =
    holding.standard === "erc721"
      ? `"owner":${JSON.stringify(checksumAddress(holding.owner))}`
      : `"balances":[${holding.balances.map((b) => `{"owner":${JSON.stringify(checksumAddress(b.owner))},"balance":${b.balance}}`).join(",")}]`;
  return `{"contract":${JSON.stringify(checksumAddress(contract))},"id":${id},"standard":"${holding.standard}",${holders},${fields},${signed}}`;
}
