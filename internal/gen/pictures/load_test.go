package pictures

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	"sportsdb/internal/media"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/pgtest"
	"sportsdb/internal/store/postgres"
	"sportsdb/internal/store/sqlite"
	"sportsdb/internal/store/storetest"
)

type imageStore interface {
	store.Store
	store.Images
}

// Load keeps every picture in both stores as the image routes will serve it: the type and
// size its header says, the hash of its bytes.
func TestLoadKeepsThePictures(t *testing.T) {
	ctx := context.Background()
	stores := map[string]func(t *testing.T) imageStore{
		"sqlite": func(t *testing.T) imageStore {
			return storetest.Opened(t, func(ctx context.Context) (*sqlite.Store, error) { return sqlite.Open(ctx, t.TempDir()+"/p.db") })
		},
		"postgres": func(t *testing.T) imageStore {
			dsn := pgtest.FreshSchema(t)
			return storetest.Opened(t, func(ctx context.Context) (*postgres.Store, error) { return postgres.Open(ctx, dsn) })
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			storetest.WriteEach(t, st, fixture()...)
			sum, err := Load(ctx, st, st, testNow)
			if err != nil {
				t.Fatal(err)
			}
			// Two badges (one also named as its copy /tiny), a thumbnail, a cutout.
			if sum.Pictures != 4 || sum.Distinct != 4 {
				t.Fatalf("loaded %+v, want 4 pictures", sum)
			}
			stats, err := st.ImageStats(ctx)
			if err != nil || stats.Images != 4 || stats.Bytes != sum.Bytes {
				t.Fatalf("stats %+v %v after %+v", stats, err, sum)
			}
			var paths []string
			st.ImagePaths(ctx, func(p string) error { paths = append(paths, p); return nil })
			for _, p := range paths {
				img, err := st.Image(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				info, err := media.Inspect(img.Data)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				h := sha256.Sum256(img.Data)
				if info.Type != img.Type || info.Width != img.Width || info.Height != img.Height ||
					hex.EncodeToString(h[:]) != img.Hash || img.Size != int64(len(img.Data)) || !img.Created.Equal(testNow) {
					t.Errorf("%s: kept as %s %dx%d %d bytes %s at %v; its bytes are %+v, %s", p, img.Type, img.Width, img.Height, img.Size, img.Hash, img.Created, info, hex.EncodeToString(h[:]))
				}
			}
			if _, err := st.ImageInfo(ctx, "/images/media/team/badge/a.png/tiny"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the copy's path was kept as an original: %v", err)
			}
			// Again: the same pictures replace themselves.
			if again, err := Load(ctx, st, st, testNow); err != nil || again.Bytes != sum.Bytes {
				t.Fatalf("second load %+v %v", again, err)
			}
			if stats2, _ := st.ImageStats(ctx); stats2 != stats {
				t.Fatalf("stats %+v after a second load, %+v after the first", stats2, stats)
			}
		})
	}
}

const r2 = "https://r2.thesportsdb.com/images/media/"

func fixture() []record.Record {
	team := func(id, name, c1, c2, badge string) record.Record {
		return storetest.Rec(record.Team, "idTeam", id, "strTeam", name, "strColour1", c1, "strColour2", c2, "strBadge", r2+"team/badge/"+badge)
	}
	return []record.Record{
		team("1", "Alpha", "#EF0107", "#FFFFFF", "a.png"),
		team("2", "Beta", "#013373", "#FDB913", "b.png"),
		storetest.Rec(record.Event, "idEvent", "9", "strEvent", "Alpha vs Beta", "idHomeTeam", "1", "idAwayTeam", "2",
			"strHomeTeamBadge", r2+"team/badge/a.png", "strAwayTeamBadge", r2+"team/badge/b.png", "strThumb", r2+"event/thumb/ab.jpg"),
		storetest.Rec(record.Player, "idPlayer", "5", "idTeam", "1", "strPlayer", "A Player", "strCutout", r2+"player/cutout/p.png"),
		storetest.Rec(record.Standing, "idStanding", "7", "idTeam", "1", "strTeam", "Alpha", "strBadge", r2+"team/badge/a.png/tiny"),
	}
}
