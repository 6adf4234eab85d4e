/**
 * What other features may use of token metadata: the resolver the app carries (`app.tokenMetadata`, whose `image`
 * reads one token's image) and the rule that turns a URI into a URL a browser can load (gateways applied).
 */
export { browserUrl, type Gateways } from "./uri";
export type { Standard, TokenMetadataResolver } from "./resolver";
