import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError, loadConfig } from "../config";
import { openMigratedDatabase, type Database } from "../db/database";
import { DatabaseInUse } from "../db/errors";

/**
 * What a command-line tool reads and writes: the process's environment and streams when run as `npm run <tool>`,
 * or a caller's (the tests run the tools in their own process, which is much faster than one process per case).
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
}

/** A tool's `main`: runs one command line and answers its exit code (0 done, 1 failed, 2 command line refused). */
export type CliMain = (argv: string[], io: CliIo) => Promise<number>;

/** A command-line tool of the service (`npm run client`, `login-keys`, `sign-metadata`). */
export interface CommandLine {
  /** Refuses the command line: `<name>: <message>`, a blank line and the usage on stderr, exit code 2. */
  fail(message: string): never;
  /**
   * The tool's `main`: parses the arguments (`config` as node:util's parseArgs takes it, or made from them; `--help`
   * added) and runs `body` with them; `--help` prints the usage instead. Arguments parseArgs refuses are refused with
   * `fail`; a configuration error or an embedded database in use is printed as its one line, anything else `body`
   * throws whole, and either answers exit code 1. `body` answers an exit code, or nothing for 0.
   */
  main<T extends ParseArgsConfig>(
    config: T | ((argv: string[]) => T),
    body: (parsed: ReturnType<typeof parseArgs<T>>, io: CliIo) => Promise<number | void>,
  ): CliMain;
}

/** What `fail` throws: caught by `main`, which prints it and answers exit code 2. */
class Refusal extends Error {}

export function commandLine(name: string, usage: string): CommandLine {
  const fail = (message: string): never => {
    throw new Refusal(message);
  };
  return {
    fail,
    main: (config, body) => async (argv, io) => {
      try {
        const given = typeof config === "function" ? config(argv) : config;
        let parsed;
        try {
          parsed = parseArgs({ args: argv, ...given, options: { ...given.options, help: { type: "boolean" } } });
        } catch (error) {
          fail((error as Error).message);
        }
        if ((parsed!.values as { help?: boolean }).help) {
          io.out(usage);
          return 0;
        }
        return (await body(parsed as ReturnType<typeof parseArgs<typeof given>>, io)) ?? 0;
      } catch (error) {
        if (error instanceof Refusal) {
          io.err(`${name}: ${error.message}\n\n${usage}`);
          return 2;
        }
        if (error instanceof ConfigError) {
          io.err(error.line);
          return 1;
        }
        if (error instanceof DatabaseInUse) {
          io.err(`${name}: ${error.message}`);
          return 1;
        }
        io.err(String((error as Error)?.stack ?? error));
        return 1;
      }
    },
  };
}

/** Runs a tool's `main` as the process (`npm run <tool>`): its arguments, environment and streams, its exit code. */
export function runAsProcess(main: CliMain): void {
  main(process.argv.slice(2), {
    env: process.env,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }).then((code) => {
    process.exitCode = code;
  });
}

/**
 * Runs `use` on the service's database as `env` configures it (DATABASE_URL, or PGlite under DATA_DIR), brought up
 * to date, then closes it.
 */
export async function withDatabase<T>(env: NodeJS.ProcessEnv, use: (db: Database) => Promise<T>): Promise<T> {
  const { db } = await openMigratedDatabase(loadConfig(env).database);
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}
