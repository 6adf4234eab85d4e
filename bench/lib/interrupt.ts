/**
 * What a bench run started and stops itself when it is interrupted (SIGINT, SIGTERM): services with their databases
 * and data directories, and the other processes it spawns. A signal's default action ends the run at once, without
 * its `finally` blocks nor its `exit` handlers, and they outlived it, holding ports, databases and CPU that the next
 * run then measured beside. The Hardhat nodes stop with the process (local/node.ts).
 */

/** The stops of what is running now, each registered by what started it. */
const running = new Set<() => Promise<void>>();

/** How long an interrupted run waits for its stops before it exits anyway. */
const STOP_LIMIT_MS = 30_000;

/**
 * Registers `stop`, to run if the run is interrupted before the returned function is called (by the stop the caller
 * runs itself, once what it started is stopped).
 */
export function stopIfInterrupted(stop: () => Promise<void>): () => void {
  running.add(stop);
  return () => running.delete(stop);
}

/**
 * Makes SIGINT and SIGTERM stop what is running (stopIfInterrupted), then exit with the shell's code for the signal
 * (130, 143); a second signal exits at once. For the entry points that start services: the runner and the soak.
 */
export function stopOnSignals(log: (message: string) => void): void {
  let stopping = false;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(code);
      stopping = true;
      const stops = [...running];
      log(`${signal}: stopping what the run started (${stops.length}), then exiting; again to exit at once`);
      const limit = new Promise((resolve) => setTimeout(resolve, STOP_LIMIT_MS).unref());
      void Promise.race([Promise.allSettled(stops.map((stop) => stop())), limit]).then(() => process.exit(code));
    });
  }
}
