/**
 * What other features use of collections: the describer the app carries (`app.collections`, whose
 * `describeOwnerPage` gives the contracts-of-an-owner route its page with details, read in one statement, and whose
 * `isSpam` and `flagged` filter `?spam=exclude`), the schema of a collection on the wire and the schema of the `spam`
 * query.
 */
export type { Collection as CollectionAnswer, Collections } from "./describe";
export { Collection, SpamQuery } from "./schemas";
