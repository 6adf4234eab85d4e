/**
 * The data pages' budgets against the latest-block route (the HTTP floor: no statement) in the same run, on
 * PostgreSQL: at least this share of its requests per second at 32 connections, and at most this multiple of its p99.
 * The indexer suite holds its pages to them, and the scale suite its pages at each of its sizes.
 */
export const PAGE_RATE_SHARE = 0.25;
export const PAGE_P99_MULTIPLE = 4;
