import { randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * `size` random bytes from the operating system's CSPRNG, as a string in `encoding`. They are taken from a pool filled
 * 4 KiB at a time: each `randomBytes` call is a crypto job of its own, and a login asks for two small randoms (the
 * challenge's id and its message's random). Each byte of the pool is handed out once.
 */
export function randomString(size: number, encoding: "hex" | "base64url"): string {
  if (used + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(Math.max(POOL_BYTES, size)));
    used = 0;
  }
  const text = pool.toString(encoding, used, used + size);
  // Handed out: nothing later can read these bytes back from the pool.
  pool.fill(0, used, used + size);
  used += size;
  return text;
}
