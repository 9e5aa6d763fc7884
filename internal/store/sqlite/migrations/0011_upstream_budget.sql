-- The budgets of upstream requests (internal/mirror, store.Budget): per budget (a hash of the
-- upstream key) at most as many slots as its limit, each the time, in Unix milliseconds, it
-- was last taken. A mirror killed and started again, or a server reading through beside it,
-- finds here the requests already sent in the last 60 s.
CREATE TABLE upstream_budget (
    budget TEXT NOT NULL,
    slot INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (budget, slot)
);
