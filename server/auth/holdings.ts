import type { Queryable } from "../db/database";
import { checksumAddress } from "../chain/values";
import {
  holdingsOfRows,
  walletHoldings,
  type CollectionQuery,
  type DelegationKind,
  type HoldingRow,
  type OwnerHolding,
  type WalletHoldings,
} from "../indexer";
import { fillText } from "../lib/template";
import type { Lang } from "./messages";

/*
 * Holdings as claims, and gates (docs/reference/login.md#holdings-and-gates): a client registers collections (a contract
 * on an indexed network, optionally some of its token ids and a least count) and, optionally, a gate over such
 * conditions combined with all/any. A login of the client reads what the signer holds of them from the index, in one
 * statement, never from a node: the `holdings` claim reports it, and a login that does not meet the gate is refused.
 */

export const HOLDINGS_SCOPE = "holdings";
export const HOLDINGS_CLAIM = "holdings";

/** Bounds of a client's configuration: they bound the statement a login sends and the size of the claim. */
export const HOLDINGS_LIMITS = { collections: 16, tokenIdsPerCollection: 100, gateDepth: 4, idsListed: 20, delegations: 64 } as const;

/** A condition: at least `minCount` of the contract's tokens (of `tokenIds` only, when given) held on `network`. */
export interface Collection {
  network: string;
  /** Lower-case hex. */
  contract: string;
  tokenIds?: string[];
  /** A decimal, at least 1. */
  minCount: string;
}

/** A gate: a condition, or all / any of several. */
export type Gate = Collection | { all: Gate[] } | { any: Gate[] };

/**
 * Whether the holdings of vaults that delegated to the signer in the delegate.xyz v2 registry count: full-rights
 * delegations do, and with `rights` (32 bytes of hex, lower case) delegations of these rights too, as the registry's
 * own checks count them.
 */
export interface DelegationConfig {
  rights: string | null;
}

export interface HoldingsConfig {
  /** Reported in the claim. */
  collections: Collection[];
  /** What a login must meet; its conditions are reported in the claim too. */
  gate: Gate | null;
  /** Delegated holdings count too; null or absent: the signer's own only. */
  delegation?: DelegationConfig | null;
}

/** What a vault that delegated to the signer holds of a collection, as far as its delegations cover it. */
export interface DelegatedHolding {
  /** Checksummed. */
  vault: string;
  /** The widest of the vault's delegations that cover the collection: the whole wallet, the contract, or tokens of it. */
  via: DelegationKind;
  count: string;
  ids: string[];
  ids_complete: boolean;
}

/** One collection of the `holdings` claim. */
export interface HoldingsClaimEntry {
  network: string;
  contract: string;
  token_ids?: string[];
  min_count: string;
  /** Tokens (ERC-721) plus units (ERC-1155) held, of `token_ids` when given: a decimal string (units may pass 2^53). */
  count: string;
  meets: boolean;
  /** The ids held, in id order, at most HOLDINGS_LIMITS.idsListed; `ids_complete` false when more are held. */
  ids: string[];
  ids_complete: boolean;
  /** The block the network's index was complete to when it was read (null: its index has not started). */
  block: number | null;
  /** Whether the index of the contract is complete: started, and no ConsecutiveTransfer range left unexpanded. */
  complete: boolean;
  /** With delegation: `count` plus the vaults' counts, what `meets` compares. */
  total?: string;
  /** With delegation: each vault that delegated to the signer and holds some of the collection. */
  delegated?: DelegatedHolding[];
  /** With delegation: false when the login read as many delegations as it may (there may be more). */
  delegations_complete?: boolean;
}

/** What a login learnt of the signer's holdings, and whether it meets the gate. */
export interface HoldingsCheck {
  claim: HoldingsClaimEntry[];
  meetsGate: boolean;
  /** Each network read, with the block it was read at: what a refusal names. */
  blocks: Array<{ network: string; block: number | null }>;
}

const isGroup = (gate: Gate): gate is { all: Gate[] } | { any: Gate[] } => "all" in gate || "any" in gate;

/**
 * Reads a client's holdings configuration as the CLI and dynamic registration take it (JSON, snake_case:
 * `{"collections": [{"network", "contract", "token_ids"?, "min_count"?}], "gate"?: condition | {"all": […]} | {"any": […]}}`).
 * `indexed`: the networks this service indexes; a collection on another is refused (null: not checked, for a
 * configuration read back from the database, which authorize checks). Throws an Error naming the
 * first problem; null for an empty configuration.
 */
