-- The progress of pushes of the change feed (the MQTT publisher, store.Pushes): the cursor
-- delivered up to (-1: none yet) and the lease of the one process pushing it, held by holder
-- until until_ms (Unix milliseconds).
CREATE TABLE push_progress (
    name TEXT PRIMARY KEY,
    last_cursor INTEGER NOT NULL,
    holder TEXT NOT NULL,
    until_ms INTEGER NOT NULL
);
