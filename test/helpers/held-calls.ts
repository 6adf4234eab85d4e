/**
 * A function whose calls are counted, each held in flight until `release()` answers the newest with its call's number:
 * for tests of what happens while a call is running (a cache's concurrent loads, a runner's wakes).
 */
export function heldCalls() {
  let calls = 0;
  let release: () => void = () => {};
  const call = () => {
    calls++;
    const answer = calls;
    return new Promise<number>((resolve) => (release = () => resolve(answer)));
  };
  return { call, calls: () => calls, release: () => release() };
}
