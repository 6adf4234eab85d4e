import { Wallet } from "ethers";
import type { Answers } from "./answers";
import type { ChainDriver } from "./chain";
import { send } from "./http";

/** Paths of the document that the soak exercises elsewhere (streams, logins) or that need a client's credentials. */
const ELSEWHERE = [/^\/events\//, /^\/webhooks\//, /^\/api\/(authorize|login|token|client)$/, /^\/token$/];

export interface DataRoute {
  /** `GET /token/{network}/{contract}/{id}`, as the OpenAPI document names it. */
  route: string;
  family: string;
  template: string;
  method: "GET" | "POST";
}

/**
 * Every GET route of the service's OpenAPI document (so that a route added later is soaked too) and the token
 * metadata refresh, but those exercised elsewhere; each route's family is its first fixed path segment.
 */
export function dataRoutes(document: { paths: Record<string, Record<string, unknown>> }): DataRoute[] {
  const routes: DataRoute[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    if (ELSEWHERE.some((pattern) => pattern.test(template))) continue;
    const family = template.split("/").find((part) => part && !part.startsWith("{")) ?? "legacy";
    const name = template.startsWith("/{network}") ? "legacy token" : family;
    if ("get" in operations) routes.push({ route: `GET ${template}`, family: name, template, method: "GET" });
    if ("post" in operations && template === "/token/{network}/{contract}/{id}/refresh")
      routes.push({ route: `POST ${template}`, family: "token refresh", template, method: "POST" });
  }
  return routes;
}

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];

/** Query strings a route needs to answer more than a 400. */
const QUERIES: Record<string, string> = { "/converter/{network}/{converter}/pairs": "?aliceIds=1,2,3" };

/**
 * One request of `route`, its path parameters taken from what the soak made: recent tokens, their holders, recent
 * blocks (`head`), and for the signed-metadata reads the posts' contract and ids.
 */
export async function callRoute(options: {
  answers: Answers;
  base: string;
  route: DataRoute;
  chain: ChainDriver;
  head: number;
  posted: { contract: string; ids: number[] };
}): Promise<void> {
  const { chain, route, posted } = options;
  const signed = route.family === "metadata" && posted.ids.length > 0;
  const recent = signed ? posted.ids.slice(-40) : chain.ids.slice(-40);
  const contract = signed ? posted.contract : (chain.nft.target as string);
  const values: Record<string, () => string> = {
    network: () => "localhost",
    contract: () => contract,
    assetContract: () => contract,
    converter: () => contract,
    id: () => String(pick(recent)),
    owner: () => pick(chain.holders),
    account: () => pick(chain.holders),
    operator: () => Wallet.createRandom().address,
    num: () => String(Math.max(0, options.head - Math.floor(Math.random() * 20))),
  };
  const path = route.template.replace(/\{([^}]+)\}/g, (_, name: string) => (values[name] ?? (() => "0"))());
  await send(options.answers, options.base, {
    family: route.family,
    route: route.route,
    path: `${path}${QUERIES[route.template] ?? ""}`,
    init: { method: route.method },
  });
}
