import { getBytes, keccak256 } from "ethers";

/**
 * Whether a block's `logsBloom` (2048 bits, the Yellow Paper's M3:2048) may hold `value` (an address or a topic):
 * false means the block has no log with it; true may be a false positive.
 */
export function bloomMayContain(bloom: string, value: string): boolean {
  const bits = getBytes(bloom);
  if (bits.length !== 256) return true; // not a bloom we can read: proves nothing
  const hash = getBytes(keccak256(value));
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i] << 8) | hash[i + 1]) & 0x7ff;
    if ((bits[255 - (bit >> 3)] & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

/**
 * Whether a block with `bloom` may have a log matching an `eth_getLogs` filter of one topic0 among `topics` and,
 * when `addresses` is not empty, an emitter among them.
 */
export function bloomMayMatch(bloom: string, topics: string[], addresses: string[]): boolean {
  return (
    topics.some((topic) => bloomMayContain(bloom, topic)) &&
    (addresses.length === 0 || addresses.some((address) => bloomMayContain(bloom, address)))
  );
}
