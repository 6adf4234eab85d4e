// The page of the React hooks' browser test (test/sdk/react.test.ts), bundled by esbuild: every read hook and the live
// updates on one screen, their state as JSON in #state for the test to read, and a button that fetches the next
// inventory page. Written without JSX, as the SDK's entry is, so that the repository's TypeScript settings hold it.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement as h } from "react";
import { createRoot } from "react-dom/client";
import { createDataClient, type ApiError } from "../../../sdk/src/index";
import {
  DataClientProvider,
  useHistory,
  useHolders,
  useInventory,
  useLiveUpdates,
  useToken,
  type ListQueryResult,
} from "../../../sdk/src/react";

// This module runs in the page (tsconfig has no DOM library): these name its globals for the type checker.
declare const document: { getElementById(id: string): Element | null };
declare const location: { search: string };

const params = new URLSearchParams(location.search);
const [baseUrl, owner, contract, id] = ["service", "owner", "contract", "id"].map((name) => params.get(name) ?? "");

const itemsOf = <Item>(result: ListQueryResult<Item>) => ({
  status: result.status,
  items: result.data?.pages.flatMap((page) => page.items) ?? [],
  pages: result.data?.pages.length ?? 0,
  hasNextPage: result.hasNextPage,
  error: (result.error as ApiError | null)?.code ?? null,
});

function Screen() {
  const live = useLiveUpdates({ owner });
  const inventory = useInventory({ owner, contract, limit: 2 });
  const token = useToken({ contract, id });
  const holders = useHolders({ contract });
  const history = useHistory({ owner, limit: 1 });
  const idle = useToken({ contract, id: undefined });
  const state = {
    inventory: { ...itemsOf(inventory), ids: inventory.data?.pages.flatMap((page) => page.items.map((item) => item.id)) ?? [] },
    token: { status: token.status, owner: token.data?.owner ?? null },
    holders: itemsOf(holders),
    history: itemsOf(history),
    idle: { status: idle.status, fetchStatus: idle.fetchStatus },
    live: { last: live.lastEvent?.type ?? null, error: (live.error as ApiError | null)?.code ?? null },
  };
  return h(
    "main",
    null,
    h("button", { id: "more", onClick: () => void inventory.fetchNextPage() }, "more"),
    h("pre", { id: "state" }, JSON.stringify(state)),
  );
}

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
createRoot(document.getElementById("root")!).render(
  h(
    QueryClientProvider,
    { client: queryClient },
    h(DataClientProvider, { client: createDataClient({ baseUrl, network: "localhost" }) }, h(Screen)),
  ),
);
