// @ts-check
// The converter page's script, an ES module (served as a file: the page's CSP allows no inline script).
// Finds the wallet, brings it to the converter's chain, lists the holder's tokens with what each converts to (our
// inventory and converter routes) under each collection's name, holders, supply and spam flag (the collection route),
// and converts one token per transaction: safeTransferFrom(holder, converter, id)
// on the token, after an eth_call that shows whether it would revert. Every refusal is said in words; revert data is
// decoded with the custom errors the page was given.
import { errorMessage, messageLines } from "../static/messages.js";
import { discoverWallets, showNoWalletHelp, walletButton } from "../static/wallets.js";

/** @typedef {typeof import("../text").TEXT.en} Text */
/** @typedef {import("../static/wallets.js").Eip1193Provider} Eip1193Provider */
/** @typedef {"alice" | "bob"} Side */
/**
 * What the page was given (server/converter/page.ts).
 * @typedef {object} Config
 * @property {string} network
 * @property {number} chainId
 * @property {string} converter
 * @property {string | null} explorer
 * @property {string} currency
 * @property {string | null} rpcUrl
 * @property {Record<string, [string, string[]]>} reverts custom error name and argument types, by selector
 */
/**
 * The converter's state (GET /converter/:network/:converter).
 * @typedef {object} State
 * @property {string} alice
 * @property {string} bob
 * @property {{ alice: string | null, bob: string | null }} names
 * @property {boolean} paused
 * @property {boolean} reverseConversionEnabled
 */
/**
 * One token and what it converts to (GET …/pairs); ids are strings here (see getJson).
 * @typedef {object} Pair
 * @property {string} id
 * @property {string | null} counterpart
 * @property {boolean} convertible
 * @property {string | null} reason why it cannot be converted now: a key of the texts' `reasons` (or a newer one)
 */
/**
 * What the page shows of a collection (GET /collection/:network/:contract); supplies are strings here (see getJson).
 * @typedef {object} Collection
 * @property {string} [name]
 * @property {string} [symbol]
 * @property {{ name?: string }} metadata
 * @property {number} holders
 * @property {string} indexedSupply
 * @property {{ flag: boolean, reasons: string[] }} spam
 */
/** @typedef {Record<string, string | number | null>} Values the values a text's `{name}`s are filled with */

const root = document.getElementById("convert");
if (root && root.dataset.config) main(root);

