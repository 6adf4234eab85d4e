import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/** The prefix Standard Webhooks gives a signing secret; the rest is the base64 of its bytes. */
const PREFIX = "whsec_";
/** 24 random bytes: Standard Webhooks' secrets are 24 to 64 bytes. */
const SECRET_BYTES = 24;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A new signing secret, `whsec_<base64>`, made by the service (never chosen by a subscriber). */
export function newSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/**
 * `secret` encrypted with AES-256-GCM under `keys[0]`, bound to the subscription (`id` is its additional data, so a
 * ciphertext copied onto another row does not decrypt): the 12-byte IV, the 16-byte tag, then the ciphertext.
 */
export function sealSecret(secret: string, id: string, keys: readonly Buffer[]): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keys[0], iv);
  cipher.setAAD(Buffer.from(id));
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

/** The secret `sealSecret` sealed, under whichever of `keys` sealed it; throws when none does (a key was dropped). */
export function openSecret(sealed: Buffer, id: string, keys: readonly Buffer[]): string {
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const body = sealed.subarray(IV_BYTES + TAG_BYTES);
  for (const key of keys) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAAD(Buffer.from(id));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    } catch {
      continue;
    }
  }
  throw new Error(`the secret of webhook subscription ${id} opens with none of WEBHOOKS_SECRET_KEYS`);
}

/**
 * The Standard Webhooks signature of one delivery: `v1,` and the base64 HMAC-SHA256, keyed with the secret's bytes,
 * of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}
