import type { BlockCalls } from "../chain/calls";
import type { HeadCache } from "../chain/head";
import type { Networks } from "../chain/networks";
import type { Database } from "../db/database";
import type { Gateways, TokenMetadataResolver } from "../token-metadata";

/** What describing and classifying collections read: the database, the nodes (per block) and the metadata cache. */
export interface CollectionReaders {
  db: Database;
  networks: Networks;
  heads: HeadCache;
  calls: BlockCalls;
  tokenMetadata: TokenMetadataResolver;
  gateways: Gateways;
}
