/**
 * What other features use of the token metadata service: the marker of metadata an answer left out (the inventory
 * route's items carry it), the resolver the app carries (`app.tokenMetadata`, whose `image` reads one token's image),
 * a cache entry as a caller's own statement reads it (`collectionsCached` takes collections' documents so read) and
 * the rule that turns a URI into a URL a browser can load (gateways applied).
 */
export { MetadataOmitted } from "./token";
export { browserUrl, type Gateways } from "./uri";
export type { Omitted, Resolved, Standard, TokenMetadataResolver } from "./resolver";
export type { CachedEntry } from "./store";
