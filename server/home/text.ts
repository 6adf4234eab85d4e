/** Everything the front page says, in English and Japanese. `{name}` marks a value the page fills in. */
const en = {
  lang: "en",
  languageName: "English",
  title: "Wallet login, NFT data and converter",
  intro: "This service runs:",
  loginTitle: "Login service",
  login:
    "An OpenID Connect provider where people sign in by signing a message with their Ethereum wallet. Applications use its discovery document, or the JSON API (/api/authorize, /api/login, /api/token).",
  issuer: "Issuer:",
  discovery: "OpenID discovery document",
  dataTitle: "NFT data API",
  data: "Inventory, holders, transfer history, token metadata and live events of NFTs, from the service's own index of its networks.",
  networks: "Networks: {networks}",
  docs: "API reference (every route, to try in the browser)",
  openapi: "OpenAPI document",
  converterTitle: "Converter",
  converter: "Token holders exchange their tokens for the paired tokens, with their wallet.",
  convert: "Open the converter page",
  statusTitle: "Service status",
  health: "Liveness (/health)",
  ready: "Readiness: database and networks (/ready)",
  demoTitle: "Local demo",
  demo: "This is the local demo that {command} started: its terminal lists the demo contracts, the demo login client and commands to try.",
  demoLogin: "No wallet? Log in as the demo user from a terminal:",
};

const ja: typeof en = {
  lang: "ja",
  languageName: "日本語",
  title: "ウォレットログイン、NFT データ、コンバーター",
  intro: "このサービスで動いているもの:",
  loginTitle: "ログインサービス",
  login:
    "Ethereum ウォレットでメッセージに署名してログインする OpenID Connect プロバイダーです。アプリケーションはディスカバリードキュメントか JSON API (/api/authorize、/api/login、/api/token) を使います。",
  issuer: "発行者 (issuer):",
  discovery: "OpenID ディスカバリードキュメント",
  dataTitle: "NFT データ API",
  data: "NFT の保有一覧、保有者、移転履歴、トークンのメタデータ、ライブイベントを、サービス自身のインデックスから提供します。",
  networks: "ネットワーク: {networks}",
  docs: "API リファレンス (すべてのルートをブラウザで試せます)",
  openapi: "OpenAPI ドキュメント",
  converterTitle: "コンバーター",
  converter: "トークンの保有者が、ウォレットでトークンをペアのトークンに交換します。",
  convert: "コンバーターのページを開く",
  statusTitle: "サービスの状態",
  health: "稼働確認 (/health)",
  ready: "準備状態: データベースとネットワーク (/ready)",
  demoTitle: "ローカルデモ",
  demo: "これは {command} で起動したローカルデモです。ターミナルにデモのコントラクト、デモのログインクライアント、試せるコマンドが表示されています。",
  demoLogin: "ウォレットがない場合は、ターミナルからデモユーザーとしてログインできます:",
};

export const TEXT = { en, ja };
export type Lang = keyof typeof TEXT;
