// The two modules of undici that server/chain/http-request.ts loads instead of its entry (it says why), typed as the
// entry exports them; test/server/chain/undici-dispatchers.test.ts fails if an upgrade of undici moves them.
declare module "undici/lib/dispatcher/agent" {
  const Agent: typeof import("undici").Agent;
  export = Agent;
}

declare module "undici/lib/dispatcher/client" {
  const Client: typeof import("undici").Client;
  export = Client;
}