export function parseHoldingsConfig(value: unknown, indexed: readonly string[] | null): HoldingsConfig | null {
  if (value === null || value === undefined) return null;
  const object = (v: unknown, what: string): Record<string, unknown> => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error(`${what} must be a JSON object`);
    return v as Record<string, unknown>;
  };
  const top = object(value, "holdings");
  for (const key of Object.keys(top))
    if (!["collections", "gate", "delegation"].includes(key))
      throw new Error(`holdings: unknown member "${key}" (collections, gate, delegation)`);
  let conditions = 0;
  const condition = (v: unknown, where: string): Collection => {
    const c = object(v, where);
    for (const key of Object.keys(c))
      if (!["network", "contract", "token_ids", "min_count"].includes(key))
        throw new Error(`${where}: unknown member "${key}" (network, contract, token_ids, min_count)`);
    if (++conditions > HOLDINGS_LIMITS.collections)
      throw new Error(`holdings: at most ${HOLDINGS_LIMITS.collections} collections and gate conditions in all`);
    if (typeof c.network !== "string") throw new Error(`${where}: network must be a string`);
    if (indexed !== null && !indexed.includes(c.network))
      throw new Error(
        `${where}: network ${JSON.stringify(c.network)} is not indexed by this service (indexed: ${indexed.join(", ") || "none"})`,
      );
    if (typeof c.contract !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(c.contract))
      throw new Error(`${where}: contract must be an address (0x and 40 hex digits)`);
    const collection: Collection = { network: c.network, contract: c.contract.toLowerCase(), minCount: "1" };
    if (c.token_ids !== undefined) {
      const ids = c.token_ids;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > HOLDINGS_LIMITS.tokenIdsPerCollection)
        throw new Error(`${where}: token_ids must be 1 to ${HOLDINGS_LIMITS.tokenIdsPerCollection} token ids`);
      collection.tokenIds = [...new Set(ids.map((id) => decimal(id, `${where}: token_ids`, 0n)))].sort(byValue);
    }
    if (c.min_count !== undefined) collection.minCount = decimal(c.min_count, `${where}: min_count`, 1n);
    return collection;
  };
  const gate = (v: unknown, where: string, depth: number): Gate => {
    const g = object(v, where);
    const group = "all" in g ? "all" : "any" in g ? "any" : undefined;
    if (group === undefined) return condition(g, where);
    if (Object.keys(g).length !== 1) throw new Error(`${where}: a group is {"all": [...]} or {"any": [...]} alone`);
    if (depth >= HOLDINGS_LIMITS.gateDepth) throw new Error(`holdings: a gate nests at most ${HOLDINGS_LIMITS.gateDepth} groups deep`);
    const members = g[group];
    if (!Array.isArray(members) || members.length === 0) throw new Error(`${where}.${group} must be a non-empty array`);
    const built = members.map((m, i) => gate(m, `${where}.${group}[${i}]`, depth + 1));
    return group === "all" ? { all: built } : { any: built };
  };
  const listed = top.collections ?? [];
  if (!Array.isArray(listed)) throw new Error("holdings.collections must be an array");
  const collections = listed.map((c, i) => condition(c, `holdings.collections[${i}]`));
  const parsed = {
    collections,
    gate: top.gate === undefined || top.gate === null ? null : gate(top.gate, "holdings.gate", 0),
    delegation: delegationOf(top.delegation),
  };
  if (parsed.collections.length === 0 && parsed.gate === null) {
    if (parsed.delegation) throw new Error("holdings.delegation needs collections or a gate to count the delegated holdings of");
    return null;
  }
  return parsed;
}

/** `delegation`: absent, null or false (off), true (full-rights delegations), or {"rights": "0x" and 64 hex digits}. */
function delegationOf(value: unknown): DelegationConfig | null {
  if (value === undefined || value === null || value === false) return null;
  if (value === true) return { rights: null };
  const rights = typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>).rights : undefined;
  if (
    typeof value !== "object" ||
    Array.isArray(value) ||
    Object.keys(value).some((key) => key !== "rights") ||
    (rights !== undefined && rights !== null && (typeof rights !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(rights)))
  )
    throw new Error('holdings.delegation must be true, false or {"rights": "0x" and 64 hex digits (the registry\'s bytes32 rights)}');
  return { rights: typeof rights === "string" && !/^0x0{64}$/.test(rights) ? rights.toLowerCase() : null };
}

