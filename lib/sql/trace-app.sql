-- trace-app.sql - the statement that sets trace.app (#47), the one home of
-- the rule "which app a capture is about", decided from the trace's rows
-- once they are all written: the first of these that names an app's
-- package (gd_app_is_system: never a system process, lib/analysis/app.c):
--   1. the capture format's own app (a godeye capture names the app the
--      user captured, system or not; so does a simpleperf recording, the
--      app its `record --app` named), and any app the reader found
--      (a bugreport's ANR process, else its resumed activity's package;
--      a trace's own package) that is not a system process;
--   2. the process of the trace's ANR (the dump the system took for it);
--   3. the package launched most often (startup rows; the first launch on
--      a tie);
--   4. the process owning the most main-thread dispatches (looper
--      messages, app slices), by its main thread's name;
--   5. the package of the most frames' windows ("PKG/Activity", a
--      FrameTimeline layer "TX - PKG/Activity#N"; the window rule is
--      gd_app_of_window, lib/analysis/app.c, registered by the store);
--   6. the app process whose threads ran longest (thread states: a trace of
--      scheduling data without app slices), by its main thread's name
--      (a process "PKG:svc" counts as PKG).
-- A process named "PKG:svc" found by these rules gives PKG (gd_app_package,
-- lib/analysis/app.c, registered by the store), the capture format's own
-- app is kept as written.
-- Else NULL: a capture of system processes alone names no app.  `ingest
-- --set app=PKG` overrides it (this statement is then not run).  Ingest
-- (lib/ingest/traceinfo.c) runs it with " WHERE id = ?" appended: so no
-- `;` here.  Layout: lib/sql/README.
-- #50: the rules are tried in turn, the first that names an app is it
-- (coalesce evaluates its arguments in order and stops at the first not
-- NULL): a godeye capture, which names its app, runs none of the row
-- scans (rule 4 alone read every dispatch of the trace: 68 M instructions
-- of a 15k-dispatch ingest's 837 M).  Rules 2 to 6 keep only a non-system
-- name, so each gives NULL or its package.  Rule 4 counts a process's
-- dispatches first (the index dispatch_trace covers it) and looks its main
-- thread up once (a thread row is unique by trace, pid, tid), not once
-- per dispatch.

UPDATE trace SET app = coalesce(
    CASE WHEN trace.format IN ('godeye', 'simpleperf') THEN nullif(trace.app, '')
      WHEN NOT gd_app_is_system(trace.app) THEN gd_app_package(trace.app) END,
    gd_app_package((SELECT v.process FROM anr_dump v WHERE v.trace = trace.id AND v.anr = 1
      AND NOT gd_app_is_system(v.process) ORDER BY v.ts_ms, v.id LIMIT 1)),
    gd_app_package((SELECT st.app FROM startup st WHERE st.trace = trace.id AND st.app IS NOT NULL
      AND NOT gd_app_is_system(st.app) GROUP BY st.app ORDER BY count(*) DESC, min(st.id) LIMIT 1)),
    gd_app_package((SELECT th.name FROM (SELECT d.pid AS pid, count(*) AS n FROM dispatch d
        WHERE d.trace = trace.id AND d.tid = d.pid GROUP BY d.pid) c
      JOIN thread th ON th.trace = trace.id AND th.pid = c.pid AND th.tid = c.pid
      WHERE NOT gd_app_is_system(th.name) ORDER BY c.n DESC, c.pid LIMIT 1)),
    gd_app_package((SELECT w.p FROM (SELECT gd_app_of_window(f."window") AS p
        FROM frame_time f WHERE f.trace = trace.id) w
      WHERE w.p IS NOT NULL AND NOT gd_app_is_system(w.p) GROUP BY w.p ORDER BY count(*) DESC, w.p LIMIT 1)),
    gd_app_package((SELECT r.p FROM (SELECT gd_app_package(th.name) AS p, s.dur_ms AS dur
        FROM thread_state s JOIN thread th ON th.trace = s.trace AND th.pid = s.pid AND th.tid = s.pid
        WHERE s.trace = trace.id AND s.state = 'Running') r
      WHERE NOT gd_app_is_system(r.p) GROUP BY r.p ORDER BY total(r.dur) DESC, r.p LIMIT 1)))
