package sqlstore

import (
	"context"
	"errors"
	"fmt"

	"sportsdb/internal/store"
)

// Kept pictures (store.Images, migrations *_images): the bytes in image_blobs once per
// content hash, each path a row of images naming a hash. Every write takes the meta row
// 'image_writes' first, which orders the image writes of every replica, so that bytes one
// write finds unnamed are never removed while another write names them. A write of an
// original, or a delete, also advances DataVersion, as answers that point at held images
// depend on them; a copy's put does not: no answer names a copy, and the first views of a
// page of thumbnails must not empty every replica's response cache.

const imageColumns = `path, original, type, hash, width, height, size, source, created_ms`

type imageSQL struct {
	lock, bump, blob, put, putCopy, info, data, byHash, paths, copies, drop, dropCopies, dropBlob, stats string
}

func newImageSQL(d Dialect) imageSQL {
	ph := numbered(d)
	sel := `SELECT ` + imageColumns + ` FROM images `
	return imageSQL{
		lock: `UPDATE meta SET value = value + 1 WHERE name = 'image_writes'`,
		bump: `UPDATE meta SET value = value + 1 WHERE name = 'data_version'`,
		blob: `INSERT INTO image_blobs (hash, size, data) VALUES (` + ph(1) + `, ` + ph(2) + `, ` + ph(3) +
			`) ON CONFLICT (hash) DO NOTHING`,
		put: `INSERT INTO images (` + imageColumns + `) VALUES (` + ph(1) + `, ` + ph(2) + `, ` + ph(3) + `, ` +
			ph(4) + `, ` + ph(5) + `, ` + ph(6) + `, ` + ph(7) + `, ` + ph(8) + `, ` + ph(9) + `)
			ON CONFLICT (path) DO UPDATE SET original = excluded.original, type = excluded.type,
			hash = excluded.hash, width = excluded.width, height = excluded.height, size = excluded.size,
			source = excluded.source, created_ms = excluded.created_ms`,
		// An original is held when its row is there and is itself no copy.
		putCopy:    `SELECT 1 FROM images WHERE path = ` + ph(1) + ` AND original = ''`,
		info:       sel + `WHERE path = ` + ph(1),
		data:       `SELECT data FROM image_blobs WHERE hash = ` + ph(1),
		byHash:     sel + `WHERE hash = ` + ph(1) + ` ORDER BY path LIMIT 1`,
		paths:      `SELECT path FROM images WHERE original = '' ORDER BY path`,
		copies:     `SELECT hash FROM images WHERE original = ` + ph(1),
		drop:       `DELETE FROM images WHERE path = ` + ph(1),
		dropCopies: `DELETE FROM images WHERE original = ` + ph(1),
		dropBlob: `DELETE FROM image_blobs WHERE hash = ` + ph(1) +
			` AND NOT EXISTS (SELECT 1 FROM images WHERE hash = ` + ph(1) + `)`,
		stats: `SELECT (SELECT COUNT(*) FROM images), (SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM image_blobs)`,
	}
}

type imageScan struct {
	img     store.Image
	created int64
}

func (s *imageScan) dest() []any {
	i := &s.img
	return []any{&i.Path, &i.Original, &i.Type, &i.Hash, &i.Width, &i.Height, &i.Size, &i.Source, &s.created}
}

func (s *imageScan) image() store.Image {
	img := s.img
	img.Created = fromMillis(s.created)
	return img
}

// PutImage stores an image under its path (store.Images).
func (db *DB) PutImage(ctx context.Context, img store.Image) error {
	if img.Path == "" || img.Hash == "" || img.Type == "" || int64(len(img.Data)) != img.Size {
		return fmt.Errorf("%s: put image %q: %w: path, type, hash and the bytes of its size are needed",
			db.c.Name, img.Path, store.ErrBadQuery)
	}
	q := newImageSQL(db.c.Dialect)
	err := db.c.Atomic(ctx, func(tx Querier) error {
		if err := db.lockImages(ctx, tx, q, img.Original == ""); err != nil {
			return err
		}
		if img.Original != "" {
			var one int64
			if err := queryRow(ctx, tx, q.putCopy, []any{img.Original}, &one); err != nil {
				return err
			}
		}
		var old imageScan
		err := queryRow(ctx, tx, q.info, []any{img.Path}, old.dest()...)
		if errors.Is(err, store.ErrNotFound) {
			old.img.Hash = img.Hash // nothing replaced
		} else if err != nil {
			return err
		}
		replaced := old.img.Hash != img.Hash
		if replaced {
			if err := db.dropCopies(ctx, tx, q, img.Path); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, q.blob, img.Hash, img.Size, img.Data); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, q.put, img.Path, img.Original, img.Type, img.Hash, int64(img.Width),
			int64(img.Height), img.Size, img.Source, millis(img.Created)); err != nil {
			return err
		}
		if replaced {
			return db.dropBlobs(ctx, tx, q, old.img.Hash)
		}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%s: put image %q: its original %q is not held: %w", db.c.Name, img.Path, img.Original, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("%s: put image %q: %w", db.c.Name, img.Path, db.MapErr(err))
	}
	return nil
}

