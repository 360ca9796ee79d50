-- trace-exposure.sql - the statement that sets trace.exposure_ms (#30),
-- the one home of the exposure rule: the time a trace's capture watched
-- the app, the divisor of every per-minute figure (top, diff, check, the
-- fleet's traces.exposure_ms).  It is the span of the trace's times
-- (end_ms - start_ms; 0 when it has no span), except that a trace holding
-- ANR dumps as well as dispatches or log lines (a bugreport) is timed by
-- the span of those alone: a dump is a snapshot, not time watched, and a
-- bugreport's /data/anr dump from April does not turn its August log into
-- 126 days.  The 5 -> 6 migration runs it over every trace, ingest
-- (lib/ingest/traceinfo.c) with " WHERE id = ?" appended: so no `;` here.
-- Layout: lib/sql/README.

UPDATE trace SET exposure_ms = coalesce(
    CASE WHEN EXISTS (SELECT 1 FROM anr_dump v WHERE v.trace = trace.id)
      THEN (SELECT max(w.z - w.a, 0)
        FROM (SELECT min(a) AS a, max(z) AS z
          FROM (SELECT min(d.start_ms) AS a, max(d.start_ms + coalesce(d.dur_ms, 0)) AS z
              FROM dispatch d WHERE d.trace = trace.id
            UNION ALL
            SELECT min(l.ts_ms), max(l.ts_ms) FROM log_line l WHERE l.trace = trace.id)) w
        WHERE w.a IS NOT NULL)
    END,
    CASE WHEN end_ms > start_ms THEN end_ms - start_ms ELSE 0 END)
