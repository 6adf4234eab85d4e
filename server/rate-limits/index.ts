export {
  MemoryRateCounts,
  SharedRateCounts,
  SWEEP_ROWS,
  tooManyRequests,
  type RateCounts,
  type RateCount,
  type StatementCount,
} from "./counts";
