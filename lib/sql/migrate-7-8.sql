-- migrate-7-8.sql - schema 7 -> 8: each issue's change in a block of its
-- own, marked "7 -> 8 (#NN)" ... "end 7 -> 8 (#NN)".  Run by
-- lib/store/store.c (migrations); the layout rule is in lib/sql/README.

-- #50 clustered layout
-- 7 -> 8 (#50 item 1): thread_state becomes a WITHOUT ROWID table keyed
-- (trace, tid, ts_ms, id), what every query looks up, so that a load
-- writes its rows into that order and sorts no index after them; the
-- rows keep their ids (the key's last column, which keeps their order
-- within a thread's equal times) and thread_state_at goes with the old
-- table.  Renamed first, so that the new table's CREATE text is as
-- written here.
ALTER TABLE thread_state RENAME TO thread_state_7;
CREATE TABLE thread_state (id INTEGER NOT NULL, trace INTEGER NOT NULL REFERENCES trace(id),
  pid INTEGER, tid INTEGER NOT NULL, ts_ms REAL NOT NULL, dur_ms REAL, state TEXT, io_wait INTEGER,
  blocked_function TEXT, cpu INTEGER, waker_tid INTEGER,
  PRIMARY KEY (trace, tid, ts_ms, id)) WITHOUT ROWID;
INSERT INTO thread_state (id, trace, pid, tid, ts_ms, dur_ms, state, io_wait, blocked_function, cpu,
  waker_tid)
  SELECT id, trace, pid, tid, ts_ms, dur_ms, state, io_wait, blocked_function, cpu, waker_tid
  FROM thread_state_7 ORDER BY trace, tid, ts_ms, id;
DROP TABLE thread_state_7;
-- end 7 -> 8 (#50 item 1)
