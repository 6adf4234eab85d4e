import type { Config } from "../config";
import { DEMO_LOGIN_COMMAND } from "../http/no-wallet";

/**
 * What runs here and where each part starts, as the front page shows it and as `GET /` answers a JSON client. Only
 * what the service publishes anyway (its issuer, its routes, the names of its networks, the converters it offers):
 * never an RPC URL (they carry provider keys), a database or a client.
 */
export interface ServiceIndex {
  service: string;
  issuer: string;
  /** Paths on this service. */
  links: { docs: string; openapi: string; discovery: string; health: string; ready: string; convert?: string };
  networks: string[];
  converters: Array<{ network: string; address: string }>;
  /** Only on the local demo of `npm start`. */
  localDemo?: { login: string };
}

export function serviceIndex(config: Pick<Config, "issuer" | "converters" | "localChain">, networks: string[]): ServiceIndex {
  return {
    service: "Wallet login, NFT data and converter",
    issuer: config.issuer,
    links: {
      docs: "/docs",
      openapi: "/openapi.json",
      discovery: "/.well-known/openid-configuration",
      health: "/health",
      ready: "/ready",
      ...(config.converters.length > 0 ? { convert: "/convert" } : {}),
    },
    networks,
    converters: config.converters.map(({ network, address }) => ({ network, address })),
    ...(config.localChain ? { localDemo: { login: DEMO_LOGIN_COMMAND } } : {}),
  };
}
