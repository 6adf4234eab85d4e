/** Everything the hosted login page says, in English and Japanese. `{name}` marks a value the page fills in. */
const en = {
  lang: "en",
  title: "Sign in with your wallet",
  intro:
    "{client} asks you to sign in with your Ethereum wallet. Your wallet will show a message to sign: signing is free and sends no transaction.",
  signInWith: "Sign in with {wallet}",
  browserWallet: "browser wallet",
  choose: "Choose your wallet.",
  looking: "Looking for wallets…",
  noWallet: "No wallet was found in this browser. Install a wallet extension, or open this page in your wallet's browser.",
  noAccount: "The wallet gave no account.",
  connecting: "Connecting to your wallet…",
  signing: "Please sign the message in your wallet.",
  verifying: "Checking the signature…",
  done: "Signed in. Returning to the application…",
  failed: "Sign-in failed:",
  expired: "This sign-in request has expired or was opened in another browser. Go back to the application and start again.",
  noscript: "This page needs JavaScript to talk to your wallet.",
  errorTitle: "Sign-in error",
  backTo: "Back to {client}",
  backHome: "Back to the home page",
  demoLogin:
    "Trying the local demo without a wallet? In a terminal in the project, {command} logs the demo user in through the JSON API and prints its ID token.",
  holdingsIntro: "{client} will learn what the address you sign with holds of these collections, as this service has indexed them:",
  gateIntro: "{client} admits only addresses that hold {gate}.",
  delegationIntro:
    "Tokens of wallets that delegated to the address you sign with in the delegate.xyz registry count too, and {client} will learn which wallets they are.",
};

const ja: typeof en = {
  lang: "ja",
  title: "ウォレットでログイン",
  intro:
    "{client} が Ethereum ウォレットでのログインを求めています。ウォレットに署名するメッセージが表示されます。署名は無料で、トランザクションは送信されません。",
  signInWith: "{wallet} でログイン",
  browserWallet: "ブラウザのウォレット",
  choose: "ウォレットを選んでください。",
  looking: "ウォレットを探しています…",
  noWallet: "このブラウザにウォレットが見つかりません。ウォレットの拡張機能を入れるか、ウォレットのブラウザでこのページを開いてください。",
  noAccount: "ウォレットからアカウントが得られませんでした。",
  connecting: "ウォレットに接続しています…",
  signing: "ウォレットでメッセージに署名してください。",
  verifying: "署名を確認しています…",
  done: "ログインしました。アプリケーションに戻ります…",
  failed: "ログインできませんでした:",
  expired: "このログイン要求は期限切れか、別のブラウザで開かれました。アプリケーションに戻ってやり直してください。",
  noscript: "このページはウォレットとやり取りするために JavaScript が必要です。",
  errorTitle: "ログインエラー",
  backTo: "{client} に戻る",
  backHome: "ホームページに戻る",
  demoLogin:
    "ウォレットなしでローカルデモを試すには、プロジェクトのターミナルで {command} を実行してください。デモユーザーとして JSON API でログインし、ID トークンを表示します。",
  holdingsIntro: "{client} は、署名するアドレスが次のコレクションを保有しているか（このサービスのインデックスによる）を知ることになります:",
  gateIntro: "{client} にログインできるのは、{gate} を保有するアドレスだけです。",
  delegationIntro:
    "delegate.xyz のレジストリで署名するアドレスに委任したウォレットのトークンも数えられ、{client} はそのウォレットを知ることになります。",
};

export const TEXT = { en, ja };
export type Lang = keyof typeof TEXT;
