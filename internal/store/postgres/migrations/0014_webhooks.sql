-- Registered webhooks (store.Webhooks). Times are Unix milliseconds, 0 for none; kinds are
-- comma-separated kind names ('' for every kind). Each webhook's cursor and delivery lease
-- are its row of push_progress, named 'webhook/{id}'.
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    url TEXT NOT NULL,
    kinds TEXT NOT NULL,
    league TEXT NOT NULL,
    team TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    start_cursor BIGINT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT NOT NULL,
    failures BIGINT NOT NULL,
    failing_since_ms BIGINT NOT NULL,
    last_status BIGINT NOT NULL,
    last_error TEXT NOT NULL,
    last_delivery_ms BIGINT NOT NULL,
    next_attempt_ms BIGINT NOT NULL
);
