import { getBytes } from "ethers";
import type { Page } from "playwright-core";
import type { PageWindow } from "./page-globals";

// The function below runs in the page (tsconfig has no DOM library): this names its globals for the type checker.
declare const window: PageWindow & {
  /** The test wallet's signer in Node, exposed by the test. */
  __testSign(hex: string): Promise<string>;
};
import type { Eip1193Provider } from "../../sdk/src/login";

/**
 * An EIP-1193 provider over an EOA in Node, as a wallet extension answers a dApp: its account, its chain, and
 * `personal_sign` of the hex bytes it is given.
 */
export function eoaProvider(
  wallet: { address: string; signMessage(message: Uint8Array): Promise<string> },
  chainId = 31337,
): Eip1193Provider & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async request({ method, params }) {
      calls.push(method);
      if (method === "eth_requestAccounts" || method === "eth_accounts") return [wallet.address];
      if (method === "eth_chainId") return `0x${chainId.toString(16)}`;
      if (method === "personal_sign") {
        const [data, address] = params as string[];
        if (address.toLowerCase() !== wallet.address.toLowerCase()) throw Object.assign(new Error("unknown account"), { code: 4100 });
        return wallet.signMessage(getBytes(data));
      }
      throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
    },
  };
}

/**
 * A test EIP-1193 wallet injected into the page before its scripts run. It announces itself through EIP-6963 (or
 * only sets window.ethereum) and forwards personal_sign to `__testSign`, exposed by the test, which signs with a
 * real key in Node.
 */
export function injectWallet(
  page: Page,
  options: { address: string; chainId: number; mode: "eip6963" | "window.ethereum" | "none"; name?: string },
) {
  return page.addInitScript((o) => {
    if (o.mode === "none") return;
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return [o.address];
        if (method === "eth_chainId") return `0x${o.chainId.toString(16)}`;
        if (method === "personal_sign") return window.__testSign((params as string[])[0]);
        throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      },
      on() {},
      removeListener() {},
    };
    if (o.mode === "window.ethereum") {
      window.ethereum = provider;
      return;
    }
    const info = {
      uuid: "8f6c9a3e-1d2b-4c5d-9e8f-0a1b2c3d4e5f",
      name: o.name ?? "Test Wallet",
      icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
      rdns: "org.example.testwallet",
    };
    const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  }, options);
}
