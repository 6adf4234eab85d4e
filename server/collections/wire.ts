import type { Collection } from "./describe";

/**
 * A collection's JSON, written directly as the inventory's items are (the details page's hot path): its supplies are
 * bigints, which JSON.stringify cannot write, and a replacer called on every value of every collection cost more than
 * the rest of the page's own work. The same text as `toJson` (server/http/wire.ts) gives, keys in the same order.
 */
export function collectionJson(c: Collection): string {
  // Every field named: one added to Collection does not compile until it is written here.
  const { contract, standard, name, symbol, totalSupply, indexedSupply, holders, transfers, ...rest } = c;
  const { firstIndexedBlock, latestIndexedBlock, indexComplete, deployment, metadata, spam, chainBlock, ...none } = rest;
  const unwritten: Record<string, never> = none;
  void unwritten;
  const text = JSON.stringify;
  return (
    `{"contract":"${contract}","standard":"${standard}"` +
    (name === undefined ? "" : `,"name":${text(name)}`) +
    (symbol === undefined ? "" : `,"symbol":${text(symbol)}`) +
    (totalSupply === undefined ? "" : `,"totalSupply":${totalSupply}`) +
    `,"indexedSupply":${indexedSupply},"holders":${holders},"transfers":${transfers},"firstIndexedBlock":${firstIndexedBlock}` +
    `,"latestIndexedBlock":${latestIndexedBlock},"indexComplete":${indexComplete},"deployment":${text(deployment)}` +
    `,"metadata":${text(metadata)},"spam":${text(spam)},"chainBlock":${chainBlock}}`
  );
}