// lockImages takes the image writes' row, and advances DataVersion when answers depend on
// the write.
func (db *DB) lockImages(ctx context.Context, tx Querier, q imageSQL, bump bool) error {
	if _, err := tx.Exec(ctx, q.lock); err != nil {
		return err
	}
	if bump {
		if _, err := tx.Exec(ctx, q.bump); err != nil {
			return err
		}
	}
	return nil
}

// dropCopies removes the kept copies of the original at path, and their bytes no other
// path names.
func (db *DB) dropCopies(ctx context.Context, tx Querier, q imageSQL, path string) error {
	rows, err := tx.Query(ctx, q.copies, path)
	if err != nil {
		return err
	}
	var hashes []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			rows.Close()
			return err
		}
		hashes = append(hashes, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, q.dropCopies, path); err != nil {
		return err
	}
	return db.dropBlobs(ctx, tx, q, hashes...)
}

// dropBlobs removes the bytes of each hash that no path names any more.
func (db *DB) dropBlobs(ctx context.Context, tx Querier, q imageSQL, hashes ...string) error {
	for _, h := range hashes {
		if _, err := tx.Exec(ctx, q.dropBlob, h); err != nil {
			return err
		}
	}
	return nil
}

// Image returns the image at path with its bytes (store.Images).
func (db *DB) Image(ctx context.Context, path string) (store.Image, error) {
	img, err := db.ImageInfo(ctx, path)
	if err != nil {
		return store.Image{}, err
	}
	// A delete between the two reads leaves no bytes: the image is gone.
	if err := db.QueryRow(ctx, newImageSQL(db.c.Dialect).data, []any{img.Hash}, &img.Data); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return store.Image{}, store.ErrNotFound
		}
		return store.Image{}, fmt.Errorf("%s: image %q: %w", db.c.Name, path, err)
	}
	return img, nil
}

// ImageInfo returns the image at path without its bytes (store.Images).
func (db *DB) ImageInfo(ctx context.Context, path string) (store.Image, error) {
	return db.oneImage(ctx, "image", newImageSQL(db.c.Dialect).info, path)
}

// ImageByHash returns an image whose bytes have that hash (store.Images).
func (db *DB) ImageByHash(ctx context.Context, hash string) (store.Image, error) {
	return db.oneImage(ctx, "image by hash", newImageSQL(db.c.Dialect).byHash, hash)
}

func (db *DB) oneImage(ctx context.Context, what, query, arg string) (store.Image, error) {
	var s imageScan
	err := db.QueryRow(ctx, query, []any{arg}, s.dest()...)
	if errors.Is(err, store.ErrNotFound) {
		return store.Image{}, store.ErrNotFound
	}
	if err != nil {
		return store.Image{}, fmt.Errorf("%s: %s %q: %w", db.c.Name, what, arg, err)
	}
	return s.image(), nil
}

// ImagePaths calls fn with the path of every original, in path order (store.Images). The
// paths are read first, so fn may write.
func (db *DB) ImagePaths(ctx context.Context, fn func(path string) error) error {
	rows, err := db.c.Read.Query(ctx, newImageSQL(db.c.Dialect).paths)
	if err != nil {
		return fmt.Errorf("%s: image paths: %w", db.c.Name, db.MapErr(err))
	}
	var paths []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			rows.Close()
			return fmt.Errorf("%s: image paths: %w", db.c.Name, db.MapErr(err))
		}
		paths = append(paths, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: image paths: %w", db.c.Name, db.MapErr(err))
	}
	for _, p := range paths {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// DeleteImage removes the image at path, its kept copies and the bytes left unnamed
// (store.Images).
func (db *DB) DeleteImage(ctx context.Context, path string) error {
	q := newImageSQL(db.c.Dialect)
	err := db.c.Atomic(ctx, func(tx Querier) error {
		if err := db.lockImages(ctx, tx, q, true); err != nil {
			return err
		}
		var old imageScan
		if err := queryRow(ctx, tx, q.info, []any{path}, old.dest()...); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, q.drop, path); err != nil {
			return err
		}
		if err := db.dropCopies(ctx, tx, q, path); err != nil {
			return err
		}
		return db.dropBlobs(ctx, tx, q, old.img.Hash)
	})
	if errors.Is(err, store.ErrNotFound) {
		return store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("%s: delete image %q: %w", db.c.Name, path, db.MapErr(err))
	}
	return nil
}

// ImageStats counts what is kept (store.Images).
func (db *DB) ImageStats(ctx context.Context) (store.ImageStats, error) {
	var st store.ImageStats
	if err := db.QueryRow(ctx, newImageSQL(db.c.Dialect).stats, nil, &st.Images, &st.Bytes); err != nil {
		return store.ImageStats{}, fmt.Errorf("%s: image stats: %w", db.c.Name, err)
	}
	return st, nil
}

// ImageWrites counts the image writes of every replica (store.Images): each takes the meta
// row 'image_writes' first, advancing it.
func (db *DB) ImageWrites(ctx context.Context) (int64, error) {
	var n int64
	if err := db.QueryRow(ctx, `SELECT value FROM meta WHERE name = 'image_writes'`, nil, &n); err != nil {
		return 0, fmt.Errorf("%s: image writes: %w", db.c.Name, err)
	}
	return n, nil
}
