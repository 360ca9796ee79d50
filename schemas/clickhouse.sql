-- clickhouse.sql - the ClickHouse tables `godeye push` fills (godeye-push(1)).
--
-- Written for ClickHouse 18.16 (Debian 12's clickhouse-server) and later:
-- no LowCardinality, no input defaults, Dates sent as 'YYYY-MM-DD'.
-- `godeye push` runs each statement below (they are separated by ";" at the
-- end of a line) before sending rows; all are CREATE ... IF NOT EXISTS.
--
-- Keys: trace_uid is the capture's content hash (godeye's integer trace ids
-- differ from one database to the next); seq numbers a trace's rows of one
-- table in ingest order.  Every table is a ReplacingMergeTree whose sorting
-- key ends with (trace_uid, seq), so copies of a row sent twice collapse on
-- merges (SELECT ... FINAL sees them collapsed at once); `godeye push` also
-- skips traces whose `traces` row is already there (with the same tags;
-- other tags: it deletes the trace's rows, `traces` last, then sends it),
-- and sends that row last, so a trace is in `traces` only once all its
-- rows were accepted.
--
-- Partitions are days (of each row's own time); the sorting keys serve the
-- usual questions: per app and version over time, per block group.

CREATE TABLE IF NOT EXISTS traces (
  trace_uid     String,
  day           Date,
  app           String,
  version_name  String,
  version_code  Nullable(Int64),
  device        String,
  api_level     Nullable(Int32),
  cpu_cores     Nullable(Int32),
  session       String,
  source        String,
  format        String,
  start_ms      Nullable(Float64),
  end_ms        Nullable(Float64),
  events        UInt64,
  skipped       UInt64,
  short_ms      Float64,
  long_ms       Float64,
  anr_ms        Float64,
  meta          String,
  pushed_at     DateTime,
  -- the build tag (ingest --set build=); tables made before it:
  -- ALTER TABLE traces ADD COLUMN build String DEFAULT ''
  build         String DEFAULT '',
  -- the time the capture watched the app, the divisor of the gate's
  -- per-minute figures (godeye-schema(7) trace.exposure_ms); tables made
  -- before it, whose rows then count their span (push names this ALTER):
  -- ALTER TABLE traces ADD COLUMN exposure_ms Float64
  --   DEFAULT greatest(ifNull(end_ms - start_ms, 0), 0)
  exposure_ms   Float64 DEFAULT greatest(ifNull(end_ms - start_ms, 0), 0),
  -- #47: every name a process of the trace is known by (the trace's app,
  -- ANR dumps' processes, launches' apps, process main threads: what
  -- --app matches a trace by); tables made before it:
  -- ALTER TABLE traces ADD COLUMN processes Array(String) DEFAULT emptyArrayString()
  processes     Array(String) DEFAULT emptyArrayString()
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, trace_uid);

CREATE TABLE IF NOT EXISTS dispatches (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  pid           Int32,
  tid           Int32,
  start_ms      Float64,
  dur_ms        Float64,
  thread_ms     Nullable(Float64),
  unfinished    UInt8,
  handler       String,
  callback      String,
  what          String,
  msg           String
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, trace_uid, seq);

-- seq is the block's dispatch's seq.
CREATE TABLE IF NOT EXISTS blocks (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  pid           Int32,
  tid           Int32,
  start_ms      Float64,
  duration_ms   Float64,
  thread_ms     Nullable(Float64),
  kind          String,
  unfinished    UInt8,
  cpu_busy      Nullable(UInt8),
  samples       UInt32,
  key_frame     String,
  grp           String,
  msg           String,
  blame         String,
  -- the rule that named grp (godeye-blocks(1), GROUPS); tables made before it:
  -- ALTER TABLE blocks ADD COLUMN grp_rule String DEFAULT ''
  grp_rule      String DEFAULT '',
  -- the block's "why" (godeye-blocks(1) fields, unrounded): ms in each
  -- thread state, with scheduling data at all, in binder and lock waits;
  -- NULL where the trace has no such data.  Tables made before them:
  -- ALTER TABLE blocks ADD COLUMN running_ms Nullable(Float64), ADD COLUMN runnable_ms Nullable(Float64), ADD COLUMN sleeping_ms Nullable(Float64), ADD COLUMN uninterruptible_ms Nullable(Float64), ADD COLUMN states_covered_ms Nullable(Float64), ADD COLUMN binder_ms Nullable(Float64), ADD COLUMN lock_ms Nullable(Float64)
  running_ms    Nullable(Float64),
  runnable_ms   Nullable(Float64),
  sleeping_ms   Nullable(Float64),
  uninterruptible_ms Nullable(Float64),
  states_covered_ms  Nullable(Float64),
  binder_ms     Nullable(Float64),
  lock_ms       Nullable(Float64),
  -- #47: the block's process (its dispatch's pid named as godeye-blocks(1)
  -- names it; '' unknown), what --app keeps; tables made before it:
  -- ALTER TABLE blocks ADD COLUMN process String DEFAULT ''
  process       String DEFAULT ''
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, grp, version_name, trace_uid, seq);

