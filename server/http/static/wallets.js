// @ts-check
// How both pages (the hosted login page and the converter page) find the browser's wallets: EIP-6963
// announcements, then window.ethereum for wallets that predate EIP-6963. An ES module, served at /static/wallets.js.

/**
 * An EIP-1193 provider, as far as the pages use it.
 * @typedef {object} Eip1193Provider
 * @property {(args: { method: string, params?: unknown[] }) => Promise<any>} request
 * @property {(event: string, listener: (value: any) => void) => void} [on]
 */

/**
 * What an EIP-6963 wallet says about itself.
 * @typedef {object} WalletInfo
 * @property {string} [uuid]
 * @property {string} [name]
 * @property {string} [icon] an image as a data: URI
 * @property {string} [rdns]
 */

/** How long wallets have to announce themselves before the page looks at window.ethereum and says what it found. */
const ANNOUNCE_MS = 500;

/**
 * Calls `onWallet` once for each wallet found (also for one that announces itself late), then `onDone` with how
 * many were found once the wallets had their time to answer.
 * @param {{
 *   legacyName: string,
 *   onWallet: (info: WalletInfo, provider: Eip1193Provider) => void,
 *   onDone: (count: number) => void,
 * }} options `legacyName` names the wallet found only as window.ethereum.
 */
export function discoverWallets({ legacyName, onWallet, onDone }) {
  /** @type {Set<string | undefined>} */
  const found = new Set();
  /** @param {WalletInfo} info @param {unknown} provider */
  const add = (info, provider) => {
    const key = info.uuid || info.rdns || info.name;
    if (!isProvider(provider) || found.has(key)) return;
    found.add(key);
    onWallet(info, provider);
  };
  window.addEventListener("eip6963:announceProvider", (event) => {
    const detail = /** @type {CustomEvent<{ info?: WalletInfo, provider?: unknown } | null>} */ (event).detail;
    if (detail && detail.info && detail.provider) add(detail.info, detail.provider);
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  setTimeout(() => {
    const legacy = /** @type {{ ethereum?: unknown }} */ (/** @type {unknown} */ (window)).ethereum;
    if (found.size === 0 && legacy) add({ name: legacyName, rdns: "window.ethereum" }, legacy);
    onDone(found.size);
  }, ANNOUNCE_MS);
}

/**
 * @param {unknown} value
 * @returns {value is Eip1193Provider}
 */
function isProvider(value) {
  return typeof value === "object" && value !== null && typeof (/** @type {{ request?: unknown }} */ (value).request) === "function";
}

/**
 * A button that picks a wallet: the wallet's icon (only a data: image, which the pages' CSP allows) and `label`.
 * @param {WalletInfo} info
 * @param {string} label
 * @param {() => void} onClick
 */
export function walletButton(info, label, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  if (typeof info.icon === "string" && /^data:image\//.test(info.icon)) {
    const icon = document.createElement("img");
    icon.src = info.icon;
    icon.alt = "";
    icon.width = 24;
    icon.height = 24;
    button.append(icon);
  }
  button.append(document.createTextNode(label));
  button.addEventListener("click", onClick);
  return button;
}

/** Shows the page's guidance for a browser without a wallet (the server writes it hidden: where to get one, and on the local demo how to try without). */
export function showNoWalletHelp() {
  const help = document.getElementById("no-wallet");
  if (help) help.hidden = false;
}
