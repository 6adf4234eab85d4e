/** The longest a suite waits for the service's index to reach a block, unless it says how long its sync may take. */
const TIMEOUT_MS = 60_000;

/**
 * Resolves once the service at `url` has indexed `block`: the `x-indexed-block` of `path` (a data route, e.g.
 * `/inventory/localhost/<owner>`) at or past it.
 */
export async function untilIndexed(url: string, path: string, block: number, timeoutMs = TIMEOUT_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await fetch(`${url}${path}`);
    await answer.body?.cancel();
    if (answer.ok && Number(answer.headers.get("x-indexed-block")) >= block) return;
    if (performance.now() > deadline) throw new Error(`the service's index did not reach block ${block}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