-- One row per (trace, group): godeye's block groups of that trace.
-- Percentiles across a fleet come from `blocks` (quantile(0.95)(duration_ms)).
CREATE TABLE IF NOT EXISTS block_groups (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  grp           String,
  key_frame     String,
  count         UInt64,
  total_ms      Float64,
  max_ms        Float64
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, grp, version_name, trace_uid, seq);

-- frames: innermost first, as StackTraceElement.toString() prints them.
CREATE TABLE IF NOT EXISTS stack_samples (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  pid           Int32,
  tid           Int32,
  ts_ms         Float64,
  state         String,
  frames        Array(String)
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, trace_uid, seq);

-- Events of kinds godeye keeps as capture-format JSON (its raw_event rows:
-- issues, marks, frame summaries); pages, view dumps, images and frames
-- have tables of their own (pages, overdraw, image_issues, frames).
CREATE TABLE IF NOT EXISTS events (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  kind          String,
  ts_ms         Nullable(Float64),
  pid           Nullable(Int32),
  tid           Nullable(Int32),
  json          String
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, kind, version_name, trace_uid, seq);

-- Frames (capture frame events, gfxinfo PROFILEDATA rows, Perfetto's
-- FrameTimeline frames and doFrame slices: godeye's frame_time rows, all of
-- them); times in ms.
CREATE TABLE IF NOT EXISTS frames (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  pid           Nullable(Int32),
  ts_ms         Float64,
  dur_ms        Float64,
  window        String,
  vsync_ms      Nullable(Float64),
  -- frametimeline, displayframe (SurfaceFlinger's, #51), doframe or ''
  -- (godeye-frames(1)); added in schema 6: a server with the older table
  -- needs ALTER TABLE frames ADD COLUMN source String
  source        String,
  -- #47: the frames' process (godeye-frames(1) PROCESS; '' unknown), what
  -- --app keeps; tables made before it:
  -- ALTER TABLE frames ADD COLUMN process String DEFAULT ''
  process       String DEFAULT '',
  -- 1: a FrameTimeline frame that never reached the screen (its jank_type
  -- has Dropped Frame; push writes it by godeye's own rule,
  -- GD_SQL_FRAME_TIMED), counted among the frames, its duration in no
  -- figure (not slow, not frozen, not the max), as `godeye frames`, report
  -- and top leave it out; 0 any other frame.  Tables made before it, whose
  -- rows then count every duration as the fleet did then:
  -- ALTER TABLE frames ADD COLUMN dropped UInt8 DEFAULT 0
  dropped       UInt8 DEFAULT 0
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, window, trace_uid, seq);

-- App launches (godeye startup); slow: at or over Android vitals' bar of
-- its kind (cold 5000, warm 2000, hot 1500 ms), null for an unknown kind.
CREATE TABLE IF NOT EXISTS startups (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  launched_app  String,
  activity      String,
  kind          String,
  total_ms      Float64,
  wait_ms       Nullable(Float64),
  source        String,
  ts_ms         Nullable(Float64),
  slow          Nullable(UInt8)
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, kind, trace_uid, seq);

-- Page instances with their draw and load times (null when missing).
CREATE TABLE IF NOT EXISTS pages (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  page          Nullable(String),
  hash          Nullable(Int64),
  type          Nullable(String),
  parent        Nullable(Int64),
  start_ms      Nullable(Float64),
  draw_ms       Nullable(Float64),
  load_ms       Nullable(Float64),
  events        String
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, trace_uid, seq);

-- Exact overdraw per view dump (px_* null for dumps without paint data).
CREATE TABLE IF NOT EXISTS overdraw (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  dump          Int64,
  page          Nullable(String),
  ts_ms         Nullable(Float64),
  views         Int64,
  max_depth     Int64,
  deep_views    Int64,
  px_1          Nullable(Int64),
  px_2          Nullable(Int64),
  px_3          Nullable(Int64),
  px_4plus      Nullable(Int64),
  overdraw_ratio Nullable(Float64)
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, trace_uid, seq);

-- Image issues (default thresholds), de-duplicated as godeye images does.
-- What godeye's ANR count (godeye-anr(1), #28) reads: each dump (anr = 1
-- when the system took it for an ANR, 0 for a snapshot) with its pid and
-- time, each ANR-kind block with its pid, start, duration and its trace's
-- ANR threshold.  The fleet counts dumps with anr = 1 plus blocks that no
-- such dump of the selection explains (the same condition as the store's).
CREATE TABLE IF NOT EXISTS anrs (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  kind          String,
  anr           UInt8,
  pid           Nullable(Int32),
  ts_ms         Nullable(Float64),
  start_ms      Nullable(Float64),
  dur_ms        Nullable(Float64),
  anr_ms        Nullable(Float64),
  -- #48: a dump's ANR group (godeye-anr(1) --group: its signature, its
  -- type and label, the dump's process; '' where the dump has none; #47: on
  -- a block its dispatch's process, what --app keeps).  Tables made before:
  -- ALTER TABLE anrs ADD COLUMN signature String DEFAULT '', ADD COLUMN type String DEFAULT '',
  --   ADD COLUMN type_label String DEFAULT '', ADD COLUMN process String DEFAULT ''
  signature     String DEFAULT '',
  type          String DEFAULT '',
  type_label    String DEFAULT '',
  process       String DEFAULT ''
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, trace_uid, seq);

-- #52 item 4: each trace's stacks folded, what `godeye diff --stacks
-- --clickhouse` reads (godeye-diff(1) STACKS): one row per (process,
-- path), in the order the trace first reached it, from the same function
-- as the local diff (its method calls' self ms per call path when it has
-- any, else its samples x the trace's sampling interval).  stack: frame
-- keys (line numbers dropped), root first, ';'-joined; ms null for samples
-- without an interval (counted unweighted); count: calls or samples right
-- at that path; process: the rows' process ('' unknown), for --app.  A
-- server made by an older godeye gets the table from the next push (CREATE
-- ... IF NOT EXISTS); traces pushed before it have no rows here.
CREATE TABLE IF NOT EXISTS stack_paths (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  process       String,
  source        String,
  stack         String,
  ms            Nullable(Float64),
  count         UInt64
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, version_name, trace_uid, seq);

CREATE TABLE IF NOT EXISTS image_issues (
  trace_uid     String,
  seq           UInt64,
  day           Date,
  app           String,
  version_name  String,
  page          Nullable(String),
  view_hash     Nullable(Int64),
  issue         String,
  wasted_bytes  Int64,
  count         Int64,
  bitmap_w      Int64,
  bitmap_h      Int64,
  view_w        Int64,
  view_h        Int64,
  ts_ms         Float64
) ENGINE = ReplacingMergeTree
PARTITION BY day
ORDER BY (app, issue, version_name, trace_uid, seq);

-- A sharded cluster (not run by `godeye push`): create the tables above in a
-- database `godeye_local` on every shard (ON CLUSTER; Replicated* engines for
-- replicas), then, in the database `fleet`, one Distributed table of the same
-- name over each, sharded by trace so that a trace's rows stay on one shard
-- and ReplacingMergeTree can collapse its copies.  `godeye push --database
-- fleet` then finds its tables there (IF NOT EXISTS leaves them alone).
--
-- CREATE TABLE fleet.traces AS godeye_local.traces
--   ENGINE = Distributed(fleet, godeye_local, traces, cityHash64(trace_uid));
-- CREATE TABLE fleet.dispatches AS godeye_local.dispatches
--   ENGINE = Distributed(fleet, godeye_local, dispatches, cityHash64(trace_uid));
-- CREATE TABLE fleet.blocks AS godeye_local.blocks
--   ENGINE = Distributed(fleet, godeye_local, blocks, cityHash64(trace_uid));
-- CREATE TABLE fleet.block_groups AS godeye_local.block_groups
--   ENGINE = Distributed(fleet, godeye_local, block_groups, cityHash64(trace_uid));
-- CREATE TABLE fleet.stack_samples AS godeye_local.stack_samples
--   ENGINE = Distributed(fleet, godeye_local, stack_samples, cityHash64(trace_uid));
-- CREATE TABLE fleet.events AS godeye_local.events
--   ENGINE = Distributed(fleet, godeye_local, events, cityHash64(trace_uid));
