import type { SpamVerdict } from "../indexer";

/**
 * The spam rules (docs/reference/collections.md#spam), each named as it appears in a verdict's `reasons`. A strong
 * rule flags by itself; the airdrop rules flag only with `NeverMoved` (an airdrop nobody who received it ever moved):
 * a real project's airdrop is received by people who then trade it.
 */
export const RULES = {
  LureText: "the name, symbol or contract-level metadata (name, description, external link) carries a URL or a lure word",
  DishonestTotalSupply: "an ERC-721, fully indexed, whose totalSupply() differs from the tokens the index holds",
  MassAirdrop: "one transaction minted to 20 or more distinct addresses",
  MintedToOthers: "in a sample of its first mint transactions, 80% or more of the recipients are not the transaction's sender",
  NeverMoved: "10 or more holders, and no transfer of its tokens but mints and burns",
} as const;

export type Rule = keyof typeof RULES;

/** A URL, a domain-like word, or a lure word (whole words, any case). */
const LURE =
  /(https?:\/\/|www\.|\b[a-z0-9-]+\.(com|io|xyz|net|org|app|site|top|link|gift|claims?)\b|\bt\.me\b|\b(claim|claims|claimable|reward|rewards|visit|voucher|bonus|free\s*mint|giveaway)\b)/i;

/** What the classifier knows of a collection. */
export interface SpamInputs {
  standard: "erc721" | "erc1155";
  texts: Array<string | undefined>;
  totalSupply?: bigint;
  indexedSupply: bigint;
  indexComplete: boolean;
  holders: number;
  moved: number;
  mostMintedTo: number;
  /** Of the sampled mint transactions: recipients that were not the sender, and all recipients. */
  mintedToOthers: { others: number; all: number; transactions: number };
}

/** The verdict of the rules: the flag and every rule that fired, in the order of RULES. */
export function classify(inputs: SpamInputs): SpamVerdict {
  const fired = new Set<Rule>();
  if (inputs.texts.some((text) => text !== undefined && LURE.test(text))) fired.add("LureText");
  if (
    inputs.standard === "erc721" &&
    inputs.indexComplete &&
    inputs.totalSupply !== undefined &&
    inputs.totalSupply !== inputs.indexedSupply
  )
    fired.add("DishonestTotalSupply");
  if (inputs.mostMintedTo >= 20) fired.add("MassAirdrop");
  const sample = inputs.mintedToOthers;
  if (sample.transactions >= 3 && sample.others >= 0.8 * sample.all) fired.add("MintedToOthers");
  if (inputs.holders >= 10 && inputs.moved === 0) fired.add("NeverMoved");
  const airdrop = fired.has("MassAirdrop") || fired.has("MintedToOthers");
  const flag = fired.has("LureText") || fired.has("DishonestTotalSupply") || (airdrop && fired.has("NeverMoved"));
  return { flag, reasons: (Object.keys(RULES) as Rule[]).filter((rule) => fired.has(rule)) };
}

/** The operator's lists (SPAM_CONTRACTS, NOT_SPAM_CONTRACTS): `network:lower-case address` keys. */
export interface SpamOverrides {
  spam: ReadonlySet<string>;
  notSpam: ReadonlySet<string>;
}

/**
 * The verdict as served: the operator's word when a list names the contract (its reason says so, before the rules'),
 * else the stored one; "Unclassified" before the classifier reached it.
 */
export function servedVerdict(network: string, contract: string, stored: SpamVerdict | undefined, overrides: SpamOverrides): SpamVerdict {
  const key = `${network}:${contract}`;
  const rules = stored?.reasons ?? ["Unclassified"];
  if (overrides.spam.has(key)) return { flag: true, reasons: ["OperatorMarkedSpam", ...rules] };
  if (overrides.notSpam.has(key)) return { flag: false, reasons: ["OperatorMarkedNotSpam", ...rules] };
  return stored ?? { flag: false, reasons: rules };
}
