-- migrate-3-4.sql - schema 3 -> 4.  Run by lib/store/store.c (migrations);
-- the layout rule is in lib/sql/README.

-- dispatch_dur keeps only dispatches of a frame or longer: 16 is
-- GD_DUR_INDEXED_MS (lib/store/sql.h), as in schemas/godeye.sql
DROP INDEX IF EXISTS dispatch_dur;
CREATE INDEX dispatch_dur ON dispatch (dur_ms) WHERE dur_ms >= 16;
-- and message texts have no UNIQUE index (the table is rebuilt without it)
CREATE TABLE message_v4 (id INTEGER PRIMARY KEY, text TEXT NOT NULL, handler TEXT,
  callback TEXT, what TEXT);
INSERT INTO message_v4 SELECT id, text, handler, callback, what FROM message;
DROP TABLE message;
ALTER TABLE message_v4 RENAME TO message;
