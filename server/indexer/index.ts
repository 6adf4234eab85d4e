/**
 * What other features use of the indexer: the read side of the index store (the data routes, the token route and the
 * live event feed read the index through these, never through the store's modules), and the change log's channel.
 */
export {
  CHANGES_PAGE,
  HISTORY_KEY_MAX,
  changesAfter,
  contractsPage,
  holderCount,
  holdersPage,
  historyPage,
  indexesErc721,
  inventoryPage,
  lastChangeId,
  networkChangesAfter,
  readCursor,
  tokenHolding,
  type ChangeRow,
  type HistoryOf,
  type Holding,
  type IndexPage,
} from "./store/reads";
export { isIncomplete } from "./store/skipped";
export { pruneMarks, staleCachedTokens, STALE_ENTRY } from "./store/marks";
export { CHANGES_CHANNEL } from "./store/changes";
export type { IndexReads } from "./replica-reads";
export type { TransferRow } from "./transfers";
