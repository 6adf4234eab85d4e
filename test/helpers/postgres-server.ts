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
