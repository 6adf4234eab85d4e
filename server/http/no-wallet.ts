import { escapeHtml } from "../lib/html";
import { fillText } from "../lib/template";

/** The command that logs the demo user in without a wallet (local/demo-login.ts); it works on the local demo only. */
export const DEMO_LOGIN_COMMAND = "npm run demo-login";

/** Where a page without a wallet sends people to get one: ethereum.org's neutral list, in the page's language. */
const FIND_WALLET = {
  en: { href: "https://ethereum.org/en/wallets/find-wallet/", text: "Find a wallet extension for your browser (ethereum.org lists them)" },
  ja: { href: "https://ethereum.org/ja/wallets/find-wallet/", text: "ブラウザのウォレット拡張機能を探す (ethereum.org の一覧)" },
};

/**
 * What a wallet page (the login page, the converter page) shows once its script found no wallet: where to get one,
 * and on the local demo (`demo`: the page's sentence, `{command}` marking the command) how to try without one. Hidden
 * until the script shows it; a link leaves the page, which the pages' CSP does not restrict.
 */
export function noWalletHelp(lang: "en" | "ja", demo: string | undefined): string {
  const find = FIND_WALLET[lang];
  const tryWithout = demo
    ? `\n<p data-demo>${fillText(escapeHtml(demo), { command: `<code>${escapeHtml(DEMO_LOGIN_COMMAND)}</code>` })}</p>`
    : "";
  return `<div id="no-wallet" hidden>
<p><a href="${escapeHtml(find.href)}" rel="noopener noreferrer">${escapeHtml(find.text)}</a></p>${tryWithout}
</div>`;
}
