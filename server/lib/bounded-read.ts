/**
 * The chunks of `body` joined, read up to `maxBytes`: past it, reading stops (the stream is let go, as leaving a
 * `for await` does) and the error `tooLarge()` makes is thrown, so that no answer holds more memory than that,
 * whatever its headers said. The caller gives decompressed chunks when the bound is on what the body becomes.
 */
export async function readBounded(body: AsyncIterable<Uint8Array>, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
