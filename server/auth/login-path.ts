/**
 * LOGIN_PATH=legacy brings back the login path as it was (each record read and written on its own, the challenge
 * saved in a transaction of its own statements, the login recorded by a statement of its own), which the benchmark
 * measures beside the current one. It exists for that comparison only; it is not configuration.
 */
export const LEGACY_PATH = process.env.LOGIN_PATH === "legacy";
