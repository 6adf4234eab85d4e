/**
 * A login route's `config` when it is counted against LOGIN_RATE_LIMIT per IP: plugin.ts registers the limiter for
 * the login routes with `global: false`, so each route that floods could hurt opts in with this.
 */
export const RATE_LIMITED = { rateLimit: {} };

/**
 * The login steps' `config` (`/api/authorize`, `/api/login`, the token endpoint): counted against LOGIN_RATE_LIMIT per
 * IP as RATE_LIMITED routes are, by their own statement where the counts are shared (limitInStatement).
 */
export { COUNTED_IN_STATEMENT } from "../../http/rate-limit";
