/**
 * What other features use of the indexer: the read side of the index store (the data routes, the token route and the
 * live event feed read the index through these, never through the store's modules), and the change log's channel.
 */
export {
  CHANGES_PAGE,
  changeLogPositions,
  changesAfter,
  firstChangeTimesAfter,
  contractsPage,
  holderCount,
  holdersPage,
  indexesErc721,
  inventoryPage,
  lastChangeId,
  networkChangesAfter,
  selectedChangesAfter,
  tokenHolding,
  type ChangeRow,
  type ChangeSelection,
  type Holding,
  type IndexPage,
} from "./store/reads";
export { readCursor } from "./store/blocks";
export { HISTORY_KEY_MAX, historyPage, type HistoryOf } from "./store/history";
export { isIncomplete } from "./store/skipped";
export { pruneMarks, staleCachedTokens, STALE_ENTRY } from "./store/marks";
export { CHANGES_CHANNEL, holdChanges } from "./store/changes";
export type { IndexReads } from "./index-reads";
export type { TransferRow } from "./transfers";
