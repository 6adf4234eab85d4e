// The example dApp's page: sign in with a wallet (EIP-6963, the service's JSON login, the code exchanged by this
// dApp's server), then the signed-in wallet's NFTs with their images, kept fresh by the live event stream, and the
// transfers as they arrive.
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from "@tanstack/react-query";
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { createDataClient, type LiveEvent } from "wallet-login-nft-sdk";
import { discoverWallets, signIn } from "wallet-login-nft-sdk/login";
import { DataClientProvider, useDataClient, useInventory, useLiveUpdates } from "wallet-login-nft-sdk/react";

/** What this dApp's server says at /config.json. */
interface Config {
  service: string;
  network: string;
  clientId: string;
  redirectUri: string;
}

/** Posts JSON to this dApp's server; its refusals are `{error, message}`. */
async function post<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
  const json = await response.json();
  if (!response.ok) throw new Error(json.message ?? json.error);
  return json as T;
}

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

function SignIn({ config, onSignedIn }: { config: Config; onSignedIn: (address: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function signInWithWallet() {
    setBusy(true);
    setError(null);
    try {
      const [wallet] = await discoverWallets();
      if (!wallet) throw new Error("No wallet found: install a browser wallet.");
      // The server makes the nonce and checks it in the ID token: a code from another login is refused.
      const { nonce } = await post<{ nonce: string }>("/nonce");
      const { code } = await signIn({
        baseUrl: config.service,
        provider: wallet.provider,
        clientId: config.clientId,
        redirectUri: config.redirectUri,
        nonce,
      });
      const { address } = await post<{ address: string }>("/session", { code, nonce });
      onSignedIn(address);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section>
      <button id="sign-in" disabled={busy} onClick={() => void signInWithWallet()}>
        Sign in with a wallet
      </button>
      {error && (
        <p id="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function Collection({ owner, contract }: { owner: string; contract: string }) {
  const inventory = useInventory({ owner, contract, metadata: true, limit: 24 });
  const items = inventory.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="collection">
      <h3>{contract}</h3>
      {inventory.error && <p role="alert">{inventory.error.message}</p>}
      <div className="grid">
        {items.map((item) => {
          const name = typeof item.metadata?.name === "string" ? item.metadata.name : `#${item.id}`;
          return (
            <figure className="nft" key={item.id} data-id={item.id}>
              {item.image ? <img src={item.image} alt={name} /> : <div className="no-image">no image</div>}
              <figcaption>{name}</figcaption>
            </figure>
          );
        })}
      </div>
      {inventory.hasNextPage && <button onClick={() => void inventory.fetchNextPage()}>More</button>}
    </section>
  );
}

function describe(event: LiveEvent): string {
  if (event.type === "reset") return "The index started over: everything shown is read again.";
  if (event.type === "metadata") return `Metadata of ${short(event.change.contract)} #${event.change.fromId}–${event.change.toId} changed`;
  const { from, to, id, contract } = event.transfer;
  const verb = event.type === "removed" ? "Undone by a reorg:" : "Transfer:";
  return `${verb} ${short(contract)} #${id} from ${short(from)} to ${short(to)}`;
}

function Wallet({ owner }: { owner: string }) {
  const client = useDataClient();
  const queryClient = useQueryClient();
  const [feed, setFeed] = useState<LiveEvent[]>([]);
  const contractsKey = ["contracts", client.network, owner];
  const contracts = useQuery({
    queryKey: contractsKey,
    queryFn: async ({ signal }) => (await client.inventoryContracts(owner, { spam: "exclude" }).page(null, { signal })).items,
  });
  // The SDK's hooks are refreshed by the events themselves; the list of contracts is this page's own query.
  const live = useLiveUpdates({
    owner,
    onEvent: (event) => {
      setFeed((shown) => [event, ...shown].slice(0, 20));
      void queryClient.invalidateQueries({ queryKey: contractsKey });
    },
  });
  return (
    <>
      <p>
        Signed in as <strong id="account">{owner}</strong>
      </p>
      <h2>Your NFTs</h2>
      <div id="inventory">
        {contracts.data?.length === 0 && <p>No NFTs yet.</p>}
        {contracts.data?.map((contract) => (
          <Collection key={contract} owner={owner} contract={contract} />
        ))}
      </div>
      <h2>Live</h2>
      {live.error && <p role="alert">{live.error.message}</p>}
      <ul id="live">
        {feed.map((event) => (
          <li key={event.id} data-type={event.type} data-tx={"transfer" in event ? event.transfer.tx : undefined}>
            {describe(event)}
          </li>
        ))}
      </ul>
    </>
  );
}

function App({ config }: { config: Config }) {
  const [owner, setOwner] = useState<string | null>(null);
  return owner ? <Wallet owner={owner} /> : <SignIn config={config} onSignedIn={setOwner} />;
}

const config = (await (await fetch("/config.json")).json()) as Config;
const queryClient = new QueryClient();
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <DataClientProvider client={createDataClient({ baseUrl: config.service, network: config.network })}>
        <App config={config} />
      </DataClientProvider>
    </QueryClientProvider>
  </StrictMode>,
);
