/**
 * What other features use of the data service: the wire form of a transfer (the live event stream sends the
 * history's items) and the refusals and headers of an answer read from the index (the token route is one).
 */
export { TRANSFER_EXAMPLE, TransferItem, transferItem } from "./history";
export { fromIndex } from "./paging";
