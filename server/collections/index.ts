/**
 * What other features use of collections: the describer the app carries (`app.collections`, whose `describe` the
 * contracts-of-an-owner route calls for its details) and the schema of a collection on the wire.
 */
export type { Collection as CollectionAnswer, Collections } from "./describe";
export { Collection } from "./schemas";
