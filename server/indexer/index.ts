/**
 * What other features use of the indexer: the read side of the index store (the data routes, the token route and the
 * live event feed read the index through these, never through the store's modules), and the change log's channel.
 */
export {
  CHANGES_PAGE,
  changeLogHeads,
  changeLogPositions,
  changeRollbacks,
  changesAfter,
  firstChangeTimesAfter,
  contractsPage,
  holderCount,
  holdersPage,
  indexesErc721,
  inventoryPage,
  pageOf,
  lastChangeId,
  networkChangesAfter,
  selectedChangesAfter,
  tokenHolding,
  type ChangeRollback,
  type ChangeRow,
  type ChangeSelection,
  type Holding,
  type IndexPage,
} from "./store/reads";
export { readCursor, REORG_WINDOW } from "./store/blocks";
export {
  collectionsParameter,
  FULL_RIGHTS,
  holdingsOfRows,
  walletHoldings,
  type CollectionHolding,
  type HoldingRow,
  type WalletHoldings,
  type CollectionQuery,
  type DelegationQuery,
  type OwnerHolding,
  type VaultHolding,
} from "./store/wallet-holdings";
export { DELEGATE_REGISTRY, type DelegationKind } from "./delegations";
export { HISTORY_KEY_MAX, historyPage, type HistoryItem, type HistoryOf } from "./store/history";
export { pruneMarks, staleCachedTokens } from "./store/marks";
export { CHANGES_CHANNEL, holdChanges } from "./store/changes";
export type { IndexReads } from "./index-reads";
export { COLLECTION_TOKEN_ID } from "./transfers";
export type { TransferRow } from "./transfers";
export { contractSummaries, summaryOfRow, type ContractSummary, type SummaryRow } from "./store/summaries";
export { holderCountAt, holdersAt } from "./store/snapshots";
export { tokenIdsAfter } from "./store/tokens";
export { contractsToClassify, recordSpamVerdicts, sampleMints, spamVerdicts, type SpamVerdict } from "./store/spam";
