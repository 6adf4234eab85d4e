// The React entry (`wallet-login-nft-sdk/react`): hooks over TanStack Query for the read routes, and one that keeps
// their answers fresh from the live event stream. React and TanStack Query are peer dependencies of this entry only;
// written without JSX so that the package's build needs no JSX setting.
import {
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type Query,
  type UseInfiniteQueryResult,
  type UseQueryResult,
} from "@tanstack/react-query";
import { createContext, createElement, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { DataClient, ListOptions, SpamOption } from "./data.ts";
import type { LiveEvent } from "./events.ts";
import type { List, Page } from "./pages.ts";
import type { Address, Holder, InventoryItem, InventoryItemWithMetadata, Token, Transfer, UintInput } from "./types.ts";

const DataClientContext = createContext<DataClient | null>(null);

/** Gives the hooks below it a {@link DataClient} (each hook may also be given one as `client`). */
export function DataClientProvider(props: { client: DataClient; children?: ReactNode }) {
  return createElement(DataClientContext.Provider, { value: props.client }, props.children);
}

/** The client given as `client`, else the one of the nearest {@link DataClientProvider}. */
export function useDataClient(client?: DataClient): DataClient {
  const provided = useContext(DataClientContext);
  const chosen = client ?? provided;
  if (!chosen) throw new Error("no DataClient: wrap the tree in <DataClientProvider client={…}> or pass `client`");
  return chosen;
}

/** TanStack Query's options a hook passes on. */
export interface QueryOptions {
  /** `false` keeps the query idle (as it is anyway while a required input is undefined). */
  enabled?: boolean;
  staleTime?: number;
  gcTime?: number;
  refetchInterval?: number | false;
}

interface HookOptions {
  client?: DataClient;
  query?: QueryOptions;
}

/** The pages of a list hook: `data.pages.flatMap((page) => page.items)`, `fetchNextPage()` while `hasNextPage`. */
export type ListQueryResult<Item> = UseInfiniteQueryResult<InfiniteData<Page<Item>, string | null>>;

const lower = (address: string | undefined) => address?.toLowerCase();
const text = (value: UintInput | undefined) => (value === undefined ? undefined : String(value));

/**
 * The query keys of the hooks, to invalidate or prefetch them with TanStack Query's own calls. Every key starts with
 * `["wallet-login-nft-sdk", baseUrl, network]`; addresses are lower-case and integers decimal strings.
 */
export const queryKeys = {
  all: (client: DataClient) => ["wallet-login-nft-sdk", client.http.baseUrl, client.network] as const,
  inventory: (client: DataClient, owner: Address, contract: Address, options: object) =>
    [...queryKeys.all(client), "inventory", lower(owner), lower(contract), options] as const,
  token: (client: DataClient, contract: Address, id: UintInput) =>
    [...queryKeys.all(client), "token", lower(contract), String(id)] as const,
  holders: (client: DataClient, contract: Address, options: object) =>
    [...queryKeys.all(client), "holders", lower(contract), options] as const,
  history: (client: DataClient, of: { owner?: Address; contract?: Address; id?: UintInput }, options: object) =>
    [...queryKeys.all(client), "history", lower(of.owner) ?? null, lower(of.contract) ?? null, text(of.id) ?? null, options] as const,
};

/** An infinite query over one list, a page per fetch, following its cursors. */
function useList<Item>(
  key: readonly unknown[],
  makeList: (() => List<Item>) | undefined,
  query: QueryOptions | undefined,
): ListQueryResult<Item> {
  return useInfiniteQuery({
    ...query,
    queryKey: key,
    enabled: makeList !== undefined && query?.enabled !== false,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => makeList!().page(pageParam, { signal }),
    getNextPageParam: (last: Page<Item>) => last.cursor ?? undefined,
  });
}

type InventoryHookOptions = HookOptions & ListOptions & SpamOption & { owner: Address | undefined; contract: Address | undefined };

/** The tokens of `contract` that `owner` holds, a page per fetch (`metadata: true` adds each one's metadata). */
export function useInventory(options: InventoryHookOptions & { metadata: true }): ListQueryResult<InventoryItemWithMetadata>;
export function useInventory(options: InventoryHookOptions & { metadata?: boolean }): ListQueryResult<InventoryItem>;
export function useInventory(options: InventoryHookOptions & { metadata?: boolean }): ListQueryResult<InventoryItem> {
  const client = useDataClient(options.client);
  const { owner, contract, limit, spam, metadata } = options;
  const params = { limit, spam, metadata };
  return useList(
    queryKeys.inventory(client, owner ?? "", contract ?? "", params),
    owner && contract ? () => client.inventory(owner, contract, params) : undefined,
    options.query,
  );
}

/** A token as a dApp shows it (holder or balances, metadata, image, signed metadata). */
export function useToken(options: HookOptions & { contract: Address | undefined; id: UintInput | undefined }): UseQueryResult<Token> {
  const client = useDataClient(options.client);
  const { contract, id } = options;
  return useQuery({
    ...options.query,
    queryKey: queryKeys.token(client, contract ?? "", id ?? ""),
    enabled: contract !== undefined && id !== undefined && options.query?.enabled !== false,
    queryFn: ({ signal }) => client.token(contract!, id!, { signal }),
  });
}

/** The holders of `contract` (or of its token `id`), a page per fetch; with `block`, as at the end of that block. */
export function useHolders(
  options: HookOptions & ListOptions & SpamOption & { contract: Address | undefined; id?: UintInput; block?: UintInput },
): ListQueryResult<Holder> {
  const client = useDataClient(options.client);
  const { contract, limit, spam } = options;
  const params = { limit, spam, id: text(options.id), block: text(options.block) };
  return useList(
    queryKeys.holders(client, contract ?? "", params),
    contract ? () => client.holders(contract, params) : undefined,
    options.query,
  );
}

/** The transfers of one token (`contract` and `id`) or of an `owner`, newest first, a page per fetch. */
export function useHistory(
  options: HookOptions & ListOptions & SpamOption & { owner?: Address; contract?: Address; id?: UintInput },
): ListQueryResult<Transfer> {
  const client = useDataClient(options.client);
  const { owner, contract, id, limit, spam } = options;
  const params = { limit, spam };
  const makeList = owner
    ? () => client.transfersOf(owner, params)
    : contract && id !== undefined
      ? () => client.transfers(contract, id, params)
      : undefined;
  return useList(queryKeys.history(client, { owner, contract, id }, params), makeList, options.query);
}

/** Whether an event can change what the query under `key` answered (the hooks' keys; other keys are left alone). */
export function isAffectedBy(key: readonly unknown[], event: LiveEvent): boolean {
  if (event.type === "reset") return true;
  const [, , , kind, a, b, c] = key as Array<string | null | undefined>;
  if (event.type === "metadata") {
    const { contract, fromId, toId } = event.change;
    if (kind === "token") return a === lower(contract) && BigInt(fromId) <= BigInt(b!) && BigInt(b!) <= BigInt(toId);
    return kind === "inventory" && b === lower(contract);
  }
  const { contract, id, from, to } = event.transfer;
  const parties = [lower(from), lower(to)];
  if (kind === "inventory") return parties.includes(a!) && b === lower(contract);
  if (kind === "token") return a === lower(contract) && b === id;
  if (kind === "holders") return a === lower(contract);
  if (kind === "history") return a ? parties.includes(a) : b === lower(contract) && c === id;
  return false;
}

export interface LiveUpdatesState {
  /** The last event seen, or null. */
  lastEvent: LiveEvent | null;
  /** The refusal that ended the stream (a bad address, an unknown network), or null. */
  error: Error | null;
}

/**
 * Keeps the hooks' queries fresh: follows the live event stream (with its `owner` and `contract` filters) and
 * invalidates every query of this client that an event can change (an inventory of either party, the token, its
 * holders and histories; everything on a `reset`), so that mounted hooks fetch again. `onEvent` sees each event, to
 * update queries of your own. The stream resumes after a disconnect by itself and closes on unmount.
 */
export function useLiveUpdates(
  options: { client?: DataClient; owner?: Address; contract?: Address; enabled?: boolean; onEvent?: (event: LiveEvent) => void } = {},
): LiveUpdatesState {
  const client = useDataClient(options.client);
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveUpdatesState>({ lastEvent: null, error: null });
  const onEvent = useRef(options.onEvent);
  onEvent.current = options.onEvent;
  const { owner, contract, enabled = true } = options;

  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    const prefix = queryKeys.all(client);
    const ours = (query: Query) => prefix.every((part, i) => query.queryKey[i] === part);
    void (async () => {
      try {
        for await (const event of client.events({ owner, contract, signal: stop.signal })) {
          await queryClient.invalidateQueries({ predicate: (query) => ours(query) && isAffectedBy(query.queryKey, event) });
          onEvent.current?.(event);
          setState({ lastEvent: event, error: null });
        }
      } catch (error) {
        if (!stop.signal.aborted) setState((previous) => ({ ...previous, error: error as Error }));
      }
    })();
    return () => stop.abort();
  }, [client, queryClient, owner, contract, enabled]);
  return state;
}
