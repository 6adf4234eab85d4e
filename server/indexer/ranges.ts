import { ANSWER_TOO_LARGE, errorCodeOf, failureWords, rateLimitOf } from "../chain/errors";

/**
 * Whether an eth_getLogs failure means "ask for a smaller range": providers refuse ranges that span too many blocks
 * or return too many logs, each in its own words (Alchemy, Infura, QuickNode, geth, Erigon…), or time out on them;
 * and an answer larger than we read (RPC_MAX_ANSWER_BYTES).
 */
export function isRangeTooLarge(error: unknown): boolean {
  // A rate limit, whatever its code and words ("limit exceeded"), is the provider's pause, not the range's size.
  if (rateLimitOf(error) !== undefined) return false;
  const { rpcCode, responseStatus, text } = failureWords(error);
  if (rpcCode === -32005) return true; // "query returned more than 10000 results" (Infura and others)
  if (/^413\b/.test(responseStatus)) return true;
  const code = errorCodeOf(error);
  if (code === "TIMEOUT" || code === ANSWER_TOO_LARGE) return true;
  return /block range|range (is )?too (large|big|wide)|too many (blocks|results|logs)|more than \d+ (results|logs)|exceed|limit|response size|query timeout|max(imum)? range/i.test(
    text,
  );
}

/** Rows the range sizer aims a range's logs at: it halves past twice as many, doubles under half as many. */
const TARGET_ROWS = 10_000;

/**
 * Most rows the logs of a range of several blocks may write (transfers, ids of ConsecutiveTransfer ranges and of
 * ERC-1155 batches): past it, the range is asked again in fewer blocks before anything is written. One block is
 * written whole, its size bounded by its gas and by RPC_MAX_ANSWER_BYTES.
 */
export const RANGE_MAX_ROWS = 4 * TARGET_ROWS;

/**
 * Adapts the number of blocks asked per eth_getLogs: halves on a "too large" refusal, doubles while answers stay
 * small and quick, so a sync runs near the provider's limit without tripping it.
 */
export class RangeSizer {
  constructor(
    public size: number,
    private readonly max: number,
    private readonly targetLogs = TARGET_ROWS,
  ) {}

  shrink(): void {
    this.size = Math.max(1, Math.floor(this.size / 2));
  }

  /** After a successful range of `blocks` blocks that returned `logs` logs in `ms` milliseconds. */
  succeeded(blocks: number, logs: number, ms: number): void {
    if (blocks < this.size) return; // a short range (at the head) says nothing about the limit
    if (logs < this.targetLogs / 2 && ms < 2_000) this.size = Math.min(this.max, this.size * 2);
    else if (logs > this.targetLogs * 2) this.size = Math.max(1, Math.floor(this.size / 2));
  }
}
