import { parseJson } from "./json.ts";

/** One delivery of the service's webhooks (docs/reference/webhooks.md), integers as decimal strings like every answer. */
export interface WebhookDelivery {
  /** The change-log id: the same on every attempt and as the event stream's id; drop what was seen. */
  id: string;
  type: "transfer" | "removed" | "reset" | "metadata";
  network: string;
  /** The subscription's id (`ws_…`). */
  subscription: string;
  /** What the event stream's event of the same type carries. */
  data: Record<string, unknown>;
}

export interface VerifyWebhookOptions {
  /** The subscription's signing secret, `whsec_` and base64. */
  secret: string;
  /** The body exactly as received (its bytes, or their UTF-8 text): any change, even of whitespace, fails the signature. */
  body: string | Uint8Array;
  /** The request's headers: a `Headers`, or an object such as Node's `request.headers`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** How far the `webhook-timestamp` may be from now, in seconds (300, as Standard Webhooks' libraries). */
  toleranceSeconds?: number;
  /** The time now in milliseconds (`Date.now`). */
  now?: () => number;
}

/** Why a delivery was refused: `missing_headers`, `stale_timestamp`, `invalid_signature`. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(
    readonly code: "missing_headers" | "stale_timestamp" | "invalid_signature",
    message: string,
  ) {
    super(message);
  }
}

const encoder = new TextEncoder();

function header(headers: VerifyWebhookOptions["headers"], name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * Checks a Standard Webhooks delivery of the service (its `webhook-signature`, an HMAC-SHA256 of
 * `webhook-id.webhook-timestamp.body` under the secret, and its timestamp) with Web Crypto, and gives its JSON;
 * throws {@link WebhookVerificationError} when it is forged, altered or stale.
 * `const event = await verifyWebhook({ secret, body, headers })`.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookDelivery> {
  const [id, timestamp, signatures] = ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => header(options.headers, name));
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError("missing_headers", "webhook-id, webhook-timestamp or webhook-signature is missing");
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError("stale_timestamp", `webhook-timestamp ${timestamp} is too far from now`);
  const secret = base64Bytes(options.secret.replace(/^whsec_/, ""));
  if (!secret) throw new TypeError("the webhook secret is not whsec_ and base64");
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const body = typeof options.body === "string" ? encoder.encode(options.body) : options.body;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  for (const entry of signatures.split(" ")) {
    const [version, signature] = entry.split(",");
    const bytes = version === "v1" && signature ? base64Bytes(signature) : undefined;
    // subtle.verify compares in constant time.
    if (bytes && (await crypto.subtle.verify("HMAC", key, bytes, signed)))
      return parseJson(new TextDecoder().decode(body)) as WebhookDelivery;
  }
  throw new WebhookVerificationError("invalid_signature", "no webhook-signature matches the secret");
}
