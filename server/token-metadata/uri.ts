/** Where `ipfs://` and `ar://` URIs are read: base URLs ending in a slash. */
export interface Gateways {
  ipfs: string;
  arweave: string;
}

/** Why a token's metadata could not be resolved: its message is the answer's `metadataError`. */
export class MetadataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MetadataError";
  }
}

/** What a tokenURI designates: bytes held in the URI itself, or a URL to fetch. */
export type Location =
  | { kind: "data"; mediaType: string; body: Buffer }
  /** `gateway`: the URL was made from a configured gateway (whose host the operator chose, e.g. a local IPFS node). */
  | { kind: "http"; url: URL; gateway: boolean };

/** ERC-1155: every `{id}` becomes the id as 64 lower-case hex digits, no 0x. */
export function substituteId(uri: string, id: bigint): string {
  return uri.replaceAll("{id}", id.toString(16).padStart(64, "0"));
}

/** The length `substituteId` would give `uri`, without making it. */
export function substitutedLength(uri: string): number {
  let count = 0;
  for (let at = uri.indexOf("{id}"); at >= 0; at = uri.indexOf("{id}", at + 4)) count++;
  return uri.length + count * 60;
}

/** `ipfs://<cid>/<path>` (also the older `ipfs://ipfs/<cid>`) and `ar://<id>` through the gateways; else undefined. */
function throughGateway(uri: string, gateways: Gateways): string | undefined {
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?(.+)$/is.exec(uri);
  if (ipfs) return underGateway(gateways.ipfs, ipfs[1]);
  const ar = /^ar:\/\/(.+)$/is.exec(uri);
  if (ar) return underGateway(gateways.arweave, ar[1]);
  return undefined;
}

/**
 * `gateway` followed by `path` (and its query), made so that it cannot leave the gateway's path: each segment is
 * percent-decoded, refused when it is "." or ".." or holds a slash or backslash (a URL parser would step up or
 * across with them), and encoded again; the fragment is dropped.
 */
function underGateway(gateway: string, rest: string): string {
  const end = rest.search(/[?#]/);
  const path = end < 0 ? rest : rest.slice(0, end);
  const query = end >= 0 && rest[end] === "?" ? rest.slice(end).replace(/#.*$/s, "") : "";
  const segments = path.split("/").map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new MetadataError("gateway URI path is not valid percent-encoded UTF-8");
    }
    if (decoded === "." || decoded === ".." || /[/\\]/.test(decoded))
      throw new MetadataError('gateway URI path has a "." or ".." segment, a backslash or an encoded slash');
    return encodeURIComponent(decoded);
  });
  return `${gateway}${segments.join("/")}${query}`;
}

/** Where the document of `uri` is: `data:` (decoded here, at most `maxBytes`), or an http(s) URL. */
export function locate(uri: string, gateways: Gateways, maxBytes: number): Location {
  const trimmed = uri.trim();
  if (/^data:/i.test(trimmed)) return { kind: "data", ...decodeDataUri(trimmed, maxBytes) };
  const viaGateway = throughGateway(trimmed, gateways);
  const url = parseHttpUrl(viaGateway ?? trimmed);
  if (!url) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
    if (viaGateway !== undefined || scheme === "http" || scheme === "https") throw new MetadataError("tokenURI is not a valid http(s) URL");
    throw new MetadataError(scheme ? `unsupported URI scheme "${scheme.slice(0, 20)}"` : "tokenURI is not a URI");
  }
  return { kind: "http", url, gateway: viaGateway !== undefined };
}

function parseHttpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * RFC 2397 `data:[<mediatype>][;base64],<data>`. Without `;base64` the data is percent-encoded; contracts often
 * write raw JSON there (`data:application/json;utf8,{"name": "100%"}`), which is taken as it is when it does not
 * percent-decode.
 */
export function decodeDataUri(uri: string, maxBytes: number): { mediaType: string; body: Buffer } {
  const comma = uri.indexOf(",");
  if (comma < 0) throw new MetadataError("data: URI without a comma");
  const params = uri
    .slice(5, comma)
    .split(";")
    .map((p) => p.trim());
  const base64 = params.length > 1 && params[params.length - 1].toLowerCase() === "base64";
  const mediaType = (params[0] || "text/plain").toLowerCase();
  const data = uri.slice(comma + 1);
  if (base64 ? (data.length * 3) / 4 > maxBytes + 3 : data.length > maxBytes * 3) throw tooLarge(maxBytes);
  let body: Buffer;
  if (base64) {
    const compact = data.replace(/\s+/g, "");
    // Standard or URL-safe alphabet, padding optional: what contracts produce.
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw new MetadataError("data: URI has invalid Base64");
    body = Buffer.from(compact.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  } else {
    let text: string;
    try {
      text = decodeURIComponent(data);
    } catch {
      text = data;
    }
    body = Buffer.from(text, "utf8");
  }
  if (body.length > maxBytes) throw tooLarge(maxBytes);
  return { mediaType, body };
}

export const tooLarge = (maxBytes: number) => new MetadataError(`metadata is larger than ${maxBytes} bytes`);

/** Media types a metadata document may come as: JSON, and what gateways and object stores label it. */
export function isJsonMediaType(mediaType: string): boolean {
  const type = mediaType.split(";")[0].trim().toLowerCase();
  return (
    type === "" ||
    type === "application/json" ||
    type.endsWith("+json") ||
    type === "text/json" ||
    type === "text/plain" ||
    type === "application/octet-stream"
  );
}

/** Parses a metadata document: one JSON object. Returns its text as served (digits and key order kept). */
export function parseMetadata(body: Buffer): { text: string; value: Record<string, unknown> } {
  const text = body
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MetadataError("metadata is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new MetadataError("metadata is not a JSON object");
  return { text, value: value as Record<string, unknown> };
}

/**
 * The image of a metadata object as a URL a browser can load: `image` (or `image_url`), with ipfs:// and ar://
 * through the gateways and http(s) and data:image URLs as they are; OpenSea's `image_data` (raw SVG) becomes a
 * data: URL. Null when there is none a browser could load.
 */
export function imageUrl(metadata: Record<string, unknown>, gateways: Gateways): string | null {
  for (const key of ["image", "image_url"]) {
    const value = metadata[key];
    if (typeof value === "string" && value.trim() !== "") return browserUrl(value.trim(), gateways);
  }
  const svg = metadata.image_data;
  if (typeof svg === "string" && /<svg[\s>]/i.test(svg)) return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
  return null;
}

/** A URI as a browser-loadable URL, or null. */
export function browserUrl(uri: string, gateways: Gateways): string | null {
  // Control characters (NUL included) have no place in a URL and cannot be stored as text.
  if (/[\u0000-\u001f\u007f]/.test(uri)) return null;
  if (/^data:image\//i.test(uri)) return uri;
  let viaGateway: string | undefined;
  try {
    viaGateway = throughGateway(uri, gateways);
  } catch {
    return null;
  }
  const url = parseHttpUrl(viaGateway ?? uri);
  return url ? url.href : null;
}
