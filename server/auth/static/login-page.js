// The hosted login page's script (served as a file: the page's CSP allows no inline script).
// Finds the wallet (EIP-6963 announcements, then window.ethereum), gets an EIP-4361 message from /api/authorize,
// asks the wallet to personal_sign it, redeems the signature at /api/login and sends the browser back to the
// relying party with the code.
(() => {
  "use strict";
  const root = document.getElementById("login");
  if (!root || !root.dataset.request) return;
  const request = JSON.parse(root.dataset.request);
  const networks = JSON.parse(root.dataset.networks || "{}");
  const text = JSON.parse(root.dataset.text);
  const status = document.getElementById("status");
  const list = document.getElementById("wallets");
  const found = new Map();

  const say = (message, isError) => {
    status.textContent = message;
    status.classList.toggle("error", Boolean(isError));
  };
  const buttons = () => Array.from(list.querySelectorAll("button"));

  function addWallet(info, provider) {
    const key = info.uuid || info.rdns || info.name;
    if (!provider || typeof provider.request !== "function" || found.has(key)) return;
    found.set(key, provider);
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
    button.append(document.createTextNode(text.signInWith.replace("{wallet}", () => info.name || text.browserWallet)));
    button.addEventListener("click", () => signIn(provider));
    list.append(button);
    say(text.choose);
  }

  window.addEventListener("eip6963:announceProvider", (event) => {
    const detail = event.detail;
    if (detail && detail.info && detail.provider) addWallet(detail.info, detail.provider);
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  // Wallets that predate EIP-6963 only inject window.ethereum.
  setTimeout(() => {
    if (found.size === 0 && window.ethereum) addWallet({ name: text.browserWallet, rdns: "window.ethereum" }, window.ethereum);
    if (found.size === 0) say(text.noWallet, true);
    else if (found.size === 1) buttons()[0].focus();
  }, 500);

  async function call(response) {
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.message || body.error_description || response.statusText);
    return body;
  }

  function utf8Hex(message) {
    return "0x" + Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function signIn(provider) {
    for (const button of buttons()) button.disabled = true;
    try {
      say(text.connecting);
      const accounts = await provider.request({ method: "eth_requestAccounts" });
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
      const body = { address, signature, client_id: request.client_id, redirect_uri: request.redirect_uri, message: challenge.message };
      if (request.state) body.state = request.state;
      if (network) body.network = network;
      const result = await call(
        await fetch("/api/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      );
      say(text.done);
      window.location.assign(result.redirect_url);
    } catch (error) {
      say(text.failed + " " + (error && error.message ? error.message : String(error)), true);
      for (const button of buttons()) button.disabled = false;
    }
  }
})();
