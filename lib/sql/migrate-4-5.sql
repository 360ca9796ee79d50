-- migrate-4-5.sql - schema 4 -> 5: each issue's change in a block of its
-- own, marked "4 -> 5 (#NN)" ... "end 4 -> 5 (#NN)".  Run by
-- lib/store/store.c (migrations); the layout rule is in lib/sql/README.
-- The anr_dump view's text lands in sqlite_master as written: databases
-- are compared, so it never changes (tests/cli/schema-version.test).

-- 4 -> 5 (#30): which rule named a block's group; a group of a block
-- without key frame is named from its message (gd_group_fallback, the
-- registered SQL function gd_group_fallback)
ALTER TABLE block ADD COLUMN grp_rule TEXT;
UPDATE block SET grp_rule = 'key_frame' WHERE key_frame IS NOT NULL;
UPDATE block SET grp = gd_group_fallback((SELECT m.text FROM dispatch d JOIN message m
    ON m.id = d.message WHERE d.id = block.dispatch)),
  grp_rule = gd_group_fallback_rule((SELECT m.text FROM dispatch d JOIN message m
    ON m.id = d.message WHERE d.id = block.dispatch))
  WHERE key_frame IS NULL;
-- end 4 -> 5 (#30)

-- 4 -> 5 (#29): the build a trace was tagged with (godeye ingest --set build=)
ALTER TABLE trace ADD COLUMN build TEXT;
-- end 4 -> 5 (#29)

-- 4 -> 5 (#32): the trace says whether its figures come from sampling
ALTER TABLE trace ADD COLUMN sampled INTEGER NOT NULL DEFAULT 0;
-- end 4 -> 5 (#32)

-- 4 -> 5 (#26): thread states
CREATE TABLE thread_state (id INTEGER PRIMARY KEY, trace INTEGER NOT NULL REFERENCES trace(id),
  pid INTEGER, tid INTEGER NOT NULL, ts_ms REAL NOT NULL, dur_ms REAL, state TEXT, io_wait INTEGER,
  blocked_function TEXT, cpu INTEGER, waker_tid INTEGER);
CREATE INDEX thread_state_at ON thread_state (trace, tid, ts_ms);
CREATE TABLE binder_txn (id INTEGER PRIMARY KEY, trace INTEGER NOT NULL REFERENCES trace(id),
  client_pid INTEGER, client_tid INTEGER NOT NULL, ts_ms REAL NOT NULL, dur_ms REAL,
  server_pid INTEGER, server_tid INTEGER, server_ts_ms REAL, server_dur_ms REAL,
  oneway INTEGER NOT NULL, code INTEGER, flags INTEGER, txn_id INTEGER);
CREATE INDEX binder_txn_client ON binder_txn (trace, client_tid, ts_ms);
CREATE INDEX binder_txn_server ON binder_txn (trace, server_tid, server_ts_ms);
-- end 4 -> 5 (#26)

-- 4 -> 5 (#27): frames say their source; FrameTimeline frames keep their
-- jank; launches keep their time to full display
ALTER TABLE frame_time ADD COLUMN source TEXT;
ALTER TABLE frame_time ADD COLUMN jank INTEGER;
ALTER TABLE frame_time ADD COLUMN present INTEGER;
ALTER TABLE frame_time ADD COLUMN token INTEGER;
ALTER TABLE startup ADD COLUMN ttfd_ms REAL;
-- end 4 -> 5 (#27)

-- 4 -> 5 (#28): the anr_dump view (the rule of which dump is an ANR)
CREATE VIEW anr_dump AS SELECT i.id AS id, i.trace AS trace, e.ts_ms AS ts_ms, e.pid AS pid,
  json_extract(i.content, '$.process') AS process, json_extract(i.content, '$.section') AS section,
  json_extract(i.content, '$.index') AS dump_index, json_extract(i.content, '$.subject') AS subject,
  CASE WHEN json_extract(i.content, '$.index') IS NOT 0 THEN 0
  WHEN json_extract(i.content, '$.section') IN ('at_last_anr', 'anr_file') THEN 1
  WHEN json_extract(i.content, '$.section') = 'traces_file' AND NOT EXISTS (SELECT 1 FROM issue i2
  JOIN raw_event e2 ON e2.id = i2.id WHERE i2.trace = i.trace AND i2.tool = 'anr' AND i2.type = 'anr_dump'
  AND i2.id <> i.id AND e2.pid IS e.pid AND json_extract(i2.content, '$.section') = 'traces_file') THEN 1
  ELSE 0 END AS anr
  FROM issue i JOIN raw_event e ON e.id = i.id WHERE i.tool = 'anr' AND i.type = 'anr_dump';
-- end 4 -> 5 (#28)
