// The fixtures live in support/, shared with bench/; this path stays for the suites that import it.
export * from "../../support/database";
