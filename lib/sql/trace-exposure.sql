-- trace-exposure.sql - the statement that sets trace.exposure_ms (#30),
-- the one home of the exposure rule: the time a trace's capture watched
-- the app, the divisor of every per-minute figure (top, diff, check, the
-- fleet's traces.exposure_ms).  It is the span of the trace's times
-- (end_ms - start_ms; 0 when it has no span), except that a trace holding
-- ANR dumps as well as dispatches or log lines (a bugreport) is timed by
-- the span of those alone: a dump is a snapshot, not time watched, and a
-- bugreport's /data/anr dump from April does not turn its August log into
-- 126 days.  #51: either span is taken within the trace's dense span
-- (span_start_ms .. span_end_ms, lib/analysis/span.h: less the times
-- before the clock was set and lone outliers; NULL for a trace of an older
-- version, whose exposure stays as it was).  The 6 -> 7 migration runs it
-- over every trace, ingest (lib/ingest/traceinfo.c) with " WHERE id = ?"
-- appended: so no `;` here.  Layout: lib/sql/README.

UPDATE trace SET exposure_ms = coalesce(
    CASE WHEN EXISTS (SELECT 1 FROM anr_dump v WHERE v.trace = trace.id)
      THEN (SELECT max(min(w.z, coalesce(trace.span_end_ms, w.z)) - max(w.a, coalesce(trace.span_start_ms, w.a)), 0)
        FROM (SELECT min(a) AS a, max(z) AS z
          FROM (SELECT min(d.start_ms) AS a, max(d.start_ms + coalesce(d.dur_ms, 0)) AS z
              FROM dispatch d WHERE d.trace = trace.id
                AND d.start_ms BETWEEN coalesce(trace.span_start_ms, d.start_ms) AND coalesce(trace.span_end_ms, d.start_ms)
            UNION ALL
            SELECT min(l.ts_ms), max(l.ts_ms) FROM log_line l WHERE l.trace = trace.id
                AND l.ts_ms BETWEEN coalesce(trace.span_start_ms, l.ts_ms) AND coalesce(trace.span_end_ms, l.ts_ms))) w
        WHERE w.a IS NOT NULL)
    END,
    CASE WHEN min(end_ms, coalesce(span_end_ms, end_ms)) > max(start_ms, coalesce(span_start_ms, start_ms))
      THEN min(end_ms, coalesce(span_end_ms, end_ms)) - max(start_ms, coalesce(span_start_ms, start_ms)) ELSE 0 END)
