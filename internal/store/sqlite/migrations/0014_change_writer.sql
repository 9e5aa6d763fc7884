-- Who wrote each change (store.Change.By, the feed's "by"): the label of the key that wrote
-- through the records API (or the start of its hash), import, mirror; NULL when the writer
-- named none, as every change before this column did.
ALTER TABLE changes ADD COLUMN writer TEXT;
