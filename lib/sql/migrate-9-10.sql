-- migrate-9-10.sql - schema 9 -> 10: each issue's change in a block of its
-- own, marked "9 -> 10 (#NN)" ... "end 9 -> 10 (#NN)".  Run by
-- lib/store/store.c (migrations); the layout rule is in lib/sql/README.

-- #50
-- 9 -> 10 (#50, log lines): a trace's log lines are found by their trace
-- (rm, the exposure of a trace with an ANR dump, the ANR context's span),
-- not by reading every trace's.
CREATE INDEX log_line_trace ON log_line (trace, ts_ms);
-- end 9 -> 10 (#50, log lines)
