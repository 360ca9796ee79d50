-- migrate-5-6.sql - schema 5 -> 6: each issue's change in a block of its
-- own, marked "5 -> 6 (#NN)" ... "end 5 -> 6 (#NN)".  Run by
-- lib/store/store.c (migrations), which then runs trace-exposure.sql over
-- every trace; the layout rule is in lib/sql/README.

-- 5 -> 6 (#26): where a stack sample comes from: 'perf_sample' or
-- 'streaming_profile' (Perfetto CPU profiles), else the reader's name;
-- rows of older versions get their trace's format
ALTER TABLE sample ADD COLUMN source TEXT;
UPDATE sample SET source = (SELECT t.format FROM trace t WHERE t.id = sample.trace);
-- end 5 -> 6 (#26)

-- 5 -> 6 (#27): a trace launch's phases and main-thread states
CREATE TABLE startup_phase (id INTEGER PRIMARY KEY, startup INTEGER NOT NULL REFERENCES startup(id),
  phase TEXT NOT NULL, ts_ms REAL NOT NULL, dur_ms REAL NOT NULL, slices INTEGER NOT NULL,
  running_ms REAL, runnable_ms REAL, sleeping_ms REAL, blocked_ms REAL);
CREATE INDEX startup_phase_of ON startup_phase (startup, ts_ms);
-- end 5 -> 6 (#27)

-- 5 -> 6 (#26): binder calls keep their AIDL name and their failure
ALTER TABLE binder_txn ADD COLUMN aidl_name TEXT;
ALTER TABLE binder_txn ADD COLUMN reply_status TEXT;
-- end 5 -> 6 (#26)

-- 5 -> 6 (#28): log lines kept as rows (godeye anr --context)
CREATE TABLE log_line (id INTEGER PRIMARY KEY, trace INTEGER NOT NULL REFERENCES trace(id),
  ts_ms REAL NOT NULL, pid INTEGER, tid INTEGER, level TEXT, tag TEXT, msg TEXT);
CREATE INDEX log_line_at ON log_line (pid, ts_ms);
-- end 5 -> 6 (#28)

-- 5 -> 6 (#26b): a binder call names its server process
ALTER TABLE binder_txn ADD COLUMN server_process TEXT;
-- end 5 -> 6 (#26b)

-- 5 -> 6 (#30): a trace's exposure, the divisor of the per-minute figures;
-- filled by trace-exposure.sql (the rule's one home), which store.c runs
-- after this file
ALTER TABLE trace ADD COLUMN exposure_ms REAL NOT NULL DEFAULT 0;
-- end 5 -> 6 (#30)