/** The configuration in the form parseHoldingsConfig reads (stored so, and shown so by the CLI and registration). */
export function holdingsConfigJson(config: HoldingsConfig): Record<string, unknown> {
  const condition = (c: Collection) => ({
    network: c.network,
    contract: c.contract,
    ...(c.tokenIds ? { token_ids: c.tokenIds } : {}),
    min_count: c.minCount,
  });
  const gate = (g: Gate): unknown => ("all" in g ? { all: g.all.map(gate) } : "any" in g ? { any: g.any.map(gate) } : condition(g));
  const { delegation } = config;
  return {
    collections: config.collections.map(condition),
    ...(config.gate ? { gate: gate(config.gate) } : {}),
    ...(delegation ? { delegation: delegation.rights ? { rights: delegation.rights } : true } : {}),
  };
}

/**
 * What the `claims` request parameter (OpenID Connect Core 5.5) asks of holdings: whether it asks for the claim (as
 * a member of `id_token` or `userinfo`), and the collections it names in the claim's `collections` member (5.5.1 lets
 * a request define members of its own), checked as a client's are (their networks are not: authorize checks them).
 * Throws an Error for a parameter that is not such JSON.
 */
export function holdingsAsked(claims: string | undefined): { asked: boolean; collections: Collection[] } {
  if (claims === undefined) return { asked: false, collections: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(claims);
  } catch {
    throw new Error("claims must be a JSON object (OpenID Connect Core 5.5)");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error("claims must be a JSON object (OpenID Connect Core 5.5)");
  let asked = false;
  const collections: unknown[] = [];
  for (const target of ["id_token", "userinfo"]) {
    const members = (parsed as Record<string, unknown>)[target];
    if (typeof members !== "object" || members === null || !(HOLDINGS_CLAIM in members)) continue;
    asked = true;
    const request = (members as Record<string, unknown>)[HOLDINGS_CLAIM];
    const named = typeof request === "object" && request !== null ? (request as Record<string, unknown>).collections : undefined;
    if (named === undefined) continue;
    if (!Array.isArray(named)) throw new Error(`claims.${target}.${HOLDINGS_CLAIM}.collections must be an array`);
    collections.push(...named);
  }
  return { asked, collections: parseHoldingsConfig({ collections }, null)?.collections ?? [] };
}

/** The client's configuration with more collections to report (a login's own, or those a login reported). */
export function withCollections(config: HoldingsConfig | null, more: Collection[]): HoldingsConfig | null {
  if (more.length === 0) return config;
  return { collections: [...(config?.collections ?? []), ...more], gate: config?.gate ?? null, delegation: config?.delegation ?? null };
}

/** The collections a holdings claim reports, to read them again (a refresh, userinfo); none from anything else. */
export function collectionsOfClaim(claim: unknown): Collection[] {
  if (!Array.isArray(claim)) return [];
  const entries = claim.filter((entry): entry is HoldingsClaimEntry => typeof entry === "object" && entry !== null);
  const collections = entries.map(({ network, contract, token_ids, min_count }) => ({ network, contract, token_ids, min_count }));
  return parseHoldingsConfig({ collections }, null)?.collections ?? [];
}

/** Every condition of the gate, in order. */
function conditionsOf(gate: Gate | null): Collection[] {
  if (gate === null) return [];
  if (!isGroup(gate)) return [gate];
  return ("all" in gate ? gate.all : gate.any).flatMap(conditionsOf);
}

const keyOf = (c: Collection) => `${c.network}\n${c.contract}\n${c.tokenIds?.join(",") ?? ""}\n${c.minCount}`;
const queryKeyOf = (c: Collection) => `${c.network}\n${c.contract}\n${c.tokenIds?.join(",") ?? ""}`;

/** The collections the claim reports: those registered, then the gate's conditions not among them. */
export function claimedCollections(config: HoldingsConfig): Collection[] {
  const seen = new Set<string>();
  return [...config.collections, ...conditionsOf(config.gate)].filter((c) => !seen.has(keyOf(c)) && (seen.add(keyOf(c)), true));
}

/** What a login of a configuration asks the index: each collection once, whatever number of conditions name it. */
export interface HoldingsQuestion {
  collections: CollectionQuery[];
  /** The most ids listed per collection. */
  maxIds: number;
  delegation: DelegationConfig | null;
  maxDelegations: number;
  /**
   * The gate in disjunctive normal form: it is met when, for some term `t`, the holdings of each of its collections
   * (`i`, an index into `collections`; the vaults' included) number at least `min`. Null: no gate.
   */
  gate: GateTerm[] | null;
}

/** One condition of a term of the gate (HoldingsQuestion.gate). */
export interface GateTerm {
  t: number;
  i: number;
  min: string;
}

/** Where each claimed collection's answer is among the questions: the collections asked, by their key. */
function questionsOf(config: HoldingsConfig): { claimed: Collection[]; queries: CollectionQuery[]; indexOf: Map<string, number> } {
  const claimed = claimedCollections(config);
  const queries: CollectionQuery[] = [];
  const indexOf = new Map<string, number>();
  for (const c of claimed) {
    if (indexOf.has(queryKeyOf(c))) continue;
    indexOf.set(queryKeyOf(c), queries.length);
    queries.push({ network: c.network, contract: c.contract, tokenIds: c.tokenIds });
  }
  return { claimed, queries, indexOf };
}

/**
 * What a login asks the index of `config`, the gate included, for the statement that reads the holdings where it
 * redeems the challenge (login-statement.ts). The gate's normal form stays small: at most HOLDINGS_LIMITS.collections
 * conditions make a few hundred terms at worst (all of five groups of any of three).
 */
export function holdingsQuestion(config: HoldingsConfig): HoldingsQuestion {
  const { queries, indexOf } = questionsOf(config);
  const termsOf = (g: Gate): Collection[][] =>
    !isGroup(g)
      ? [[g]]
      : "any" in g
        ? g.any.flatMap(termsOf)
        : g.all.reduce<Collection[][]>((terms, member) => terms.flatMap((term) => termsOf(member).map((more) => [...term, ...more])), [[]]);
  return {
    collections: queries,
    maxIds: HOLDINGS_LIMITS.idsListed,
    delegation: config.delegation ?? null,
    maxDelegations: HOLDINGS_LIMITS.delegations,
    gate:
      config.gate === null
        ? null
        : termsOf(config.gate).flatMap((term, t) => term.map((c) => ({ t, i: indexOf.get(queryKeyOf(c))!, min: c.minCount }))),
  };
}

/**
 * Reads what `address` holds of the client's collections from the index, with one statement, and checks its gate; with
 * delegation on, the holdings of the vaults that delegated to it count too, read in the same statement (a refresh and
 * userinfo: a login reads them in its redeeming statement, holdingsQuestion).
 * `db`: where the index is read (the primary: a login must not be answered from a replica behind a transfer).
 */
export async function checkHoldings(db: Queryable, address: string, config: HoldingsConfig): Promise<HoldingsCheck> {
  const question = holdingsQuestion(config);
  const read = await walletHoldings(db, { owner: address.toLowerCase(), ...question });
  return holdingsCheck(config, read);
}

/** The claim and the gate's answer of what the index said of `config`'s collections (asked as holdingsQuestion asks). */
export function holdingsCheck(config: HoldingsConfig, read: WalletHoldings): HoldingsCheck {
  const { claimed, queries, indexOf } = questionsOf(config);
  const delegation = config.delegation ?? null;
  const holdingOf = (c: Collection): OwnerHolding => read.holdings[indexOf.get(queryKeyOf(c))!];
  const total = (c: Collection) => holdingOf(c).vaults.reduce((sum, v) => sum + BigInt(v.count), BigInt(holdingOf(c).count));
  const meets = (c: Collection) => total(c) >= BigInt(c.minCount);
  const passes = (g: Gate): boolean => (!isGroup(g) ? meets(g) : "all" in g ? g.all.every(passes) : g.any.some(passes));
  const blocks = new Map<string, number | null>();
  for (const [i, q] of queries.entries()) blocks.set(q.network, read.holdings[i].indexed);
  return {
    claim: claimed.map((c) => {
      const held = holdingOf(c);
      return {
        network: c.network,
        contract: checksumAddress(c.contract),
        ...(c.tokenIds ? { token_ids: c.tokenIds } : {}),
        min_count: c.minCount,
        count: held.count,
        meets: meets(c),
        ids: held.ids,
        ids_complete: !held.more,
        block: held.indexed,
        complete: held.indexed !== null && !held.incomplete,
        ...(delegation
          ? {
              total: total(c).toString(),
              delegated: held.vaults
                .filter((v) => v.count !== "0")
                .map((v) => ({ vault: checksumAddress(v.vault), via: v.via, count: v.count, ids: v.ids, ids_complete: !v.more })),
              delegations_complete: read.delegationsComplete,
            }
          : {}),
      };
    }),
    meetsGate: config.gate === null || passes(config.gate),
    blocks: [...blocks].map(([network, block]) => ({ network, block })),
  };
}

/**
 * What a code's grant stores of its login's holdings: the configuration read, and the rows the redeeming statement
 * read (login-statement.ts adds them to the grant it stores); the claim is made of them when the grant is read.
 */
export interface StoredHoldings {
  config: Record<string, unknown>;
  rows?: HoldingRow[];
}

/** The claim of a grant's stored holdings; undefined for anything else. */
export function claimOfStored(stored: unknown): HoldingsClaimEntry[] | undefined {
  if (typeof stored !== "object" || stored === null || !Array.isArray((stored as StoredHoldings).rows)) return undefined;
  const { config, rows } = stored as Required<StoredHoldings>;
  const parsed = parseHoldingsConfig(config, null);
  return parsed ? holdingsCheck(parsed, holdingsOfRows(rows, HOLDINGS_LIMITS.idsListed)).claim : undefined;
}

const TEXT = {
  en: {
    refused: "{address} does not meet the holdings {client} requires, as indexed at {blocks}. It requires {gate}.",
    block: "block {block} of {network}",
    notIndexed: "{network} (not indexed yet)",
    and: " and ",
    or: " or ",
    condition: "at least {count} of {tokens}{contract} on {network}",
    ids: "token {ids} of ",
    collection: "{tokens}{contract} on {network}",
  },
  ja: {
    refused: "{address} は {client} が求める保有条件を満たしていません（{blocks} 時点のインデックス）。条件: {gate}。",
    block: "{network} のブロック {block}",
    notIndexed: "{network}（未インデックス）",
    and: " かつ ",
    or: " または ",
    condition: "{network} の {contract} の{tokens}トークンを {count} 個以上",
    ids: " ID {ids} の",
    collection: "{network} の {contract} の{tokens}トークン",
  },
} satisfies Record<Lang, Record<string, string>>;

/** Names a collection in words, in `lang` (the hosted page lists what the client will learn). */
export function describeCollection(c: Collection, lang: Lang): string {
  const text = TEXT[lang];
  return fillText(text.collection, {
    tokens: c.tokenIds ? fillText(text.ids, { ids: c.tokenIds.join(", ") }) : "",
    contract: checksumAddress(c.contract),
    network: c.network,
  });
}

/** Says in words what a gate requires, in `lang`. */
export function describeGate(gate: Gate, lang: Lang): string {
  const text = TEXT[lang];
  const say = (g: Gate, nested: boolean): string => {
    if (!isGroup(g))
      return fillText(text.condition, {
        count: g.minCount,
        tokens: g.tokenIds ? fillText(text.ids, { ids: g.tokenIds.join(", ") }) : "",
        contract: checksumAddress(g.contract),
        network: g.network,
      });
    const [members, joint] = "all" in g ? [g.all, text.and] : [g.any, text.or];
    const said = members.map((m) => say(m, true)).join(joint);
    return nested && members.length > 1 ? `(${said})` : said;
  };
  return say(gate, false);
}

/** Why a login that does not meet the gate is refused, in `lang`: what is required and the blocks it was read at. */
export function gateRefusalText(input: { address: string; clientName: string; gate: Gate; check: HoldingsCheck; lang: Lang }): string {
  const text = TEXT[input.lang];
  const blocks = input.check.blocks
    .map(({ network, block }) =>
      block === null ? fillText(text.notIndexed, { network }) : fillText(text.block, { network, block: String(block) }),
    )
    .join(", ");
  return fillText(text.refused, {
    address: checksumAddress(input.address),
    client: input.clientName,
    blocks,
    gate: describeGate(input.gate, input.lang),
  });
}

/** A non-negative decimal integer below 2^256, at least `min`, in canonical form. */
function decimal(value: unknown, where: string, min: bigint): string {
  const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== "string" || !/^\d{1,78}$/.test(text) || BigInt(text) >= 2n ** 256n || BigInt(text) < min)
    throw new Error(`${where} must be ${min > 0n ? "positive " : ""}decimal integers below 2^256 (as strings or numbers)`);
  return BigInt(text).toString();
}

function byValue(a: string, b: string): number {
  const [x, y] = [BigInt(a), BigInt(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
