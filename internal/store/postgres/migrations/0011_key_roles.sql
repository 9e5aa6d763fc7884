-- The role of a key (store.Role): '' reads only, 'editor' writes records that are not locked,
-- 'admin' also locked ones. Keys stored before keep reading only.
ALTER TABLE keys ADD COLUMN role TEXT NOT NULL DEFAULT '';
