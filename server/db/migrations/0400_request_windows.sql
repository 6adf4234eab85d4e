-- The rate limits' counts (server/rate-limits), shared by every instance on this database: one row per family of routes,
-- requester and fixed window. UNLOGGED: no WAL is written for a count, the hot path of every limited request; a crash
-- of PostgreSQL empties the table, which only gives every requester a fresh window.
CREATE UNLOGGED TABLE request_windows (
  family text NOT NULL,
  requester text NOT NULL,
  -- Milliseconds since the epoch, a multiple of the window's length.
  window_start bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (family, requester, window_start)
);

-- The bounded sweep of past windows.
CREATE INDEX request_windows_start ON request_windows (window_start);
