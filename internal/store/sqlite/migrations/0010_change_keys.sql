-- The values of a changed record's indexed columns, before and after the change, as a JSON
-- array of column and value pairs (sqlstore.EncodeKeys); NULL when the write did not know the
-- record's earlier values. A response cache keeps the answers no change could touch.
ALTER TABLE changes ADD COLUMN keys TEXT;
