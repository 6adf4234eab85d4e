// The fault proxy lives in support/, shared with the soak (bench/soak/), which runs it in front of its node.
export * from "../../support/fault-proxy";
