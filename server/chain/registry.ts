import networks from "./known-networks.json";

export interface NetworkInfo {
  chainId: number;
  /** Shut down by its operators; kept because the predecessor's clients send the name. */
  retired?: boolean;
  /** Block explorer base URL: transactions at `<explorer>/tx/<hash>`. */
  explorer?: string;
  /** Symbol of the native currency when it is not ETH (for wallet_addEthereumChain). */
  currency?: string;
  /** A public RPC URL to give a wallet that does not know the chain (never our own, which may carry a key). */
  publicRpcUrl?: string;
}

/** Built-in network names and chain ids (docs/reference/configuration.md, "Networks"); the data lives in known-networks.json. */
export const NETWORKS: Readonly<Record<string, NetworkInfo>> = networks;

/**
 * The variable of a per-network setting: `<NETWORK>` in the family's name becomes the network's name, upper case with
 * dashes as underscores (`RPC_URL_<NETWORK>` of `matic-mainnet`: `RPC_URL_MATIC_MAINNET`).
 */
export function networkVariable(family: string, network: string): string {
  return family.replace("<NETWORK>", network.toUpperCase().replace(/-/g, "_"));
}

/**
 * The family of settings that hold each network's RPC URLs, named here rather than in server/config/settings.ts (which
 * declares it under this name) because the chain's errors name its variables and config imports the chain, not the
 * other way round.
 */
export const RPC_URLS = "RPC_URL_<NETWORK>";

/** The environment variable holding a network's RPC URLs. */
export function rpcEnvName(network: string): string {
  return networkVariable(RPC_URLS, network);
}

export function networkByChainId(chainId: number): string | undefined {
  return Object.keys(NETWORKS).find((name) => NETWORKS[name].chainId === chainId);
}

/** A chain id as a client may write one for a network name: decimal or 0x-hex, at most 20 characters. */
const CHAIN_ID = /^(?:[0-9]{1,20}|0x[0-9a-fA-F]{1,18})$/;

/**
 * The network a client most likely meant by a name the registry does not have, for the refusal to name: the same name
 * in another case (`Localhost`), or a chain id (`31337`, `0x7a69`). Names are not forgiven: a network's name keys its
 * index rows, caches, metrics and the URLs we publish, so one network has one spelling. `served` are tried first.
 */
export function meantNetwork(name: string, served: readonly string[]): string | undefined {
  const names = [...served, ...Object.keys(NETWORKS)].filter((known) => Object.hasOwn(NETWORKS, known));
  const lower = name.toLowerCase();
  const sameName = names.find((known) => known.toLowerCase() === lower);
  if (sameName !== undefined || !CHAIN_ID.test(name)) return sameName;
  const chainId = Number(name);
  return names.find((known) => NETWORKS[known].chainId === chainId);
}
