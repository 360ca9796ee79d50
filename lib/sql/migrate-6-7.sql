-- migrate-6-7.sql - schema 6 -> 7: each issue's change in a block of its
-- own, marked "6 -> 7 (#NN)" ... "end 6 -> 7 (#NN)".  Run by
-- lib/store/store.c (migrations), which then runs binder-outermost.sql
-- over every trace and trace-exposure.sql; the layout rule is in lib/sql/README.

-- 6 -> 7 (#53 item 6): a synchronous binder call says whether it is
-- outermost (ends after every earlier call of its client thread), and
-- the outermost calls are indexed, so that a block's binder time is found
-- without walking every earlier call of its thread; filled by
-- binder-outermost.sql (the rule's one home), which store.c runs after
-- this file
ALTER TABLE binder_txn ADD COLUMN outermost INTEGER;
CREATE INDEX binder_txn_outermost ON binder_txn (trace, client_tid, ts_ms) WHERE outermost = 1;
-- end 6 -> 7 (#53 item 6)

-- 6 -> 7 (#51): a launch is its total (intent to first frame); the drawn
-- activity's own figure, where the tool prints it apart, is kept beside it
ALTER TABLE startup ADD COLUMN activity_ms REAL;
-- end 6 -> 7 (#51)

-- 6 -> 7 (#51): a trace's dense span (its times less a prefix before the
-- clock was set and lone outliers; lib/analysis/span.h), what it left out,
-- and the exposure taken from it (lib/sql/trace-exposure.sql, which
-- store.c runs after this file; older rows have no dense span: NULL, and
-- the statement gives them the exposure they had)
ALTER TABLE trace ADD COLUMN span_start_ms REAL;
ALTER TABLE trace ADD COLUMN span_end_ms REAL;
ALTER TABLE trace ADD COLUMN span_left_out TEXT;
-- end 6 -> 7 (#51)

-- 6 -> 7 (#51 item 1): a gfxinfo framestats row's Flags and its platform
-- jank (JankTracker: GpuCompleted at or after FrameDeadline, the deadline
-- one interval later while buffers are stuffed; Flags 4 SurfaceCanvas
-- exempt), NULL where the capture has no deadline and for older rows
ALTER TABLE frame_time ADD COLUMN flags INTEGER;
ALTER TABLE frame_time ADD COLUMN deadline_missed INTEGER;
-- end 6 -> 7 (#51 item 1)
