import type { IncomingMessage } from "node:http";
import zlib from "node:zlib";

/**
 * The chunks of `body` joined, read up to `maxBytes`: past it, reading stops (the caller destroys the stream) and the
 * error `tooLarge()` makes is thrown, so that no answer holds more memory than that, whatever its headers said. The
 * caller gives decompressed chunks when the bound is on what the body becomes. Read as 'data' events, each chunk as
 * it arrived: an async iterator awaited a promise per read and joined the chunks buffered between reads into new
 * buffers, a copy of a large answer before the copy that joins it.
 */
export function readBounded(body: NodeJS.ReadableStream, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: Error | undefined) => {
      body.off("data", onData).off("end", onEnd).off("error", settle).off("close", onClose);
      // An error after this (the stream destroyed as the caller lets it go) has nobody left to tell.
      body.on("error", () => {});
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) return settle(tooLarge());
      chunks.push(chunk);
    };
    const onEnd = () => settle(undefined);
    // Closed before its end with no error of its own (destroyed by the deadline's abort, or by the other side).
    const onClose = () => settle(Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" }));
    body.on("data", onData).once("end", onEnd).once("error", settle).once("close", onClose);
  });
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
  let decoder: ReturnType<typeof bodyDecoder>;
  try {
    decoder = bodyDecoder(response.headers, maxBytes, refusals);
  } catch (refusal) {
    response.destroy();
    throw refusal;
  }
  const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder) : response;
  if (decoder) response.once("error", (error) => decoder.destroy(error));
  try {
    return await readBounded(stream, maxBytes, refusals.tooLarge);
  } finally {
    response.destroy();
    decoder?.destroy();
  }
}

/**
 * The stream that decompresses a body with the answer's `headers` (its content-encoding: gzip, deflate, br), or null
 * for a body sent as it is. Throws the refusal of a body that is not to be read: one whose declared length is past
 * `maxBytes` (`tooLarge`, before a byte of it is read), one of an encoding it does not read (`unsupported`).
 */
export function bodyDecoder(
  headers: Record<string, string | string[] | undefined>,
  maxBytes: number,
  refusals: BodyRefusals,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  const encoding = String(headers["content-encoding"] ?? "identity").toLowerCase();
  if (encoding === "identity") {
    if (Number(headers["content-length"]) > maxBytes) throw refusals.tooLarge();
    return null;
  }
  if (encoding === "gzip" || encoding === "x-gzip") return zlib.createGunzip();
  if (encoding === "deflate") return zlib.createInflate();
  if (encoding === "br") return zlib.createBrotliDecompress();
  throw refusals.unsupported(encoding.slice(0, 30));
}
