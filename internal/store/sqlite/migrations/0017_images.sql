-- Pictures sportsdb keeps (store.Images, docs/PICTURES.md). The bytes are stored once per
-- content, keyed by their SHA-256; each path names one content. A kept smaller copy names
-- its original in "original" ('' for an original), so replacing or deleting an original
-- finds its copies without parsing paths. Times are Unix milliseconds. Every image write
-- takes the meta row 'image_writes' first, which orders them on every replica.
CREATE TABLE image_blobs (
    hash TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE images (
    path TEXT PRIMARY KEY,
    original TEXT NOT NULL,
    type TEXT NOT NULL,
    hash TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    size INTEGER NOT NULL,
    source TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX images_original ON images (original, path);
CREATE INDEX images_hash ON images (hash);
INSERT INTO meta (name, value) VALUES ('image_writes', 0);
