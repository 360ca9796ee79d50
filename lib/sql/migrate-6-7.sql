-- migrate-6-7.sql - schema 6 -> 7: each issue's change in a block of its
-- own, marked "6 -> 7 (#NN)" ... "end 6 -> 7 (#NN)".  Run by
-- lib/store/store.c (migrations), which then runs binder-outermost.sql
-- over every trace; the layout rule is in lib/sql/README.

-- 6 -> 7 (#53 item 6): a synchronous binder call says whether it is
-- outermost (ends after every earlier call of its client thread), and
-- the outermost calls are indexed, so that a block's binder time is found
-- without walking every earlier call of its thread; filled by
-- binder-outermost.sql (the rule's one home), which store.c runs after
-- this file
ALTER TABLE binder_txn ADD COLUMN outermost INTEGER;
CREATE INDEX binder_txn_outermost ON binder_txn (trace, client_tid, ts_ms) WHERE outermost = 1;
-- end 6 -> 7 (#53 item 6)
