-- migrate-9-10.sql - schema 9 -> 10: each issue's change in a block of its
-- own, marked "9 -> 10 (#NN)" ... "end 9 -> 10 (#NN)".  Run by
-- lib/store/store.c (migrations); the layout rule is in lib/sql/README.

-- #50
-- 9 -> 10 (#50, blocks --group): block.pid, the dispatch's pid, kept with
-- its dur_ms, so that the group query (its PROCESS and --app) reads the
-- index block_grp alone, with no lookup of each block's dispatch row.  The
-- index is dropped first (the fill then updates no index entry) and made
-- again over what the group query reads.  The fill reads dispatch in id
-- order, as block's rowid is its dispatch's id.
DROP INDEX block_grp;
ALTER TABLE block ADD COLUMN pid INTEGER;
UPDATE block SET pid = (SELECT d.pid FROM dispatch d WHERE d.id = block.dispatch);
CREATE INDEX block_grp ON block (grp, dur_ms, trace, pid);
-- end 9 -> 10 (#50)

-- 9 -> 10 (#50, log lines): log_line clustered by (trace, ts_ms, id), its
-- index (pid, ts_ms) gone: a trace's lines are found by the key (rm, the
-- exposure of a trace with an ANR dump, the ANR context), not by reading
-- every trace's.  The old ids stay (unique, in the order the lines came).
ALTER TABLE log_line RENAME TO log_line_9;
CREATE TABLE log_line (id INTEGER NOT NULL, trace INTEGER NOT NULL REFERENCES trace(id), ts_ms REAL NOT NULL,
  pid INTEGER, tid INTEGER, level TEXT, tag TEXT, msg TEXT, PRIMARY KEY (trace, ts_ms, id)) WITHOUT ROWID;
INSERT INTO log_line (id, trace, ts_ms, pid, tid, level, tag, msg)
  SELECT id, trace, ts_ms, pid, tid, level, tag, msg FROM log_line_9 ORDER BY trace, ts_ms, id;
DROP TABLE log_line_9;
-- end 9 -> 10 (#50, log lines)
