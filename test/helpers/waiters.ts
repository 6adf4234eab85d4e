/**
 * Runs `check` now and each time something calls the functions in `waiters` (new data, a close), until it answers
 * true (it settled what it waits for), or for up to `timeoutMs`, then `onTimeout`.
 */
export function untilSettled(waiters: Set<() => void>, check: () => boolean, timeoutMs: number, onTimeout: () => void): void {
  const run = () => {
    if (check()) finish();
  };
  const timer = setTimeout(() => {
    finish();
    onTimeout();
  }, timeoutMs);
  const finish = () => {
    clearTimeout(timer);
    waiters.delete(run);
  };
  waiters.add(run);
  run();
}

/**
 * Asks `check` every 50 ms until it answers true, or fails after `timeoutMs` naming `what`: for state a background
 * task reaches (a classification, a sweep) that announces nothing a test could listen to.
 */
export async function pollUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
