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

/** Built-in network names and chain ids (docs/configuration.md, "Networks"); the data lives in known-networks.json. */
export const NETWORKS: Readonly<Record<string, NetworkInfo>> = networks;

/** The environment variable holding a network's RPC URL: `matic-mainnet` → `RPC_URL_MATIC_MAINNET`. */
export function rpcEnvName(network: string): string {
  return `RPC_URL_${network.toUpperCase().replace(/-/g, "_")}`;
}

export function networkByChainId(chainId: number): string | undefined {
  return Object.keys(NETWORKS).find((name) => NETWORKS[name].chainId === chainId);
}
