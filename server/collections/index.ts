/**
 * What other features use of collections: the describer the app carries (`app.collections`, whose `describePage` the
 * contracts-of-an-owner route calls for its details, on the page `ownerCollectionsPage` read in one statement, and
 * whose `isSpam` and `flagged` filter `?spam=exclude`), the schema of a collection on the wire, its JSON
 * (`collectionJson`) and the schema of the `spam` query.
 */
export type { Collection as CollectionAnswer, Collections } from "./describe";
export { Collection, SpamQuery } from "./schemas";
export { ownerCollectionsPage } from "./owner-page";
export { collectionJson } from "./wire";
