-- migrate-9-10.sql - schema 9 -> 10: each issue's change in a block of its
-- own, marked "9 -> 10 (#NN)" ... "end 9 -> 10 (#NN)".  Run by
-- lib/store/store.c (migrations); the layout rule is in lib/sql/README.

-- #50
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
