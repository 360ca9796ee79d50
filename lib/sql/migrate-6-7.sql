-- migrate-6-7.sql - schema 6 -> 7: each issue's change in a block of its
-- own, marked "6 -> 7 (#NN)" ... "end 6 -> 7 (#NN)".  Run by
-- lib/store/store.c (migrations); the layout rule is in lib/sql/README.

-- 6 -> 7 (#51): a launch is its total (intent to first frame); the drawn
-- activity's own figure, where the tool prints it apart, is kept beside it
ALTER TABLE startup ADD COLUMN activity_ms REAL;
-- end 6 -> 7 (#51)
