-- migrate-8-9.sql - schema 8 -> 9: each issue's change in a block of its
-- own, marked "8 -> 9 (#NN)" ... "end 8 -> 9 (#NN)".  Run by
-- lib/store/store.c (migrations); the layout rule is in lib/sql/README.

-- #51
-- 8 -> 9 (#51 item 4): thread.pid may be NULL, a thread whose process the
-- trace never gives (Perfetto's thread table: upid NULL), kept apart from
-- -1 (the capture's own process until the writer resolves it).  A key
-- column cannot be NULL, so the table has a rowid: (trace, pid, tid) stays
-- unique for the known processes and (trace, tid) for the unknown one.
-- Renamed first, so that the new table's CREATE text is as written here.
ALTER TABLE thread RENAME TO thread_8;
CREATE TABLE thread (trace INTEGER NOT NULL REFERENCES trace(id), pid INTEGER, tid INTEGER NOT NULL,
  name TEXT, UNIQUE (trace, pid, tid));
CREATE UNIQUE INDEX thread_unknown_process ON thread (trace, tid) WHERE pid IS NULL;
INSERT INTO thread (trace, pid, tid, name) SELECT trace, pid, tid, name FROM thread_8 ORDER BY trace, pid, tid;
DROP TABLE thread_8;
-- end 8 -> 9 (#51 item 4)
