import type { IncomingMessage } from "node:http";
import zlib from "node:zlib";

/**
 * The chunks of `body` joined, read up to `maxBytes`: past it, reading stops (the stream is let go, as leaving a
 * `for await` does) and the error `tooLarge()` makes is thrown, so that no answer holds more memory than that,
 * whatever its headers said. The caller gives decompressed chunks when the bound is on what the body becomes.
 */
async function readBounded(body: AsyncIterable<Uint8Array>, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The accept-encoding of a request whose answer `readDecoded` reads: every content-encoding it decompresses. */
export const ACCEPTED_ENCODINGS = "gzip, deflate, br";

/** What is wrong with an HTTP body `readDecoded` refuses. */
export interface BodyRefusals {
  /** The body is, or inflates to, more than the bound. */
  tooLarge: () => Error;
  /** Its content-encoding is none that zlib reads (the value as sent, shortened). */
  unsupported: (encoding: string) => Error;
}

/**
 * The body of an HTTP response, decompressed as its content-encoding says (gzip, deflate, br) and read up to
 * `maxBytes` of what it becomes: a small compressed body cannot expand past the bound, and a declared length past it
 * is refused before a byte is read. The response is destroyed once read or refused. A body that does not decompress
 * fails with zlib's error (its `code` is `Z_DATA_ERROR` or similar).
 */
export async function readDecoded(response: IncomingMessage, maxBytes: number, refusals: BodyRefusals): Promise<Buffer> {
  const declared = Number(response.headers["content-length"]);
  const encoding = String(response.headers["content-encoding"] ?? "identity").toLowerCase();
  if (encoding === "identity" && declared > maxBytes) {
    response.destroy();
    throw refusals.tooLarge();
  }
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder && encoding !== "identity") {
    response.destroy();
    throw refusals.unsupported(encoding.slice(0, 30));
  }
  const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder) : response;
  if (decoder) response.once("error", (error) => decoder.destroy(error));
  try {
    return await readBounded(stream as AsyncIterable<Buffer>, maxBytes, refusals.tooLarge);
  } finally {
    response.destroy();
    decoder?.destroy();
  }
}
