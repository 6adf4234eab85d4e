import { id } from "ethers";
import type { RawLog } from "./transfers";

/**
 * The delegate.xyz v2 registry's delegations, as the indexer reads them from the logs (docs/reference/login.md#delegation):
 * the registry is one immutable contract at the same address on every chain, and its events say every change, so the
 * index follows it like the transfers, reorgs included, and a login reads it from the database with the holdings.
 */

/** The registry's canonical address (lower case), the same on every chain. */
export const DELEGATE_REGISTRY = "0x00000000000000447e69651d841bd8d104bed493";

/** topic0 of `DelegateAll(address indexed from, address indexed to, bytes32 rights, bool enable)`. */
export const DELEGATE_ALL_TOPIC = id("DelegateAll(address,address,bytes32,bool)");
/** topic0 of `DelegateContract(address indexed from, address indexed to, address indexed contract_, bytes32 rights, bool enable)`. */
export const DELEGATE_CONTRACT_TOPIC = id("DelegateContract(address,address,address,bytes32,bool)");
/** topic0 of `DelegateERC721(address indexed from, address indexed to, address indexed contract_, uint256 tokenId, bytes32 rights, bool enable)`. */
export const DELEGATE_ERC721_TOPIC = id("DelegateERC721(address,address,address,uint256,bytes32,bool)");
/** The delegations a login counts: the whole wallet, a contract, an ERC-721 token (ERC-20 and ERC-1155 amounts are not read). */
export const DELEGATION_TOPICS = [DELEGATE_ALL_TOPIC, DELEGATE_CONTRACT_TOPIC, DELEGATE_ERC721_TOPIC];

/** What a delegation covers; the numbers are the registry's own `DelegationType` values. */
export const DELEGATION_KINDS = { all: 1, contract: 2, token: 3 } as const;
export type DelegationKind = keyof typeof DELEGATION_KINDS;

/** One DelegateAll, DelegateContract or DelegateERC721 log: a delegation enabled or revoked. */
export interface DelegationEvent {
  blockNumber: number;
  logIndex: number;
  kind: DelegationKind;
  /** The vault (the registry's `from`), lower case. */
  vault: string;
  /** The delegate (`to`), lower case. */
  delegate: string;
  /** Lower case; null for a whole-wallet delegation. */
  contract: string | null;
  /** Null unless a token delegation. */
  tokenId: bigint | null;
  /** 32 bytes of hex; zero for every right. */
  rights: string;
  enable: boolean;
}

const topicAddress = (topic: string) => `0x${topic.slice(26)}`.toLowerCase();
const word = (data: string, i: number) => data.slice(2 + 64 * i, 2 + 64 * (i + 1));
const BOOLEAN = /^0{63}[01]$/;

/**
 * The delegation a log says, or undefined for any other log. Only the registry's own logs count: any contract can emit
 * an event of the same signature, and only the registry's say who may act for whom.
 */
export function decodeDelegation(log: RawLog): DelegationEvent | undefined {
  if (log.removed || log.address.toLowerCase() !== DELEGATE_REGISTRY) return undefined;
  const [topic0] = log.topics;
  const shape =
    topic0 === DELEGATE_ALL_TOPIC
      ? { kind: "all" as const, topics: 3, words: 2 }
      : topic0 === DELEGATE_CONTRACT_TOPIC
        ? { kind: "contract" as const, topics: 4, words: 2 }
        : topic0 === DELEGATE_ERC721_TOPIC
          ? { kind: "token" as const, topics: 4, words: 3 }
          : undefined;
  if (!shape || log.topics.length !== shape.topics || log.data.length !== 2 + 64 * shape.words) return undefined;
  const token = shape.kind === "token";
  const enable = word(log.data, shape.words - 1);
  if (!BOOLEAN.test(enable)) return undefined;
  return {
    blockNumber: Number(log.blockNumber),
    logIndex: Number(log.logIndex),
    kind: shape.kind,
    vault: topicAddress(log.topics[1]),
    delegate: topicAddress(log.topics[2]),
    contract: shape.topics === 4 ? topicAddress(log.topics[3]) : null,
    tokenId: token ? BigInt(`0x${word(log.data, 0)}`) : null,
    rights: `0x${word(log.data, token ? 1 : 0)}`.toLowerCase(),
    enable: enable.endsWith("1"),
  };
}
