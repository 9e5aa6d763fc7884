// Package pictures draws the pictures the demo dataset's records name: team badges in the
// team's colours with its initials, league badges and logos, player cutouts in their team's
// shirt, event pictures of the two teams' badges, flags, sport icons and stand-ins for the
// photographs. They are drawn from the records themselves, with the Go fonts and nothing
// fetched, so the same records always give the same bytes.
package pictures

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Summary tells what Load put.
type Summary struct {
	// Pictures counts the paths put; Distinct the different contents among them.
	Pictures, Distinct int
	// Bytes counts each distinct content once, as the store keeps it.
	Bytes   int64
	Elapsed time.Duration
}

func (s Summary) String() string {
	return fmt.Sprintf("%d pictures (%d distinct, %.1f MB) in %.1fs", s.Pictures, s.Distinct, float64(s.Bytes)/(1<<20), s.Elapsed.Seconds())
}

// Collect notes the pictures every record of st names.
func Collect(ctx context.Context, st store.Records) (*Collector, error) {
	c := NewCollector()
	for _, k := range record.Kinds {
		err := st.Scan(ctx, k, func(r record.Record) error {
			c.Add(r)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("pictures: read %s: %w", k.Name, err)
		}
	}
	return c, nil
}

// Load draws the picture every image field of st's records names and puts it in im under
// its path, replacing what was there. created is when they are said to be stored (answers'
// Last-Modified): the data clock's now, so a pinned clock gives the same answers.
func Load(ctx context.Context, st store.Records, im store.Images, created time.Time) (Summary, error) {
	start := time.Now()
	c, err := Collect(ctx, st)
	if err != nil {
		return Summary{}, err
	}
	sum, err := c.Put(ctx, im, created)
	sum.Elapsed = time.Since(start)
	return sum, err
}

// Put draws every picture noted and puts it in im, as Load does.
func (c *Collector) Put(ctx context.Context, im store.Images, created time.Time) (Summary, error) {
	start := time.Now()
	var sum Summary
	seen := map[string]bool{}
	err := c.Make(ctx, func(p Picture) error {
		h := sha256.Sum256(p.Data)
		img := store.Image{Path: p.Path, Type: p.Type, Hash: hex.EncodeToString(h[:]), Width: p.Width, Height: p.Height,
			Size: int64(len(p.Data)), Created: created, Data: p.Data}
		if err := im.PutImage(ctx, img); err != nil {
			return fmt.Errorf("pictures: %w", err)
		}
		sum.Pictures++
		if !seen[img.Hash] {
			seen[img.Hash] = true
			sum.Distinct++
			sum.Bytes += img.Size
		}
		return nil
	})
	sum.Elapsed = time.Since(start)
	return sum, err
}
