package store

import (
	"context"
	"time"
)

// Image is a picture sportsdb keeps (docs/PICTURES.md), under the path it has on the public
// service: what follows the host in a record's URL, "/images/media/team/badge/x.png". A kept
// smaller copy has the original's path with its size appended, "/images/media/team/badge/
// x.png/small". The bytes are stored once per content (Hash), however many paths name them.
type Image struct {
	Path string
	// Original is, for a kept copy, the path of the image it was made from; "" for an
	// original. A copy is put only while its original is held.
	Original string
	// Type is the media type read from the bytes: image/png, image/jpeg, image/gif or
	// image/webp.
	Type string
	// Hash is the hex SHA-256 of the bytes; the ETag is made of it.
	Hash          string
	Width, Height int
	Size          int64
	// Source is the URL it was fetched from; "" when uploaded or generated.
	Source  string
	Created time.Time
	// Data is the image itself; ImageInfo leaves it nil.
	Data []byte
}

// ImageStats is what the kept images amount to (originals and copies alike).
type ImageStats struct {
	Images int64
	// Bytes counts each distinct content once.
	Bytes int64
}

// Images stores pictures. It is optional: the image routes, the mirror and the demo loader
// type-assert it.
type Images interface {
	// PutImage stores an image under img.Path (Data, Type, Hash, Size, Width and Height must
	// be filled), replacing one stored there. Replacing an original with other bytes removes
	// its kept copies. A copy whose original is not held is ErrNotFound.
	// A put of an original advances DataVersion, so answers that point at held images are
	// remade; a copy's does not, as no answer names a copy.
	PutImage(ctx context.Context, img Image) error
	// Image returns the image at path with its bytes, or ErrNotFound.
	Image(ctx context.Context, path string) (Image, error)
	// ImageInfo returns the image at path without its bytes, or ErrNotFound.
	ImageInfo(ctx context.Context, path string) (Image, error)
	// ImageByHash returns an image whose bytes have that hash, without its bytes, or
	// ErrNotFound: a mirror that fetched bytes it holds under another path links them.
	ImageByHash(ctx context.Context, hash string) (Image, error)
	// ImagePaths calls fn with the path of every original (not the copies), in path order.
	ImagePaths(ctx context.Context, fn func(path string) error) error
	// DeleteImage removes the image at path and its kept copies, and the bytes no other
	// path names; ErrNotFound when there is none. Deleting a record never deletes an image.
	// It advances DataVersion too.
	DeleteImage(ctx context.Context, path string) error
	// ImageStats counts what is kept.
	ImageStats(ctx context.Context) (ImageStats, error)
	// ImageWrites counts the image writes (puts and deletes, of originals and copies) of
	// every replica: while it stays the same, every kept image is as it was.
	ImageWrites(ctx context.Context) (int64, error)
}
