// The proxy lives in support/, shared with the benches (which count the indexer's calls through it).
export * from "../../support/rpc-proxy";
