-- A record's history (GET /api/v2/json/records/{kind}/{id}/history): a change written by
-- the records API (store.DocsTx) keeps the record's stored doc as the change left it, pruned
-- with the change. NULL: a delete, a change of another writer (import, mirror, gen), or one
-- from before this column. Read by kind and id, newest first.
ALTER TABLE changes ADD COLUMN doc TEXT;
CREATE INDEX changes_record ON changes (kind, id, seq);
