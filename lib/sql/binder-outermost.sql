-- binder-outermost.sql - sets binder_txn.outermost (#53), the one home of
-- the rule: a synchronous call with a reply (oneway 0, dur_ms set) is
-- outermost (1) when it ends after every earlier such call of its client
-- thread (earlier: by ts_ms, then id), else 0 (it ends within an earlier
-- one's span: nested); other calls keep NULL.  gd_binder_in reads the
-- outermost calls begun before a range through the partial index
-- binder_txn_outermost, so that a block's lookup is bounded (the calls that
-- could add time to it), not every earlier call of its thread.  ?1: the
-- trace (ingest: lib/derive/states.c), or unbound, NULL: every trace (the
-- 6 -> 7 migration, lib/store/store.c).  Layout: lib/sql/README.

WITH t(id) AS (SELECT ?1 WHERE ?1 IS NOT NULL
    UNION SELECT DISTINCT trace FROM binder_txn WHERE ?1 IS NULL)
  UPDATE binder_txn SET outermost = r.outermost
  FROM (SELECT b.id, coalesce(b.ts_ms + b.dur_ms > max(b.ts_ms + b.dur_ms) OVER (
        PARTITION BY b.trace, b.client_tid ORDER BY b.ts_ms, b.id
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 1) AS outermost
    FROM t JOIN binder_txn b ON b.trace = t.id
    WHERE b.oneway = 0 AND b.dur_ms IS NOT NULL) r
  WHERE binder_txn.id = r.id
