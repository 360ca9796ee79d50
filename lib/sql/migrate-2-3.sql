-- migrate-2-3.sql - schema 2 -> 3: issues, marks and frame summaries in
-- tables of their own, filled from their raw_event rows as the writer
-- fills them now.  Run by lib/store/store.c (migrations); the layout rule
-- is in lib/sql/README (CREATE text lands in sqlite_master as written).

CREATE TABLE issue (id INTEGER PRIMARY KEY REFERENCES raw_event(id),
  trace INTEGER NOT NULL REFERENCES trace(id), tool TEXT, type TEXT, detail TEXT, cost_ms REAL,
  content TEXT);
CREATE INDEX issue_trace ON issue (trace, tool);
CREATE TABLE issue_fps (id INTEGER PRIMARY KEY REFERENCES issue(id),
  trace INTEGER NOT NULL REFERENCES trace(id), scene TEXT, fps REAL,
  best_frames INTEGER, normal_frames INTEGER, middle_frames INTEGER, high_frames INTEGER,
  frozen_frames INTEGER, best_dropped INTEGER, normal_dropped INTEGER, middle_dropped INTEGER,
  high_dropped INTEGER, frozen_dropped INTEGER);
CREATE INDEX issue_fps_scene ON issue_fps (trace, scene);
CREATE TABLE mark (id INTEGER PRIMARY KEY REFERENCES raw_event(id),
  trace INTEGER NOT NULL REFERENCES trace(id), name TEXT);
CREATE INDEX mark_trace ON mark (trace);
CREATE TABLE frame_summary (id INTEGER PRIMARY KEY REFERENCES raw_event(id),
  trace INTEGER NOT NULL REFERENCES trace(id), window TEXT);
CREATE INDEX frame_summary_trace ON frame_summary (trace);
CREATE TABLE frame_figure (summary INTEGER NOT NULL REFERENCES frame_summary(id),
  trace INTEGER NOT NULL REFERENCES trace(id), seq INTEGER NOT NULL, name TEXT NOT NULL,
  value TEXT, PRIMARY KEY (summary, seq)) WITHOUT ROWID;
CREATE INDEX frame_figure_trace ON frame_figure (trace);

-- the issue's content as JSON text (json_extract gives a string without its
-- quotes, true and false as 1 and 0); NULL when absent
INSERT INTO issue SELECT id, trace, json_extract(json, '$.tool'), json_extract(json, '$.issue_type'),
    json_extract(json, '$.detail'), json_extract(json, '$.cost'),
    CASE json_type(json, '$.content')
      WHEN 'text' THEN json_quote(json_extract(json, '$.content'))
      WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null'
      ELSE json_extract(json, '$.content') END
  FROM raw_event WHERE kind = 'issue';
-- a Trace_FPS figure of the issue's content when it is a JSON number (fps)
-- or integer (the drop counts), else NULL
INSERT INTO issue_fps SELECT id, trace, json_extract(json, '$.content.scene'),
    CASE WHEN json_type(json, '$.content.fps') IN ('integer', 'real')
      THEN json_extract(json, '$.content.fps') END,
    CASE WHEN json_type(json, '$.content.dropLevel.DROPPED_BEST') = 'integer'
      THEN json_extract(json, '$.content.dropLevel.DROPPED_BEST') END,
    CASE WHEN json_type(json, '$.content.dropLevel.DROPPED_NORMAL') = 'integer'
      THEN json_extract(json, '$.content.dropLevel.DROPPED_NORMAL') END,
    CASE WHEN json_type(json, '$.content.dropLevel.DROPPED_MIDDLE') = 'integer'
      THEN json_extract(json, '$.content.dropLevel.DROPPED_MIDDLE') END,
    CASE WHEN json_type(json, '$.content.dropLevel.DROPPED_HIGH') = 'integer'
      THEN json_extract(json, '$.content.dropLevel.DROPPED_HIGH') END,
    CASE WHEN json_type(json, '$.content.dropLevel.DROPPED_FROZEN') = 'integer'
      THEN json_extract(json, '$.content.dropLevel.DROPPED_FROZEN') END,
    CASE WHEN json_type(json, '$.content.dropSum.DROPPED_BEST') = 'integer'
      THEN json_extract(json, '$.content.dropSum.DROPPED_BEST') END,
    CASE WHEN json_type(json, '$.content.dropSum.DROPPED_NORMAL') = 'integer'
      THEN json_extract(json, '$.content.dropSum.DROPPED_NORMAL') END,
    CASE WHEN json_type(json, '$.content.dropSum.DROPPED_MIDDLE') = 'integer'
      THEN json_extract(json, '$.content.dropSum.DROPPED_MIDDLE') END,
    CASE WHEN json_type(json, '$.content.dropSum.DROPPED_HIGH') = 'integer'
      THEN json_extract(json, '$.content.dropSum.DROPPED_HIGH') END,
    CASE WHEN json_type(json, '$.content.dropSum.DROPPED_FROZEN') = 'integer'
      THEN json_extract(json, '$.content.dropSum.DROPPED_FROZEN') END
  FROM raw_event WHERE kind = 'issue' AND json_extract(json, '$.tool') = 'matrix'
    AND json_extract(json, '$.issue_type') = 'Trace_FPS';
INSERT INTO mark SELECT id, trace, json_extract(json, '$.name') FROM raw_event WHERE kind = 'mark';
INSERT INTO frame_summary SELECT id, trace, json_extract(json, '$.window') FROM raw_event
  WHERE kind = 'frame_summary';
INSERT INTO frame_figure SELECT r.id, r.trace, row_number() OVER (PARTITION BY r.id ORDER BY f.id) - 1,
    f.key, f.value
  FROM raw_event r, json_each(r.json, '$.figures') f
  WHERE r.kind = 'frame_summary' AND json_type(r.json, '$.figures') = 'object';
