import { getAddress, isAddress } from "ethers";
import { displayText } from "../lib/display-text";
import { browserUrl, type Gateways, type Omitted, type Resolved } from "../token-metadata";
import type { CollectionMetadata } from "./schemas";

/** Longest description served, in code points; at most this many collaborators. */
export const MAX_DESCRIPTION = 2_000;
export const MAX_COLLABORATORS = 50;

/**
 * The ERC-7572 fields of the document `contractURI()` named (as the metadata cache holds it): texts cleaned and cut
 * like names, images as URLs a browser can load (gateways applied), the external link only as an http(s) URL, and
 * collaborators only as addresses (checksummed). A field missing or of another type is undefined (absent on the wire).
 */
export function collectionMetadata(resolved: Resolved | Omitted, gateways: Gateways): CollectionMetadata {
  if ("omitted" in resolved)
    return { contractURI: null, error: "omitted: this answer's metadata would be larger than METADATA_ANSWERS_MAX_BYTES", omitted: true };
  // The fetcher's errors name the URI it read a "tokenURI": here it is the contractURI.
  const error = resolved.metadata === null ? (resolved.error ?? "no metadata").replace(/^tokenURI\b/, "contractURI") : null;
  const out: CollectionMetadata = { contractURI: resolved.tokenUri, error };
  if (resolved.metadata === null) return out;
  const doc = JSON.parse(resolved.metadata) as Record<string, unknown>;
  const text = (key: string, max: number) => (typeof doc[key] === "string" ? (displayText(doc[key], max) ?? undefined) : undefined);
  const url = (key: string) => (typeof doc[key] === "string" ? (browserUrl(doc[key].trim(), gateways) ?? undefined) : undefined);
  out.name = text("name", 200);
  out.description = text("description", MAX_DESCRIPTION);
  out.image = resolved.image ?? undefined;
  out.bannerImage = url("banner_image");
  out.featuredImage = url("featured_image");
  const link = url("external_link");
  out.externalLink = link && /^https?:/.test(link) ? link : undefined;
  if (Array.isArray(doc.collaborators))
    out.collaborators = doc.collaborators
      .filter((a): a is string => typeof a === "string" && isAddress(a))
      .slice(0, MAX_COLLABORATORS)
      .map((a) => getAddress(a.toLowerCase()));
  return out;
}
