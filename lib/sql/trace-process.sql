-- trace-process.sql - the statement that gives a trace's pid and main_tid
-- to its app's process once trace-app.sql (or the user, --set app=) has
-- named the app (#47).  A
-- reader of slices (atrace text, Perfetto) takes for the capture's process
-- the one whose main thread has the most slices: on a launch trace that is
-- often SurfaceFlinger or system_server, while the app comes from the
-- launch (trace-app.sql rule 3) or the frames' windows.  A system process
-- (gd_app_is_system, its main thread's name known) is never the app's: pid
-- and main_tid become those of the app's own process, the one whose main
-- thread (tid = pid) is named by the app's package (gd_app_package; the
-- package exactly first, then the most main-thread dispatches, then the
-- lowest pid).  Left as they are when no such process is in the trace, for
-- a trace without an app, and for a godeye capture (it names its own
-- process).  ?1 is the trace.  Ingest (lib/ingest/traceinfo.c) runs it
-- right after trace-app.sql, before the blocks are derived.  Layout:
-- lib/sql/README.

WITH app_proc AS (SELECT th.pid AS pid FROM thread th JOIN trace t ON t.id = th.trace
    WHERE th.trace = ?1 AND th.tid = th.pid AND gd_app_package(th.name) = t.app
    ORDER BY th.name = t.app DESC,
      (SELECT count(*) FROM dispatch d WHERE d.trace = th.trace AND d.pid = th.pid AND d.tid = th.pid) DESC,
      th.pid
    LIMIT 1)
  UPDATE trace SET pid = (SELECT pid FROM app_proc), main_tid = (SELECT pid FROM app_proc)
  WHERE id = ?1 AND app IS NOT NULL AND format <> 'godeye' AND EXISTS (SELECT 1 FROM app_proc)
    AND (SELECT gd_app_is_system(th.name) FROM thread th WHERE th.trace = trace.id AND th.pid = trace.pid
      AND th.tid = trace.pid AND th.name IS NOT NULL AND th.name <> '') = 1
