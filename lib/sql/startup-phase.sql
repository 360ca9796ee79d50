-- startup-phase.sql - writes one phase of a trace launch (#27): startup ?1,
-- phase ?2, [?3, ?3 + ?4), ?5 slices, with the main thread's (trace ?6,
-- tid ?7) time per state over the phase: NULL when the trace has no state
-- of that thread.  Run by lib/derive/startups.c (put_phase).  A thread's
-- states follow each other: those begun inside the phase and the last one
-- begun at or before its start (thread_state's key), not every earlier state
-- of the thread (#53).
-- Layout: lib/sql/README.

INSERT INTO startup_phase (startup, phase, ts_ms, dur_ms, slices, running_ms, runnable_ms,
    sleeping_ms, blocked_ms)
  SELECT ?1, ?2, ?3, ?4, ?5,
    CASE WHEN h THEN total(CASE WHEN state = 'Running' THEN ov END) END,
    CASE WHEN h THEN total(CASE WHEN state IN ('R', 'R+') THEN ov END) END,
    CASE WHEN h THEN total(CASE WHEN state = 'S' THEN ov END) END,
    CASE WHEN h THEN total(CASE WHEN state GLOB 'D*' THEN ov END) END
  FROM (SELECT EXISTS (SELECT 1 FROM thread_state WHERE trace = ?6 AND tid = ?7) AS h)
  -- each state slice's overlap with the phase (an open slice runs to its end)
  LEFT JOIN (SELECT state, max(0, min(coalesce(ts_ms + dur_ms, ?3 + ?4), ?3 + ?4)
      - max(ts_ms, ?3)) AS ov
    FROM thread_state WHERE trace = ?6 AND tid = ?7
      AND ts_ms < ?3 + ?4 AND (dur_ms IS NULL OR ts_ms + dur_ms > ?3)
      AND ts_ms >= coalesce((SELECT max(ts_ms) FROM thread_state WHERE trace = ?6 AND tid = ?7
        AND ts_ms <= ?3), ?3)) ON 1
