import { postgresServerBinaries } from "../../support/postgres-server";

// The server lives in support/, shared with the soak (bench/soak/), which restarts its own PostgreSQL.
export * from "../../support/postgres-server";

/**
 * The folder of PostgreSQL's server programs, for a drill that starts servers of its own; where they are not
 * installed (the client alone is not enough), the hook's suite is skipped with a line that says what to install.
 */
export function postgresServerBinariesOrSkip(hook: Mocha.Context): string {
  const binaries = postgresServerBinaries();
  if (!binaries) {
    console.log(
      "      skipped: PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup) are not installed (apt-get install postgresql)",
    );
    hook.skip();
  }
  return binaries;
}

/**
 * The server programs, for a drill whose server has a data disk of its own (`dataDiskMb`): mounting its tmpfs needs
 * root, so elsewhere the hook's suite is skipped with a line that says so (as it is without the programs).
 */
export function dataDiskServerBinariesOrSkip(hook: Mocha.Context): string {
  const binaries = postgresServerBinariesOrSkip(hook);
  if (process.getuid?.() !== 0) {
    console.log("      skipped: mounting a small tmpfs for the data directory needs root");
    hook.skip();
  }
  return binaries;
}
