// @ts-check
// The hosted login page's script, an ES module (served as a file: the page's CSP allows no inline script).
// Finds the wallet, gets an EIP-4361 message from /api/authorize, asks the wallet to personal_sign it, redeems the
// signature at /api/login and sends the browser back to the relying party with the code.
import { errorMessage, messageLines } from "../static/messages.js";
import { discoverWallets, showNoWalletHelp, walletButton } from "../static/wallets.js";

/** @typedef {typeof import("../text").TEXT.en} Text */
/** @typedef {import("../static/wallets.js").Eip1193Provider} Eip1193Provider */

const root = document.getElementById("login");
// The error page (an expired request) has no request and needs no script.
if (root && root.dataset.request) main(root);

/** @param {HTMLElement} root */
function main(root) {
  /** @type {Record<string, string>} */
  const request = JSON.parse(root.dataset.request || "{}");
  /** @type {Record<string, string>} chain id (decimal) → network name */
  const networks = JSON.parse(root.dataset.networks || "{}");
  /** @type {Text} */
  const text = JSON.parse(root.dataset.text || "{}");
  const list = element("wallets");
  const { say } = messageLines(element("status"), element("alert"));
  const buttons = () => Array.from(list.querySelectorAll("button"));

  discoverWallets({
    legacyName: text.browserWallet,
    onWallet(info, provider) {
      list.append(
        walletButton(
          info,
          text.signInWith.replace("{wallet}", () => info.name || text.browserWallet),
          () => signIn(provider),
        ),
      );
      say(text.choose);
    },
    onDone(count) {
      if (count === 0) {
        say(text.noWallet, "error");
        showNoWalletHelp();
      } else if (count === 1) buttons()[0].focus();
    },
  });

  /** @param {Eip1193Provider} provider */
  async function signIn(provider) {
    for (const button of buttons()) button.disabled = true;
    try {
      say(text.connecting);
      const accounts = await provider.request({ method: "eth_requestAccounts" });
      /** @type {string | undefined} */
      const address = accounts && accounts[0];
      if (!address) throw new Error(text.noAccount);
      const chainId = await provider.request({ method: "eth_chainId" }).catch(() => undefined);
      const network = chainId ? networks[String(parseInt(chainId, 16))] : undefined;

      const query = new URLSearchParams(request);
      query.set("address", address);
      query.set("response_type", "code");
      query.set("message_format", "siwe");
      query.set("lang", text.lang);
      if (network) query.set("network", network);
      const challenge = await call(await fetch("/api/authorize?" + query.toString()));

      say(text.signing);
      const signature = await provider.request({ method: "personal_sign", params: [utf8Hex(challenge.message), address] });

      say(text.verifying);
      /** @type {Record<string, string>} */
      const body = {
        address,
        signature,
        client_id: request.client_id,
        redirect_uri: request.redirect_uri,
        message: challenge.message,
        lang: text.lang,
      };
      if (request.state) body.state = request.state;
      if (network) body.network = network;
      const result = await call(
        await fetch("/api/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      );
      say(text.done);
      window.location.assign(result.redirect_url);
    } catch (error) {
      say(text.failed + " " + errorMessage(error), "error");
      // A gate's refusal is the resource owner's request refused: back to the client with OAuth's error (RFC 6749
      // 4.1.2.1), which names it. Other refusals stay here, where the user can try again (another wallet, say).
      if (error instanceof RefusalError && error.code === "access_denied" && request.redirect_uri) {
        window.location.assign(errorRedirect(request, root.dataset.issuer || "", error));
        return;
      }
      // The refusal's code (e.g. access_denied, a gate not met), for scripts and tests, as the error pages name theirs.
      element("alert").dataset.error = error instanceof RefusalError ? error.code : "";
      for (const button of buttons()) button.disabled = false;
    }
  }
}

/**
 * The body of a JSON answer; the service's message when it refused.
 * @param {Response} response
 * @returns {Promise<any>}
 */
async function call(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new RefusalError(body.message || body.error_description || response.statusText, String(body.error || ""));
  return body;
}

/** A refusal of the service: its message, and its code. */
class RefusalError extends Error {
  /**
   * @param {string} message
   * @param {string} code
   */
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

/**
 * The authorization request's redirect URI (checked against the client's registration before this page was shown,
 * and again by /api/authorize) with the error, its description, the request's state and the issuer (RFC 9207).
 * @param {Record<string, string>} request
 * @param {string} issuer
 * @param {RefusalError} refusal
 */
function errorRedirect(request, issuer, refusal) {
  const params = new URLSearchParams({ error: refusal.code, error_description: refusal.message });
  if (request.state) params.set("state", request.state);
  if (issuer) params.set("iss", issuer);
  return request.redirect_uri + (request.redirect_uri.includes("?") ? "&" : "?") + params.toString();
}

/** @param {string} message */
function utf8Hex(message) {
  return "0x" + Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found;
}
