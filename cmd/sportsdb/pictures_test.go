package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/store/pgtest"
)

// gen --scale demo keeps the pictures its records name, on both databases, and says so:
// after it, no image field of the demo names a picture the server would answer 404 for.
func TestGenDemoKeepsPictures(t *testing.T) {
	dir := t.TempDir()
	dbs := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(dir, "demo.db") },
		"postgres": func(t *testing.T) string { return pgtest.FreshSchema(t) },
	}
	for name, db := range dbs {
		t.Run(name, func(t *testing.T) {
			dsn := db(t)
			out, ok := sportsdb(t, dir, nil, "gen", "--scale", "demo", "--db", dsn)
			if !ok || !strings.Contains(out, "gen demo seed 1: 14") || !strings.Contains(out, " pictures (") {
				t.Fatalf("gen: ok=%v\n%s", ok, out)
			}
			st, err := backend.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			im := st.(store.Images)
			stats, err := im.ImageStats(context.Background())
			if err != nil || stats.Images < 10000 {
				t.Fatalf("kept %+v, %v; want the demo's many thousand pictures", stats, err)
			}
			// Every image field of every record names a picture the store holds (a copy's
			// path, ".../x.png/tiny", names its original: the image routes make the copy).
			for _, k := range record.Kinds {
				err := st.Scan(context.Background(), k, func(r record.Record) error {
					for _, f := range k.Fields {
						v := r.Str(f)
						if !strings.Contains(v, "/images/") {
							continue
						}
						u, _ := url.Parse(v)
						path := strings.TrimSuffix(u.Path, "/tiny")
						if _, err := im.ImageInfo(context.Background(), path); err != nil {
							return fmt.Errorf("%s %s names %s: %w", k.Name, f, v, err)
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			arsenal, err := st.Get(context.Background(), record.Team, "133604")
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse(arsenal.Str("strBadge"))
			if img, err := im.ImageInfo(context.Background(), u.Path); err != nil || img.Type != "image/png" || img.Width != 512 {
				t.Fatalf("Arsenal's badge %s: %+v %v", u.Path, img, err)
			}
		})
	}
}
