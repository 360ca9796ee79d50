-- binder-aidl-name.sql - names each binder call of trace ?1 after the AIDL
-- (or HIDL) server method its server thread ran for it (#26): the
-- shallowest, earliest call named AIDL::*Server / AIDL::*server /
-- HIDL::*server that starts within the server side of the transaction
-- (up to its reply, or, for a one-way call (its receipt an instant) or
-- one without a reply, up to the thread's next transaction).
-- Run by lib/derive/states.c.  Layout: lib/sql/README.

UPDATE binder_txn SET aidl_name = (SELECT m.name FROM call c JOIN method m ON m.id = c.method
    WHERE c.trace = ?1 AND c.pid = binder_txn.server_pid AND c.tid = binder_txn.server_tid
      AND c.start_ms >= binder_txn.server_ts_ms AND c.start_ms <= CASE
        WHEN binder_txn.oneway = 0 AND binder_txn.server_dur_ms IS NOT NULL THEN binder_txn.server_ts_ms + binder_txn.server_dur_ms
        ELSE coalesce((SELECT min(b2.server_ts_ms) FROM binder_txn b2 WHERE b2.trace = ?1
          AND b2.server_tid = binder_txn.server_tid AND b2.server_ts_ms > binder_txn.server_ts_ms), 1e308) END
      AND m.class = '' AND (m.name GLOB 'AIDL::*Server' OR m.name GLOB 'AIDL::*server'
        OR m.name GLOB 'HIDL::*server')
    ORDER BY c.depth, c.start_ms LIMIT 1)
  WHERE trace = ?1 AND server_tid IS NOT NULL AND server_ts_ms IS NOT NULL AND server_pid IS NOT NULL
