-- migrate-6-7.sql - schema 6 -> 7: each issue's change in a block of its
-- own, marked "6 -> 7 (#NN)" ... "end 6 -> 7 (#NN)".  Run by
-- lib/store/store.c (migrations); the layout rule is in lib/sql/README.

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
