export { createDataClient, DataClient, type DataClientOptions, type ListOptions, type MetadataSubject, type SpamOption } from "./data.ts";
export type { Eip1193Provider } from "./eip1193.ts";
export {
  encodeMetadata,
  signedMetadataText,
  signMetadata,
  verifySignedMetadata,
  type MessageSigner,
  type MessageVerifier,
  type MetadataTarget,
  type SignedMetadataBody,
  type SignedMetadataRecord,
} from "./metadata.ts";
export { conversionTransaction, type TransactionRequest } from "./converter.ts";
export { ApiError } from "./errors.ts";
export type { LiveEvent, MetadataChange, SubscribeOptions } from "./events.ts";
export type { CallOptions, ClientOptions, RetryOptions } from "./http.ts";
export { parseJson } from "./json.ts";
export type { List, Page } from "./pages.ts";
export type {
  Address,
  ClientInfo,
  Collection,
  Converter,
  ConverterPairs,
  HolderCount,
  Holder,
  InventoryItem,
  InventoryItemWithMetadata,
  Token,
  Tokens,
  Transfer,
  Uint,
  UintInput,
} from "./types.ts";
export type { paths } from "./generated/openapi.ts";
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookDelivery } from "./webhooks.ts";
