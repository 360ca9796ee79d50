-- calls-window.sql - the calls of one thread that overlap a window [?4, ?5]
-- (trace ?1, pid ?2, tid ?3), in pre-order: the calls running at ?4 (the
-- ancestors of the last call started by then) and the calls started inside
-- (?4, ?5).  Run by lib/derive/calls.c (gd_calls_window), which reads the
-- columns id, parent, method, start_ms, end_ms, depth, open in that order.
-- Layout: lib/sql/README.

WITH RECURSIVE anc(id) AS (
    SELECT id FROM (SELECT id FROM call WHERE trace = ?1 AND pid = ?2 AND tid = ?3
      AND start_ms = (SELECT max(start_ms) FROM call WHERE trace = ?1 AND pid = ?2
        AND tid = ?3 AND start_ms <= ?4) ORDER BY depth DESC, id DESC LIMIT 1)
    UNION ALL SELECT c.parent FROM call c JOIN anc ON c.id = anc.id WHERE c.parent IS NOT NULL)
  SELECT id, parent, method, start_ms, end_ms, depth, open FROM call
    WHERE id IN (SELECT id FROM anc) AND end_ms > ?4
  UNION ALL
  SELECT id, parent, method, start_ms, end_ms, depth, open FROM call
    WHERE trace = ?1 AND pid = ?2 AND tid = ?3 AND start_ms > ?4 AND start_ms < ?5
  ORDER BY start_ms, depth, id
