import { parseArgs, type ParseArgsConfig } from "node:util";
import { loadConfigOrExit } from "../config";
import { openMigratedDatabase, type Database } from "../db/database";

/** A command-line tool of the service (`npm run client`, `login-keys`, `sign-metadata`). */
export interface CommandLine {
  /** Refuses the command line: `<name>: <message>`, a blank line and the usage on stderr, exit code 2. */
  fail(message: string): never;
  /**
   * Parses the arguments (`config` as node:util's parseArgs takes it, `--help` added) and runs `main` with them;
   * `--help` prints the usage instead. Arguments parseArgs refuses are refused with `fail`; anything `main` throws
   * is printed and ends the process with exit code 1.
   */
  run<T extends ParseArgsConfig>(config: T, main: (parsed: ReturnType<typeof parseArgs<T>>) => Promise<void>): void;
}

export function commandLine(name: string, usage: string): CommandLine {
  function fail(message: string): never {
    console.error(`${name}: ${message}\n\n${usage}`);
    process.exit(2);
  }
  const start = async <T extends ParseArgsConfig>(config: T, main: (parsed: ReturnType<typeof parseArgs<T>>) => Promise<void>) => {
    let parsed;
    try {
      parsed = parseArgs({ ...config, options: { ...config.options, help: { type: "boolean" } } });
    } catch (error) {
      fail((error as Error).message);
    }
    if ((parsed.values as { help?: boolean }).help) return console.log(usage);
    await main(parsed as ReturnType<typeof parseArgs<T>>);
  };
  return {
    fail,
    run(config, main) {
      start(config, main).catch((error) => {
        console.error(error);
        process.exit(1);
      });
    },
  };
}

/** Runs `use` on the service's database (DATABASE_URL, or PGlite under DATA_DIR), brought up to date, then closes it. */
export async function withDatabase(use: (db: Database) => Promise<void>): Promise<void> {
  const config = loadConfigOrExit();
  const { db } = await openMigratedDatabase(config.database);
  try {
    await use(db);
  } finally {
    await db.close();
  }
}
