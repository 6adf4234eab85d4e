/**
 * How many signals Node keeps recorded on `signal` as made from it by `AbortSignal.any`. Node forgets them only when
 * `signal` itself goes away: on a signal that lives as long as the service (its shutdown), each one is memory held
 * for good. Read from Node's own record (its `kDependantSignals` set), which nothing public exposes.
 */
export function signalsMadeFrom(signal: AbortSignal): number {
  const record = Object.getOwnPropertySymbols(signal).find((symbol) => symbol.description === "kDependantSignals");
  return record ? ((signal as unknown as Record<symbol, Set<unknown>>)[record]?.size ?? 0) : 0;
}