/** @param {HTMLElement} root */
function main(root) {
  /** @type {Config} */
  const config = JSON.parse(root.dataset.config || "{}");
  /** @type {Text} */
  const text = JSON.parse(root.dataset.text || "{}");
  /** @param {string} id */
  const $ = (id) => {
    const found = document.getElementById(id);
    if (!found) throw new Error(`the page has no #${id}`);
    return found;
  };
  const lines = messageLines($("status"), $("alert"));
  const say = lines.say;
  const result = $("result");
  const walletList = $("wallets");
  const chainHex = "0x" + config.chainId.toString(16);
  const base = "/converter/" + config.network + "/" + config.converter;

  /** @type {Eip1193Provider | undefined} */
  let provider;
  /** @type {string} */
  let account = "";
  /** @type {State | undefined} */
  let state;
  let busy = false;

  /**
   * @param {string} template
   * @param {Values} [values]
   */
  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, key) => (values && values[key] !== undefined ? String(values[key]) : whole));
  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Partial<HTMLElementTagNameMap[K]>} [props]
   * @param {Array<Node | string>} [children]
   */
  const el = (tag, props, children) => {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const child of children || []) node.append(child);
    return node;
  };
  /**
   * @param {string} label
   * @param {() => void} onClick
   */
  const button = (label, onClick) => {
    const b = el("button", { type: "button", textContent: label });
    b.addEventListener("click", onClick);
    return b;
  };
  /** @param {Side} side */
  const tokenName = (side) => (state && state.names[side]) || (side === "alice" ? "Alice" : "Bob");
  /** @param {Side} side @returns {Side} */
  const other = (side) => (side === "alice" ? "bob" : "alice");
  /** The wallet, once the user connected one. */
  const wallet = () => {
    if (!provider) throw new Error(text.noAccount);
    return provider;
  };

  // --- wallets ---------------------------------------------------------------------------------------------

  discoverWallets({
    legacyName: text.browserWallet,
    onWallet(info, candidate) {
      walletList.append(walletButton(info, fill(text.connectWith, { wallet: info.name || text.browserWallet }), () => connect(candidate)));
      say(text.choose);
    },
    onDone(count) {
      if (count === 0) {
        say(text.noWallet, "error");
        showNoWalletHelp();
      }
    },
  });

  /** @param {Eip1193Provider} candidate */
  async function connect(candidate) {
    if (busy) return;
    busy = true;
    try {
      say(text.connecting);
      const accounts = await candidate.request({ method: "eth_requestAccounts" });
      if (!accounts || !accounts[0]) throw new Error(text.noAccount);
      if (provider !== candidate && typeof candidate.on === "function") {
        candidate.on("chainChanged", () => provider === candidate && !busy && reload());
        candidate.on("accountsChanged", (list) => {
          if (provider !== candidate || !list || !list[0]) return;
          account = list[0];
          if (!busy) reload();
        });
      }
      provider = candidate;
      account = accounts[0];
      walletList.hidden = true;
      busy = false;
      await reload();
    } catch (error) {
      showError(error);
    } finally {
      busy = false;
    }
  }

  /** Brings the wallet to the converter's chain; true when it is there. Says why not otherwise. */
  async function onChain() {
    const provider = wallet();
    const have = await provider.request({ method: "eth_chainId" });
    if (parseInt(have, 16) === config.chainId) return true;
    say(fill(text.wrongChain, { have: parseInt(have, 16), network: config.network, chainId: config.chainId }));
    try {
      await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: chainHex }] });
    } catch (error) {
      if (code(error) === 4001) return offerSwitch(text.switchRejected);
      if (code(error) !== 4902) throw error;
      if (!config.rpcUrl) return offerSwitch(text.cannotAdd);
      say(fill(text.adding, { network: config.network }));
      try {
        await provider.request({ method: "wallet_addEthereumChain", params: [addChainParams()] });
        await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: chainHex }] });
      } catch (addError) {
        if (code(addError) === 4001) return offerSwitch(text.switchRejected);
        return offerSwitch(text.cannotAdd);
      }
    }
    return parseInt(await provider.request({ method: "eth_chainId" }), 16) === config.chainId || offerSwitch(text.switchRejected);
  }

  function addChainParams() {
    /** @type {Record<string, unknown>} */
    const params = {
      chainId: chainHex,
      chainName: config.network,
      nativeCurrency: { name: config.currency, symbol: config.currency, decimals: 18 },
      rpcUrls: [config.rpcUrl],
    };
    if (config.explorer) params.blockExplorerUrls = [config.explorer];
    return params;
  }

  /** @param {string} message */
  function offerSwitch(message) {
    $("tokens").hidden = true;
    say(fill(message, { network: config.network, chainId: config.chainId }), "error");
    result.replaceChildren(button(fill(text.switchTo, { network: config.network }), () => reload()));
    return false;
  }

  // --- reading ---------------------------------------------------------------------------------------------

  /**
   * JSON whose token ids stay exact: ids are JSON numbers with all their digits, read here as strings.
   * @param {string} url
   * @returns {Promise<{ body: any, response: Response }>}
   */
  async function getJson(url) {
    const response = await fetch(url, { headers: { accept: "application/json" } });
    const body = JSON.parse((await response.text()).replace(/"(id|counterpart|indexedSupply|totalSupply)":(\d+)/g, '"$1":"$2"'));
    if (!response.ok) throw Object.assign(new Error(body.message || response.statusText), { status: response.status, body });
    return { body, response };
  }

  /**
   * The ids of `token` the account holds.
   * @param {string} token
   * @returns {Promise<string[]>}
   */
  async function inventory(token) {
    /** @type {string | undefined} */
    let url = "/inventory/" + config.network + "/" + account + "/" + token + "?limit=1000";
    const ids = [];
    while (url) {
      const { body, response } = await getJson(url);
      for (const item of body) ids.push(item.id);
      const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") || "");
      url = next ? next[1] : undefined;
    }
    return ids;
  }

  /**
   * The collection of `token`, or null when the service cannot describe it (the index holds none of its transfers yet,
   * the node failed): the list is shown without it.
   * @param {string} token
   * @returns {Promise<Collection | null>}
   */
  async function collection(token) {
    try {
      return (await getJson("/collection/" + config.network + "/" + token)).body;
    } catch {
      return null;
    }
  }

  /**
   * @param {Side} side
   * @param {string[]} ids
   */
  async function pairs(side, ids) {
    /** @type {Pair[]} */
    const answers = [];
    for (let i = 0; i < ids.length; i += 100) {
      const { body } = await getJson(base + "/pairs?" + side + "Ids=" + ids.slice(i, i + 100).join(","));
      answers.push(...body.pairs);
    }
    return answers;
  }

  /** @param {boolean} [keepResult] */
  async function reload(keepResult) {
    if (!provider) return;
    busy = true;
    try {
      if (!keepResult) result.replaceChildren();
      if (!(await onChain())) return;
      say(text.loading);
      /** @type {State} */
      const now = (await getJson(base)).body;
      state = now;
      /** @type {Side[]} */
      const sides = now.reverseConversionEnabled ? ["alice", "bob"] : ["alice"];
      /** @type {Partial<Record<Side, Pair[]>>} */
      const lists = {};
      /** @type {Partial<Record<Side, Collection | null>>} */
      const collections = {};
      for (const side of sides) {
        [lists[side], collections[side]] = await Promise.all([inventory(now[side]).then((ids) => pairs(side, ids)), collection(now[side])]);
      }
      render(now, lists, collections);
      say(fill(text.connected, { account, network: config.network }));
    } catch (error) {
      if (/** @type {{ body?: { error?: string } }} */ (error).body?.error === "not_indexed") {
        say(text.notIndexed);
        setTimeout(() => reload(keepResult), 2000);
      } else showError(error);
    } finally {
      busy = false;
    }
  }

  // --- the list --------------------------------------------------------------------------------------------

  /**
   * @param {State} state
   * @param {Partial<Record<Side, Pair[]>>} lists
   * @param {Partial<Record<Side, Collection | null>>} collections
   */
  function render(state, lists, collections) {
    const notices = [];
    if (state.paused) notices.push(text.paused);
    if (!state.reverseConversionEnabled) notices.push(fill(text.reverseOff, { alice: tokenName("alice"), bob: tokenName("bob") }));
    $("notice").textContent = notices.join(" ");
    $("notice").hidden = notices.length === 0;
    for (const side of /** @type {Side[]} */ (["alice", "bob"])) {
      const heading = $(side + "-heading");
      const list = $(side + "-list");
      const pairs = lists[side];
      heading.hidden = list.hidden = !pairs;
      describe(side, (pairs && collections[side]) || null);
      if (!pairs) continue;
      heading.textContent = fill(side === "alice" ? text.yourTokens : text.yourTokensBack, { token: tokenName(side) });
      list.replaceChildren(...pairs.map((pair) => item(side, pair)));
      if (pairs.length === 0) list.append(el("li", { textContent: fill(text.noTokens, { token: tokenName(side) }) }));
    }
    $("tokens").hidden = false;
  }

  /**
   * Shows a side's collection above its list: its name, holders and supply, and its spam flag with the rules that
   * raised it (a flagged one as a warning); nothing when it is not known.
   * @param {Side} side
   * @param {Collection | null} known
   */
  function describe(side, known) {
    const summary = $(side + "-collection");
    const warning = $(side + "-spam");
    summary.hidden = warning.hidden = !known;
    if (!known) return;
    const values = {
      name: known.name || known.metadata.name || tokenName(side),
      symbol: known.symbol || null,
      holders: known.holders,
      supply: known.indexedSupply,
      reasons: known.spam.reasons.join(", "),
    };
    const flag = known.spam.flag ? "" : " " + (known.spam.reasons.includes("Unclassified") ? text.unclassified : text.notSpam);
    summary.textContent = fill(values.symbol ? text.collection : text.collectionNoSymbol, values) + flag;
    warning.textContent = fill(text.spam, values);
    warning.hidden = !known.spam.flag;
  }

  /**
   * @param {Side} side
   * @param {Pair} pair
   * @returns {Values}
   */
  function names(side, pair) {
    return { token: tokenName(side), id: pair.id, other: tokenName(other(side)), counterpart: pair.counterpart };
  }

  /**
   * @param {Side} side
   * @param {Pair} pair
   */
  function item(side, pair) {
    const values = names(side, pair);
    const title = pair.counterpart === null ? fill(text.tokenId, values) : fill(text.becomes, values);
    const li = el("li", {}, [el("span", { className: "token", textContent: title })]);
    if (pair.convertible) {
      li.append(
        el("span", { className: "ok", textContent: text.ready }),
        button(fill(text.convert, values), () => convert(side, pair)),
      );
    } else {
      /** @type {Record<string, string | undefined>} */
      const reasons = text.reasons;
      const reason = pair.reason || "";
      li.append(el("span", { className: "refusal", textContent: fill(reasons[reason] || reason, values) }));
    }
    return li;
  }

  $("refresh").addEventListener("click", () => !busy && reload());

  // --- converting ------------------------------------------------------------------------------------------

  /** @param {string} hex */
  const word = (hex) => hex.replace(/^0x/, "").padStart(64, "0");

  /**
   * @param {Side} side
   * @param {Pair} pair
   */
  async function convert(side, pair) {
    if (busy || !state) return;
    const provider = wallet();
    busy = true;
    const values = names(side, pair);
    const token = state[side];
    for (const b of document.querySelectorAll("#tokens button")) /** @type {HTMLButtonElement} */ (b).disabled = true;
    result.replaceChildren();
    try {
      if (!(await onChain())) return;
      const tx = {
        from: account,
        to: token,
        // safeTransferFrom(address,address,uint256) with empty data: "convert" to the converter.
        data: "0x42842e0e" + word(account.toLowerCase()) + word(config.converter.toLowerCase()) + word(BigInt(pair.id).toString(16)),
      };
      say(fill(text.checking, values));
      try {
        await provider.request({ method: "eth_call", params: [tx, "latest"] });
      } catch (error) {
        if (code(error) === 4001) throw error;
        say(fill(text.refused, { reason: revertSentence(error) }), "error");
        return;
      }
      say(fill(text.confirm, values));
      const hash = await provider.request({ method: "eth_sendTransaction", params: [tx] });
      say(text.pending);
      showTransaction(hash);
      const receipt = await waitForReceipt(hash);
      if (receipt.status !== "0x1") {
        let reason = "";
        try {
          await provider.request({ method: "eth_call", params: [tx, receipt.blockNumber] });
        } catch (error) {
          reason = revertSentence(error);
        }
        say(fill(text.reverted, { reason }), "error");
        return;
      }
      say(fill(text.confirmed, values), "success");
      await refreshAfter(state, side, pair.id);
    } catch (error) {
      if (code(error) === 4001) say(text.rejected, "error");
      else if (revertData(error)) say(fill(text.reverted, { reason: revertSentence(error) }), "error");
      else showError(error);
    } finally {
      busy = false;
      for (const b of document.querySelectorAll("#tokens button")) /** @type {HTMLButtonElement} */ (b).disabled = false;
      lines.current().focus();
    }
  }

  /** @param {string} hash */
  function showTransaction(hash) {
    const parts = [el("span", { textContent: text.transaction + " " }), el("code", { textContent: hash })];
    if (config.explorer) {
      parts.push(
        el("br"),
        el("a", { href: config.explorer + "/tx/" + hash, textContent: text.explorer, target: "_blank", rel: "noopener noreferrer" }),
      );
    }
    result.replaceChildren(el("p", {}, parts));
  }

  /** @param {string} hash */
  async function waitForReceipt(hash) {
    for (;;) {
      const receipt = await wallet().request({ method: "eth_getTransactionReceipt", params: [hash] });
      if (receipt) return receipt;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  /** Reloads until the index no longer lists the converted token (it follows the chain within a second or two). */
  /**
   * @param {State} state
   * @param {Side} side
   * @param {string} id
   */
  async function refreshAfter(state, side, id) {
    for (let attempt = 0; attempt < 20; attempt++) {
      if (!(await inventory(state[side])).includes(id)) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const message = $("status").textContent || "";
    busy = false;
    await reload(true);
    say(message, "success");
  }

  // --- errors ----------------------------------------------------------------------------------------------

  /** The EIP-1193 error code (4001 rejected by the user, 4902 unknown chain), also where wallets nest it. */
  /**
   * @param {any} error
   * @returns {number | undefined}
   */
  function code(error) {
    if (!error) return undefined;
    if (typeof error.code === "number" && error.code >= 4000 && error.code < 5000) return error.code;
    const inner = error.data && error.data.originalError;
    return inner && typeof inner.code === "number" ? inner.code : error.code;
  }

  /** The revert data somewhere in a wallet's error (wallets nest it differently). */
  /**
   * @param {unknown} error
   * @returns {string | undefined}
   */
  function revertData(error) {
    const seen = new Set();
    /**
     * @param {any} value
     * @returns {string | undefined}
     */
    const walk = (value) => {
      if (!value || seen.has(value)) return undefined;
      if (typeof value === "string") return /^0x[0-9a-fA-F]{8}/.test(value) ? value : undefined;
      if (typeof value !== "object") return undefined;
      seen.add(value);
      for (const key of ["data", "originalError", "error", "cause"]) {
        const found = walk(value[key]);
        if (found) return found;
      }
      return undefined;
    };
    return walk(error);
  }

  /** @param {unknown} error */
  function revertSentence(error) {
    const data = revertData(error);
    if (!data) return error ? errorMessage(error) : "";
    const selector = data.slice(0, 10).toLowerCase();
    if (selector === "0x08c379a0") return decodeString(data.slice(10));
    const known = config.reverts[selector];
    if (!known) return fill(text.unknownRevert, { name: selector });
    const [name, types] = known;
    /** @type {Values} */
    const args = {};
    types.forEach((type, i) => {
      const raw = data.slice(10 + i * 64, 10 + (i + 1) * 64);
      if (type === "address") {
        const address = "0x" + raw.slice(24);
        const match = /** @type {Side[]} */ (["alice", "bob"]).find((side) => state && state[side].toLowerCase() === address);
        args[i] = match ? tokenName(match) : address;
      } else if (/^u?int/.test(type)) args[i] = BigInt("0x" + (raw || "0")).toString();
      else args[i] = "0x" + raw;
    });
    return fill(text.reverts[name] || fill(text.unknownRevert, { name }), args);
  }

  /** @param {string} hex */
  function decodeString(hex) {
    const length = parseInt(hex.slice(64, 128), 16);
    const bytes = new Uint8Array((hex.slice(128, 128 + length * 2).match(/../g) || []).map((b) => parseInt(b, 16)));
    return new TextDecoder().decode(bytes);
  }

  /** @param {unknown} error */
  function showError(error) {
    if (code(error) === 4001) return say(text.rejected, "error");
    say(fill(text.failed, { message: errorMessage(error) }), "error");
  }
}
