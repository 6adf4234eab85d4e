export { MemoryRateCounts, SharedRateCounts, SWEEP_ROWS, type RateCounts, type RateCount } from "./counts";
