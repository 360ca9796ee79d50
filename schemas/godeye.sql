-- godeye.sql - the SQLite store, schema version 10 (PRAGMA user_version).
-- An older database is brought up to date on its first write
-- (lib/store/store.c: migrations): 1 -> 2 trace.clock, trace.utc_offset_min
-- and the startup table; 2 -> 3 the issue, issue_fps, mark, frame_summary
-- and frame_figure tables, filled from the raw_event rows.
--
-- Stable for `godeye sql` users: tables and columns below are only added to,
-- never renamed, within a major version.  Times are epoch milliseconds
-- (REAL), durations milliseconds.  Documented in godeye-schema(7).

-- One row per ingested input (file, folder, URL or stdin).
CREATE TABLE trace (
  id            INTEGER PRIMARY KEY,
  source        TEXT NOT NULL,          -- path or URL as given
  format        TEXT NOT NULL,          -- detected reader name
  hash          TEXT NOT NULL UNIQUE,   -- content hash: re-ingest is a no-op
  app           TEXT,
  version_name  TEXT,
  version_code  INTEGER,
  device        TEXT,
  api_level     INTEGER,
  cpu_cores     INTEGER,
  pid           INTEGER,
  main_tid      INTEGER,
  session       TEXT,
  clk_tck       INTEGER,
  clock         TEXT,                   -- what the times are: 'utc', 'local' (device wall
                                        -- clock, no zone), 'monotonic' (since boot) or NULL
  utc_offset_min INTEGER,               -- the capture's own zone when known (minutes east)
  short_ms      REAL NOT NULL,          -- block thresholds in force at ingest
  long_ms       REAL NOT NULL,
  anr_ms        REAL NOT NULL,
  dump_interval_ms REAL,
  max_depth     INTEGER,
  concern       TEXT,                   -- JSON array of package prefixes
  meta          TEXT,                   -- the capture's meta as JSON
  start_ms      REAL,
  end_ms        REAL,
  events        INTEGER NOT NULL DEFAULT 0,
  skipped       INTEGER NOT NULL DEFAULT 0,
  ingested_at   TEXT NOT NULL,
  build         TEXT,                   -- the build tag (ingest --set build=), or NULL
  sampled       INTEGER NOT NULL DEFAULT 0, -- 1: recorded by sampling (an ART trace of
                                        -- Debug.startMethodTracingSampling): its call
                                        -- counts and times are estimates
  exposure_ms   REAL NOT NULL DEFAULT 0, -- the time the capture watched the app, the divisor
                                        -- of every per-minute figure: end_ms - start_ms
                                        -- (0 without a span), but a trace holding ANR
                                        -- dumps as well as dispatches or log lines (a
                                        -- bugreport) spans those alone (#30); both
                                        -- within the dense span (#51)
  span_start_ms REAL,                   -- #51: the dense span: the trace's times (events
  span_end_ms   REAL,                   -- and log lines) less a prefix before the clock
                                        -- was set and lone outliers (lib/analysis/span.h)
  span_left_out TEXT                    -- what the dense span left out, as said, or NULL
);

-- What a reader or the store dropped or ignored, by stable reason.
CREATE TABLE ingest_stat (
  trace      INTEGER NOT NULL REFERENCES trace(id),
  reason     TEXT NOT NULL,
  count      INTEGER NOT NULL,
  first_line INTEGER,
  PRIMARY KEY (trace, reason)
) WITHOUT ROWID;

-- #51 (schema 9): pid NULL is a thread whose process the trace never gives
-- (Perfetto's thread table: upid NULL); one such row per (trace, tid).
CREATE TABLE thread (
  trace INTEGER NOT NULL REFERENCES trace(id),
  pid   INTEGER,                        -- its process, NULL when the trace never gives it
  tid   INTEGER NOT NULL,
  name  TEXT,
  UNIQUE (trace, pid, tid)
);
CREATE UNIQUE INDEX thread_unknown_process ON thread (trace, tid) WHERE pid IS NULL;

-- Looper message texts and what was parsed from them, shared by the
-- dispatches of one ingest that carry the same text (an ingest remembers
-- the rows it wrote in a fixed-size table of text hashes, 16 MiB, 4-way
-- buckets, and confirms a hit by reading the row's text by id).  There is
-- no index on the text: nearly every text is distinct (it names object
-- instances), and a lookup index cost a random insert per dispatch; a text
-- may therefore have more than one row (one per ingest that saw it, or when
-- more than ~1M distinct texts pushed it out), which no query depends on:
-- dispatches refer to rows by id.
CREATE TABLE message (
  id       INTEGER PRIMARY KEY,
  text     TEXT NOT NULL,
  handler  TEXT,      -- "android.view.Choreographer$FrameHandler"
  callback TEXT,      -- "android.view.Choreographer$FrameDisplayEventReceiver@9f8e7d6"
  what     TEXT       -- "0"
);

-- Every paired main-looper (or other looper) message.
CREATE TABLE dispatch (
  id         INTEGER PRIMARY KEY,
  trace      INTEGER NOT NULL REFERENCES trace(id),
  pid        INTEGER NOT NULL,
  tid        INTEGER NOT NULL,
  start_ms   REAL NOT NULL,
  dur_ms     REAL NOT NULL,
  thread_ms  REAL,
  unfinished INTEGER NOT NULL DEFAULT 0,
  message    INTEGER REFERENCES message(id)
);

-- Interned stack frames and callsites: a callsite is a frame under its
-- parent callsite (outermost frame at depth 1); a sample points at the
-- innermost callsite of its stack.
CREATE TABLE frame (
  id   INTEGER PRIMARY KEY,
  text TEXT NOT NULL UNIQUE
);

CREATE TABLE callsite (
  id     INTEGER PRIMARY KEY,
  parent INTEGER NOT NULL,              -- 0 for an outermost frame
  frame  INTEGER NOT NULL REFERENCES frame(id),
  depth  INTEGER NOT NULL,
  UNIQUE (parent, frame)
);

CREATE TABLE sample (
  id       INTEGER PRIMARY KEY,
  trace    INTEGER NOT NULL REFERENCES trace(id),
  pid      INTEGER NOT NULL,
  tid      INTEGER NOT NULL,
  ts_ms    REAL NOT NULL,
  callsite INTEGER NOT NULL REFERENCES callsite(id),
  state    TEXT,                        -- thread state (ANR dumps) or NULL
  source   TEXT                         -- 'perf_sample', 'streaming_profile' (Perfetto CPU
                                        -- profiles), else the reader's name (trace.format)
);

-- CPU samples: raw jiffies when the capture had /proc lines, and ratios
-- (0..1) either given or derived from the delta to the previous sample.
CREATE TABLE cpu (
  id        INTEGER PRIMARY KEY,
  trace     INTEGER NOT NULL REFERENCES trace(id),
  ts_ms     REAL NOT NULL,
  busy      INTEGER,                    -- cumulative jiffies
  total     INTEGER,
  app       INTEGER,
  user_j    INTEGER, nice_j INTEGER, system_j INTEGER, idle_j INTEGER,
  iowait_j  INTEGER, irq_j INTEGER, softirq_j INTEGER,
  total_ratio  REAL,
  app_ratio    REAL,
  user_ratio   REAL,
  sys_ratio    REAL,
  iowait_ratio REAL
);

CREATE TABLE memory (
  id            INTEGER PRIMARY KEY,
  trace         INTEGER NOT NULL REFERENCES trace(id),
  ts_ms         REAL NOT NULL,
  heap_free_kb  INTEGER, heap_max_kb INTEGER, heap_alloc_kb INTEGER,
  pss_total_kb  INTEGER, pss_dalvik_kb INTEGER, pss_native_kb INTEGER, pss_other_kb INTEGER,
  ram_avail_kb  INTEGER, ram_total_kb INTEGER, ram_low_threshold_kb INTEGER,
  ram_is_low    INTEGER
);

-- Block details of every dispatch at or past its trace's short threshold,
-- derived at ingest (and recomputed on the fly for lower thresholds).
CREATE TABLE block (
  dispatch  INTEGER PRIMARY KEY REFERENCES dispatch(id),
  trace     INTEGER NOT NULL REFERENCES trace(id),
  dur_ms    REAL NOT NULL,                -- the dispatch's, kept here for groups
  samples   INTEGER NOT NULL,
  key_frame TEXT,
  grp       TEXT,                       -- key frame without its line number, else the fallback
  cpu_busy  INTEGER,                    -- 1, 0 or NULL (unknown)
  memory    INTEGER REFERENCES memory(id),  -- snapshot nearest to the end
  blame     TEXT,                       -- method blamed from method traces
  grp_rule  TEXT,                       -- which rule named grp: key_frame, handler, slice; NULL none
  pid       INTEGER                     -- the dispatch's, kept here for groups (#50, schema 10)
);

-- Events of kinds that have no table of their own yet, as capture-format JSON;
-- also every issue, mark and frame summary as read (their time, pid and tid
-- are here; their fields in issue, mark and frame_summary, same id).
CREATE TABLE raw_event (
  id    INTEGER PRIMARY KEY,
  trace INTEGER NOT NULL REFERENCES trace(id),
  kind  TEXT NOT NULL,
  ts_ms REAL,
  pid   INTEGER,
  tid   INTEGER,
  json  TEXT NOT NULL
);

-- Only dispatches of a frame or longer (dur_ms >= 16, GD_DUR_INDEXED_MS in
-- lib/store/store_int.h): the blocks listing never asks for shorter ones
-- through the index, and the short majority (~90% of a typical capture)
-- costs no random index insert at ingest.
CREATE INDEX dispatch_dur ON dispatch (dur_ms) WHERE dur_ms >= 16;
CREATE INDEX dispatch_trace ON dispatch (trace, pid, tid, start_ms);
CREATE INDEX sample_at ON sample (trace, tid, ts_ms);
CREATE INDEX cpu_at ON cpu (trace, ts_ms);
CREATE INDEX memory_at ON memory (trace, ts_ms);
CREATE INDEX block_trace ON block (trace);
CREATE INDEX block_grp ON block (grp, dur_ms, trace, pid);  -- groups: one ordered scan, covered
CREATE INDEX raw_event_kind ON raw_event (trace, kind, ts_ms);

-- Page lifecycle callbacks, one row per callback; page timelines are
-- rebuilt from them at query time (godeye pages).
CREATE TABLE page_event (
  id         INTEGER PRIMARY KEY,
  trace      INTEGER NOT NULL REFERENCES trace(id),
  page_type  TEXT,                      -- activity / fragment
  page_class TEXT,
  page_hash  INTEGER,
  parent     INTEGER,                   -- hosting activity's hash (fragments)
  event      TEXT NOT NULL,             -- ON_CREATE, ...
  ts_ms      REAL NOT NULL,
  end_ms     REAL                       -- callback exit when instrumented
);
CREATE INDEX page_event_page ON page_event (trace, page_class, page_hash, ts_ms);

-- One view tree, with its exact overdraw computed at ingest.
CREATE TABLE view_dump (
  id            INTEGER PRIMARY KEY,
  trace         INTEGER NOT NULL REFERENCES trace(id),
  ts_ms         REAL,
  page_class    TEXT,
  page_hash     INTEGER,
  window        TEXT,
  screen_w      INTEGER,
  screen_h      INTEGER,
  views         INTEGER NOT NULL,
  max_depth     INTEGER NOT NULL,      -- root = depth 1
  depth_limit   INTEGER NOT NULL,      -- meta.config.max_depth or 10
  deep_views    TEXT,                  -- JSON array of view ids past the limit
  has_paint     INTEGER NOT NULL,      -- 0: bounds only, no overdraw figures
  px_1          INTEGER, px_2 INTEGER, px_3 INTEGER, px_4plus INTEGER,
  overdraw_ratio REAL,                 -- sum(area x times) / screen area
  areas         TEXT,                  -- JSON [{"rect":[l,t,r,b],"times":n}]
  areas_truncated INTEGER NOT NULL DEFAULT 0,
  broken        TEXT                   -- why the tree is broken, or NULL
);
CREATE INDEX view_dump_trace ON view_dump (trace, ts_ms);

CREATE TABLE view (
  dump    INTEGER NOT NULL REFERENCES view_dump(id),
  id      INTEGER NOT NULL,
  parent  INTEGER NOT NULL,
  class   TEXT,
  l INTEGER, t INTEGER, r INTEGER, b INTEGER,
  layers  INTEGER,
  visible INTEGER NOT NULL,
  res_id  TEXT,
  text    TEXT,
  PRIMARY KEY (dump, id)
) WITHOUT ROWID;

-- Bitmap observations; issues are judged at query time (thresholds vary).
CREATE TABLE image (
  id          INTEGER PRIMARY KEY,
  trace       INTEGER NOT NULL REFERENCES trace(id),
  ts_ms       REAL NOT NULL,
  page_class  TEXT,
  page_hash   INTEGER,
  view_hash   INTEGER,
  view_class  TEXT,
  view_w      INTEGER, view_h INTEGER,
  visible     INTEGER NOT NULL,
  bitmap_w    INTEGER NOT NULL, bitmap_h INTEGER NOT NULL,
  config      TEXT,
  source      TEXT
);
CREATE INDEX image_trace ON image (trace);

-- Rendered frames (capture frame events, gfxinfo PROFILEDATA rows).
CREATE TABLE frame_time (
  id       INTEGER PRIMARY KEY,
  trace    INTEGER NOT NULL REFERENCES trace(id),
  pid      INTEGER,
  ts_ms    REAL NOT NULL,
  dur_ms   REAL NOT NULL,
  window   TEXT,
  vsync_ms REAL,
  -- #27: where the frame comes from: 'frametimeline' (a Perfetto
  -- FrameTimeline actual surface frame), 'displayframe' (#51: its actual
  -- display frame, SurfaceFlinger's), 'doframe' (a Choreographer#doFrame
  -- slice), NULL (capture frame events, gfxinfo rows)
  source   TEXT,
  jank     INTEGER,                     -- FrameTimeline jank_type bitmask, or NULL
  present  INTEGER,                     -- FrameTimeline present_type, or NULL
  token    INTEGER,                     -- surface (or display) frame token, or NULL
  -- #51 (schema 7): a gfxinfo framestats row's Flags (0 for other frames),
  -- and whether it missed its deadline as the platform's JankTracker judges
  -- (1 missed, 0 met or exempt: Flags 4 SurfaceCanvas), NULL where the
  -- capture has no deadline (FrameTimeline frames count theirs from jank)
  flags    INTEGER,
  deadline_missed INTEGER
);
CREATE INDEX frame_time_trace ON frame_time (trace, window, ts_ms);
-- Interned instrumented methods (method traces: godeye enter/exit events,
-- AndroidGodEye methodCanary, Matrix evil-method stacks).
CREATE TABLE method (
  id    INTEGER PRIMARY KEY,
  class TEXT NOT NULL,                  -- dotted: "com.example.Foo$Bar"
  name  TEXT NOT NULL,                  -- "bind"
  desc  TEXT                            -- JVM descriptor "(I)V" or NULL
);
CREATE UNIQUE INDEX method_key ON method (class, name, ifnull(desc, ''));

-- One row per method call, rebuilt per thread at ingest.  Self time =
-- total (end - start) minus the children's totals.
CREATE TABLE call (
  id       INTEGER PRIMARY KEY,
  trace    INTEGER NOT NULL REFERENCES trace(id),
  pid      INTEGER NOT NULL,
  tid      INTEGER NOT NULL,
  depth    INTEGER NOT NULL,            -- 0 for a thread's outermost calls
  parent   INTEGER REFERENCES call(id), -- NULL at depth 0
  method   INTEGER NOT NULL REFERENCES method(id),
  start_ms REAL NOT NULL,
  end_ms   REAL NOT NULL,               -- the recording's end when open
  self_ms  REAL NOT NULL,
  open     INTEGER NOT NULL DEFAULT 0,  -- 1: still running when it stopped
  rec      INTEGER NOT NULL DEFAULT 0   -- 1: inside a call of the same method
);
-- "what ran during this block": calls of a thread by start time
CREATE INDEX call_at ON call (trace, pid, tid, start_ms);
CREATE INDEX call_method ON call (method, tid);

-- One app launch as a tool measured it (logcat "Displayed", am start -W,
-- Matrix STARTUP / Trace_StartUp, a trace's bindApplication..first frame).
CREATE TABLE startup (
  id       INTEGER PRIMARY KEY,
  trace    INTEGER NOT NULL REFERENCES trace(id),
  app      TEXT,                        -- package; NULL: the trace's app
  activity TEXT,                        -- launched activity or NULL
  kind     TEXT,                        -- cold, warm, hot or NULL (unknown)
  total_ms REAL NOT NULL,               -- the whole launch: intent to first frame (#51)
  wait_ms  REAL,                        -- am start -W WaitTime or NULL
  source   TEXT,                        -- logcat, am_start, matrix, perfetto...
  ts_ms    REAL,                        -- when it was reported, or NULL
  ttfd_ms  REAL,                        -- #27: time to full display (reportFullyDrawn), or NULL
  activity_ms REAL                      -- #51: the drawn activity's own time where the tool
                                        -- prints it apart from the total (Displayed's first
                                        -- figure, *_launch_time's this, ThisTime), or NULL
);
CREATE INDEX startup_trace ON startup (trace, ts_ms);

-- #27: a launch read from a trace's slices, phase by phase (Perfetto's
-- startup breakdown): launch (the whole launch), before_process_start (the
-- launch's start to system_server's "Start proc:"), start_process,
-- bind_application, activity_start, activity_resume, first_frame (the app's
-- first Choreographer#doFrame), fully_drawn (its first reportFullyDrawn),
-- and what ran beside it: dex2oat, installd, broadcast_dispatched,
-- broadcast_received (lib/derive/startups.c phases).  The states are the app
-- main thread's time in thread_state during the phase (NULL: no sched data).
CREATE TABLE startup_phase (
  id          INTEGER PRIMARY KEY,
  startup     INTEGER NOT NULL REFERENCES startup(id),
  phase       TEXT NOT NULL,
  ts_ms       REAL NOT NULL,            -- its first slice's start
  dur_ms      REAL NOT NULL,            -- first phases: that slice; dex2oat...: all of theirs inside the launch
  slices      INTEGER NOT NULL,         -- the slices it counts
  running_ms  REAL,                     -- main thread Running
  runnable_ms REAL,                     -- R, R+
  sleeping_ms REAL,                     -- S
  blocked_ms  REAL                      -- D (uninterruptible, I/O or not)
);
CREATE INDEX startup_phase_of ON startup_phase (startup, ts_ms);

-- Findings as the tools reported them (godeye issues, godeye anr), one row
-- per issue event: id is its raw_event row (time, pid, tid).
CREATE TABLE issue (
  id       INTEGER PRIMARY KEY REFERENCES raw_event(id),
  trace    INTEGER NOT NULL REFERENCES trace(id),
  tool     TEXT,                        -- matrix, anr, android, godeye, blockcanary
  type     TEXT,                        -- the tool's type: Trace_FPS, deadlock...
  detail   TEXT,                        -- subtype, or NULL
  cost_ms  REAL,                        -- or NULL
  content  TEXT                         -- the issue as reported (JSON), or NULL
);
CREATE INDEX issue_trace ON issue (trace, tool);

-- The figures of Matrix Trace_FPS issues (godeye frames, source matrix):
-- frames per drop level (dropLevel) and frames dropped per level (dropSum).
CREATE TABLE issue_fps (
  id       INTEGER PRIMARY KEY REFERENCES issue(id),
  trace    INTEGER NOT NULL REFERENCES trace(id),
  scene    TEXT,                        -- the activity or fragment, or NULL
  fps      REAL,                        -- as reported, or NULL
  best_frames INTEGER, normal_frames INTEGER, middle_frames INTEGER,
  high_frames INTEGER, frozen_frames INTEGER,       -- NULL: not reported
  best_dropped INTEGER, normal_dropped INTEGER, middle_dropped INTEGER,
  high_dropped INTEGER, frozen_dropped INTEGER
);
CREATE INDEX issue_fps_scene ON issue_fps (trace, scene);

-- Named instants of a capture (mark events); id is the raw_event row.
CREATE TABLE mark (
  id       INTEGER PRIMARY KEY REFERENCES raw_event(id),
  trace    INTEGER NOT NULL REFERENCES trace(id),
  name     TEXT
);
CREATE INDEX mark_trace ON mark (trace);

-- gfxinfo summaries as printed (godeye frames --summary); id is the
-- raw_event row (pid).  Their figures, in the printed order, in frame_figure.
CREATE TABLE frame_summary (
  id       INTEGER PRIMARY KEY REFERENCES raw_event(id),
  trace    INTEGER NOT NULL REFERENCES trace(id),
  window   TEXT                         -- NULL: the app-wide summary
);
CREATE INDEX frame_summary_trace ON frame_summary (trace);

CREATE TABLE frame_figure (
  summary  INTEGER NOT NULL REFERENCES frame_summary(id),
  trace    INTEGER NOT NULL REFERENCES trace(id),
  seq      INTEGER NOT NULL,            -- 0, 1, ... as printed
  name     TEXT NOT NULL,               -- "Janky frames", "50th percentile"...
  value    TEXT NOT NULL,               -- as printed: "772 (26.59%)", "9ms"
  PRIMARY KEY (summary, seq)
) WITHOUT ROWID;
CREATE INDEX frame_figure_trace ON frame_figure (trace);

-- #26: one row per scheduling interval of a thread, as Perfetto's
-- thread_state table defines it (from sched_switch, sched_waking,
-- task_newtask, sched_blocked_reason: Perfetto ftrace or systrace text).
-- Written as each interval closes; ts_ms/dur_ms on the trace's clock.
-- #50 (schema 8): clustered by (trace, tid, ts_ms, id), what every query
-- looks up (a thread's states in time order), so a load needs no index
-- sorted after its rows; id numbers a trace's rows in the order written
-- (1, 2, ...; a database migrated from schema 7 keeps its rows' ids).
CREATE TABLE thread_state (
  id               INTEGER NOT NULL,
  trace            INTEGER NOT NULL REFERENCES trace(id),
  pid              INTEGER,             -- the thread's process, NULL when unknown
  tid              INTEGER NOT NULL,
  ts_ms            REAL NOT NULL,
  dur_ms           REAL,                -- NULL: still open when the trace ended (or data lost)
  state            TEXT,                -- 'Running', 'R', 'R+', 'S', 'D', ... NULL: invalid
  io_wait          INTEGER,             -- D: 1 waiting for I/O, 0 not, NULL unknown
  blocked_function TEXT,                -- kernel function it blocked in, when given
  cpu              INTEGER,             -- Running: the CPU
  waker_tid        INTEGER,             -- R: the thread that woke it (0: an interrupt)
  PRIMARY KEY (trace, tid, ts_ms, id)
) WITHOUT ROWID;

-- #26: one row per binder transaction (ftrace binder_transaction and
-- binder_transaction_received, Perfetto or systrace text), written when the
-- client has its reply (or at the end of the trace without one).
CREATE TABLE binder_txn (
  id            INTEGER PRIMARY KEY,
  trace         INTEGER NOT NULL REFERENCES trace(id),
  client_pid    INTEGER,                -- NULL when unknown
  client_tid    INTEGER NOT NULL,
  ts_ms         REAL NOT NULL,          -- the client's call
  dur_ms        REAL,                   -- until its reply arrived; 0 one-way; NULL no reply
  server_pid    INTEGER,                -- the process called (dest_proc)
  server_tid    INTEGER,                -- the thread that served it
  server_ts_ms  REAL,                   -- the server received it (NULL: never)
  server_dur_ms REAL,                   -- until the server replied (0: one-way, received; NULL: no reply)
  oneway        INTEGER NOT NULL,
  code          INTEGER,
  flags         INTEGER,
  txn_id        INTEGER,                -- the kernel's debug id
  aidl_name     TEXT,                   -- "AIDL::java::IPackageManager::getPackageInfo::server": the
                                        -- server thread's AIDL/HIDL slice while it served the call; NULL
  reply_status  TEXT,                   -- the failure the client got (binder_return): 'BR_FAILED_REPLY',
                                        -- 'BR_DEAD_REPLY', 'BR_FROZEN_REPLY', 'BR_TRANSACTION_PENDING_FROZEN'; NULL none
  server_process TEXT,                  -- the name the trace gives server_pid when the call ended (Perfetto's
                                        -- process name: its process tree's or descriptor's, else its main
                                        -- thread's); NULL unknown
  outermost     INTEGER                 -- #53: a synchronous call with a reply: 1 when it ends after every
                                        -- earlier such call of its client thread (by ts_ms, then id), 0 when it
                                        -- ends within one (nested); NULL other calls (lib/sql/binder-outermost.sql)
);
CREATE INDEX binder_txn_client ON binder_txn (trace, client_tid, ts_ms);
CREATE INDEX binder_txn_server ON binder_txn (trace, server_tid, server_ts_ms);
CREATE INDEX binder_txn_outermost ON binder_txn (trace, client_tid, ts_ms) WHERE outermost = 1;

-- #28: the log lines of a logcat, a bugreport's logs or Perfetto android_log
-- packets, one row each: the first 200000 of a trace (the others are counted
-- as skipped, "log_line: past the 200000 lines kept a trace"), each message
-- cut at 1024 bytes.  Not events: no dispatch, no thread row, no part of the
-- trace's span.  godeye anr --context lists them.
-- Clustered by trace and time (#50, version 10; it was a rowid table with
-- an index (pid, ts_ms)): rm's delete, the exposure of a trace with an ANR
-- dump and the ANR context read a trace's lines by the key, never every
-- trace's, and a load writes one B-tree, not two.
CREATE TABLE log_line (
  id     INTEGER NOT NULL,       -- the line's number in its trace (1, 2, ...)
  trace  INTEGER NOT NULL REFERENCES trace(id),
  ts_ms  REAL NOT NULL,          -- the line's time (the carrier's clock)
  pid    INTEGER,                -- NULL when the line has none
  tid    INTEGER,
  level  TEXT,                   -- V D I W E F (or NULL)
  tag    TEXT,
  msg    TEXT,                   -- at most 1024 bytes
  PRIMARY KEY (trace, ts_ms, id)
) WITHOUT ROWID;

-- #28: one row per ANR dump (the "anr_dump" issues of the anr reader) and
-- THE rule of which dump is the one the system took for an ANR (anr = 1):
-- the first dump (dump_index 0) of a "VM TRACES AT LAST ANR" section or of
-- a /data/anr/anr_* record (section at_last_anr, anr_file); the first dump
-- of a traces file of its own (traces_file) unless that file dumps the same
-- pid again (a watchdog's two dumps of system_server); never a bugreport's
-- "VM TRACES JUST NOW" / "WHEN SLOW" snapshot.  godeye-anr(1), godeye-schema(7).
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
