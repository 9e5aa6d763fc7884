-- The change feed: one row per record whose stored value changed, written in the transaction
-- that changed it. seq comes from one sequence, so every replica sees the same cursors; a
-- writer takes the table's EXCLUSIVE lock before it draws them (see changes.go), so cursors
-- are also in commit order. meta's changes_pruned is the highest cursor retention removed.
CREATE TABLE changes (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    op TEXT NOT NULL,
    time TEXT COLLATE "C" NOT NULL
);
CREATE INDEX changes_time ON changes (time);
INSERT INTO meta (name, value) VALUES ('changes_pruned', 0);
