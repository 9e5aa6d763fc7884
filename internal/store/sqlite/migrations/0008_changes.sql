-- The change feed: one row per record whose stored value changed, written in the transaction
-- that changed it. AUTOINCREMENT, so a cursor is never reused, even after pruning removed
-- every row. meta's changes_pruned is the highest cursor retention has removed.
CREATE TABLE changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    op TEXT NOT NULL,
    time TEXT NOT NULL
);
CREATE INDEX changes_time ON changes (time);
INSERT INTO meta (name, value) VALUES ('changes_pruned', 0);
