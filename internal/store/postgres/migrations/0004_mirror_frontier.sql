-- The crawl frontier of `sportsdb mirror` (internal/mirror): one row per upstream request,
-- written in the same transaction as the records its answer stored, so a mirror killed at
-- any moment resumes without losing or repeating anything. Times are Unix milliseconds; 0
-- means never (fetched) or at once (due).
CREATE TABLE mirror_frontier (
    seq BIGSERIAL PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    priority INTEGER NOT NULL DEFAULT 0,
    due_ms BIGINT NOT NULL DEFAULT 0,
    fetched_ms BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT '',
    fails INTEGER NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX mirror_frontier_due ON mirror_frontier (due_ms);
