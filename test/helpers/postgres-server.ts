// The server lives in support/, shared with the soak (bench/soak/), which restarts its own PostgreSQL.
export * from "../../support/postgres-server";
