-- trace-app.sql - the statement that sets trace.app (#47), the one home of
-- the rule "which app a capture is about", decided from the trace's rows
-- once they are all written: the first of these that names an app's
-- package (gd_app_is_system: never a system process, lib/analysis/app.c):
--   1. the capture format's own app (a godeye capture names the app the
--      user captured, system or not), and any app the reader found
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
-- #50: the rules are tried in order by coalesce(), which evaluates no
-- rule after the first that names an app (rules 2-6 leave out system
-- processes themselves, and gd_app_package gives NULL only for NULL): a
-- trace whose dispatches name its app scans neither its frames nor its
-- thread states (the 4 MB sched-heavy trace's 137,597 states were 297 M
-- instructions, 14 % of its ingest, for a rule whose answer was unused).
UPDATE trace SET app = coalesce(
    CASE WHEN trace.app <> '' AND (trace.format = 'godeye' OR NOT gd_app_is_system(trace.app))
      THEN CASE WHEN trace.format = 'godeye' THEN trace.app ELSE gd_app_package(trace.app) END END,
    gd_app_package(coalesce(
      (SELECT v.process FROM anr_dump v WHERE v.trace = trace.id AND v.anr = 1
        AND NOT gd_app_is_system(v.process) ORDER BY v.ts_ms, v.id LIMIT 1),
      (SELECT st.app FROM startup st WHERE st.trace = trace.id AND st.app IS NOT NULL
        AND NOT gd_app_is_system(st.app) GROUP BY st.app ORDER BY count(*) DESC, min(st.id) LIMIT 1),
      (SELECT th.name FROM dispatch d JOIN thread th ON th.trace = d.trace AND th.pid = d.pid
        AND th.tid = d.pid WHERE d.trace = trace.id AND d.tid = d.pid AND NOT gd_app_is_system(th.name)
        GROUP BY d.pid ORDER BY count(*) DESC, d.pid LIMIT 1),
      (SELECT w.p FROM (SELECT gd_app_of_window(f."window") AS p
          FROM frame_time f WHERE f.trace = trace.id) w
        WHERE w.p IS NOT NULL AND NOT gd_app_is_system(w.p) GROUP BY w.p ORDER BY count(*) DESC, w.p LIMIT 1),
      (SELECT r.p FROM (SELECT gd_app_package(th.name) AS p, s.dur_ms AS dur
          FROM thread_state s JOIN thread th ON th.trace = s.trace AND th.pid = s.pid AND th.tid = s.pid
          WHERE s.trace = trace.id AND s.state = 'Running') r
        WHERE NOT gd_app_is_system(r.p) GROUP BY r.p ORDER BY total(r.dur) DESC, r.p LIMIT 1))))
