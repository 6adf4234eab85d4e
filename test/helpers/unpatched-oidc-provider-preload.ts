import Module from "node:module";
import { UNPATCHED_OIDC_PROVIDER } from "./unpatched-oidc-provider";

/**
 * `node -r` this file (after ts-node) to run a process on an unpatched copy of oidc-provider (unpatched-oidc-provider.ts):
 * `oidc-provider` resolves to the copy named by UNPATCHED_OIDC_PROVIDER, as if `npm ci --ignore-scripts` had installed it.
 */
const entry = process.env[UNPATCHED_OIDC_PROVIDER];
if (!entry) throw new Error(`${UNPATCHED_OIDC_PROVIDER} names no copy of oidc-provider`);
const resolver = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const resolve = resolver._resolveFilename;
resolver._resolveFilename = function resolveUnpatched(request: string, ...rest: unknown[]) {
  return request === "oidc-provider" ? entry : resolve.call(this, request, ...rest);
};
