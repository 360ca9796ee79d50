-- migrate-1-2.sql - schema 1 -> 2: the trace's clock, and app launches.
-- Run by lib/store/store.c (migrations) on a database of version 1; kept in
-- step with schemas/godeye.sql, which creates the newest version directly.
-- One statement per unindented line (lib/sql/README: an indented line goes
-- on the one above, joined by one space): the text of a CREATE and of an
-- ADD COLUMN lands in sqlite_master as written, so it never changes.

ALTER TABLE trace ADD COLUMN clock TEXT;
ALTER TABLE trace ADD COLUMN utc_offset_min INTEGER;
CREATE TABLE startup (id INTEGER PRIMARY KEY, trace INTEGER NOT NULL REFERENCES trace(id),
  app TEXT, activity TEXT, kind TEXT, total_ms REAL NOT NULL, wait_ms REAL, source TEXT,
  ts_ms REAL);
CREATE INDEX startup_trace ON startup (trace, ts_ms);
