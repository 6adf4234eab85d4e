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
