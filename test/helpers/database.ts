import { usingPostgres } from "../../support/database";

// The fixtures live in support/, shared with bench/; this path stays for the suites that import it.
export * from "../../support/database";

/** The database the suites run on, for the titles of those that run on both: PostgreSQL with DATABASE_URL, else PGlite. */
export const backendName = usingPostgres() ? "PostgreSQL" : "PGlite";
