package pictures

import (
	"bytes"
	"context"
	"crypto/sha256"
	"image"
	"image/color"
	_ "image/jpeg"
	_ "image/png"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/gen"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlite"
)

var testNow = time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)

var testDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pictures")
	if err != nil {
		panic(err)
	}
	testDir = dir
	code := m.Run()
	if demoSet.st != nil {
		demoSet.st.Close()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// demoStore is a SQLite database holding the demo dataset of seed.
func demoStore(t testing.TB, seed int64) *sqlite.Store {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir()+"/demo.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := gen.Generate(ctx, st, gen.Options{Scale: "demo", Seed: seed, Now: testNow}); err != nil {
		t.Fatal(err)
	}
	return st
}

// madeSet is the demo of seed 1 and its pictures, made once for the tests that read them.
type madeSet struct {
	st *sqlite.Store
	// c has noted every picture; pics holds them all drawn, or a sample (sampled) under the
	// race detector.
	c    *Collector
	pics map[string]Picture
	took time.Duration
}

var (
	demoOnce sync.Once
	demoSet  madeSet
	demoErr  error
)

func demo(t *testing.T) madeSet {
	t.Helper()
	demoOnce.Do(func() {
		ctx := context.Background()
		var st *sqlite.Store
		// The set outlives the test that made it: its database lives in TestMain's directory.
		if st, demoErr = sqlite.Open(ctx, testDir+"/demo.db"); demoErr != nil {
			return
		}
		if _, demoErr = gen.Generate(ctx, st, gen.Options{Scale: "demo", Seed: 1, Now: testNow}); demoErr != nil {
			return
		}
		demoSet.st = st
		if demoSet.c, demoErr = Collect(ctx, st); demoErr != nil {
			return
		}
		keep := func(string) bool { return true }
		if raceEnabled {
			keep = sampled(demoSet.c.Paths())
		}
		demoSet.pics, demoSet.took, demoErr = makeAll(ctx, st, keep)
	})
	if demoErr != nil {
		t.Fatal(demoErr)
	}
	return demoSet
}

// sampled keeps the first three paths of each folder.
func sampled(paths []string) func(string) bool {
	n := map[string]int{}
	keep := map[string]bool{}
	for _, p := range paths {
		if f := folder(p); n[f] < 3 {
			n[f]++
			keep[p] = true
		}
	}
	return func(p string) bool { return keep[p] }
}

// picture is the demo's picture at path: drawn now when the set holds only a sample.
func (set madeSet) picture(t *testing.T, path string) Picture {
	t.Helper()
	if p, ok := set.pics[path]; ok {
		return p
	}
	p, ok, err := set.c.Picture(path)
	if err != nil || !ok {
		t.Fatalf("%s: %v %v", path, ok, err)
	}
	return p
}

// makeAll draws the pictures of st's records that keep keeps.
func makeAll(ctx context.Context, st store.Records, keep func(string) bool) (map[string]Picture, time.Duration, error) {
	start := time.Now()
	c, err := Collect(ctx, st)
	if err != nil {
		return nil, 0, err
	}
	c.Keep(keep)
	pics := map[string]Picture{}
	err = c.Make(ctx, func(p Picture) error {
		pics[p.Path] = p
		return nil
	})
	return pics, time.Since(start), err
}

// Whatever an image field of a demo record names is made: the walk reads every field of
// every record, not a list of image fields, so a field added to the generator is covered.
// Under the race detector it is noted to be made, and a sample drawn.
func TestEveryImageOfTheDemoIsMade(t *testing.T) {
	set := demo(t)
	ctx := context.Background()
	named := 0
	for _, k := range record.Kinds {
		err := set.st.Scan(ctx, k, func(r record.Record) error {
			for _, f := range k.Fields {
				v := r.Str(f)
				if !strings.Contains(v, "/images/") {
					continue
				}
				u, err := url.Parse(v)
				if err != nil {
					t.Errorf("%s %s: %q: %v", k.Name, f, v, err)
					continue
				}
				named++
				path := u.Path
				for _, s := range []string{"/tiny", "/small", "/medium", "/preview"} {
					path = strings.TrimSuffix(path, s) // a copy the image routes make of its original
				}
				if _, ok := set.c.wants[path]; !ok || !raceEnabled && set.pics[path].Data == nil {
					t.Errorf("%s %s names %s: no picture made", k.Name, f, v)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if named < 10000 {
		t.Fatalf("the demo names %d pictures; expected the demo's many thousands", named)
	}
	var bytes int64
	seen := map[*byte]bool{}
	for _, p := range set.pics {
		if !seen[&p.Data[0]] {
			seen[&p.Data[0]] = true
			bytes += int64(len(p.Data))
		}
	}
	t.Logf("demo: %d fields name %d pictures (%d distinct, %.1f MB) made in %v", named, len(set.pics), len(seen), float64(bytes)/(1<<20), set.took)
}

// Every picture is what it says: its type, its size, and PNG or JPEG as its path's extension.
func TestPicturesDecodeAsDeclared(t *testing.T) {
	set := demo(t)
	checked := map[*byte]bool{}
	for path, p := range set.pics {
		if checked[&p.Data[0]] {
			continue
		}
		checked[&p.Data[0]] = true
		cfg, format, err := image.DecodeConfig(bytes.NewReader(p.Data))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if "image/"+format != p.Type || cfg.Width != p.Width || cfg.Height != p.Height {
			t.Errorf("%s: decodes as %s %dx%d, declared %s %dx%d", path, format, cfg.Width, cfg.Height, p.Type, p.Width, p.Height)
		}
		if want := map[bool]string{true: "image/png", false: "image/jpeg"}[strings.HasSuffix(path, ".png")]; p.Type != want {
			t.Errorf("%s: %s", path, p.Type)
		}
	}
}

// A team's badge is drawn in the team's own colours, on transparency, at the public
// service's 512 px.
func TestTeamBadgeWearsTheTeamsColours(t *testing.T) {
	set := demo(t)
	for _, id := range []string{"133604", "133602", "134700"} { // Arsenal, Liverpool, Atlético Madrid
		team, err := set.st.Get(context.Background(), record.Team, id)
		if err != nil {
			t.Fatal(err)
		}
		img := decode(t, set.picture(t, ImagePath(team.Str("strBadge"))))
		if img.Bounds().Dx() != 512 || img.Bounds().Dy() != 512 {
			t.Fatalf("%s: badge %v", team.Str("strTeam"), img.Bounds())
		}
		c1, _ := parseColour(team.Str("strColour1"))
		c2, _ := parseColour(team.Str("strColour2"))
		if got := nrgba(img.At(256, 400)); got != c1 { // the field, below the initials
			t.Errorf("%s: field %v, want strColour1 %v", team.Str("strTeam"), got, c1)
		}
		if got := nrgba(img.At(256, 24)); got != c2 { // the rim
			t.Errorf("%s: rim %v, want strColour2 %v", team.Str("strTeam"), got, c2)
		}
		if _, _, _, a := img.At(2, 509).RGBA(); a != 0 {
			t.Errorf("%s: the corner below the badge is not transparent", team.Str("strTeam"))
		}
	}
}

// An event's thumbnail shows its two teams: the home side's colours on the left, the away
// side's on the right.
func TestEventThumbShowsBothTeams(t *testing.T) {
	set := demo(t)
	ctx := context.Background()
	events, err := set.st.Find(ctx, store.Query{Kind: record.Event, Where: []store.Cond{{Field: "idLeague", Op: store.Eq, Value: "4328"}}})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, ev := range events {
		path := ImagePath(ev.Str("strThumb"))
		if path == "" {
			continue
		}
		home, _ := set.st.Get(ctx, record.Team, ev.Str("idHomeTeam"))
		away, _ := set.st.Get(ctx, record.Team, ev.Str("idAwayTeam"))
		hc, _ := parseColour(home.Str("strColour1"))
		ac, _ := parseColour(away.Str("strColour1"))
		img := decode(t, set.picture(t, path))
		if b := img.Bounds(); b.Dx() != thumbW || b.Dy() != thumbH {
			t.Fatalf("%s: %v", path, b)
		}
		if got := nrgba(img.At(8, 8)); !near(got, darker(hc, 0.85)) {
			t.Errorf("%s (%s): left %v, want the home side's %v", path, ev.Str("strEvent"), got, darker(hc, 0.85))
		}
		if got := nrgba(img.At(thumbW-8, thumbH-8)); !near(got, darker(ac, 0.85)) {
			t.Errorf("%s (%s): right %v, want the away side's %v", path, ev.Str("strEvent"), got, darker(ac, 0.85))
		}
		if checked++; checked == 5 {
			break
		}
	}
	if checked == 0 {
		t.Fatal("no Premier League event has a thumbnail")
	}
}

// The same records give the same bytes, however the drawing is spread over goroutines; a
// cutout is drawn for its team, so every player of a team shares one.
func TestSameSeedSameBytes(t *testing.T) {
	set := demo(t)
	again, _, err := makeAll(context.Background(), demoStore(t, 1), func(p string) bool { _, ok := set.pics[p]; return ok })
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(set.pics) {
		t.Fatalf("%d pictures, then %d", len(set.pics), len(again))
	}
	for path, p := range set.pics {
		if q, ok := again[path]; !ok || sha256.Sum256(q.Data) != sha256.Sum256(p.Data) {
			t.Fatalf("%s: other bytes the second time", path)
		}
	}
	other := demoStore(t, 2)
	c, err := Collect(context.Background(), other)
	if err != nil {
		t.Fatal(err)
	}
	arsenal, _ := other.Get(context.Background(), record.Team, "133604")
	p, ok, err := c.Picture(ImagePath(arsenal.Str("strBadge")))
	if err != nil || !ok {
		t.Fatalf("seed 2 badge: %v %v", ok, err)
	}
	first, _ := set.st.Get(context.Background(), record.Team, "133604")
	if arsenal.Str("strColour1") != first.Str("strColour1") && bytes.Equal(p.Data, set.picture(t, ImagePath(first.Str("strBadge"))).Data) {
		t.Fatal("seed 2 gave Arsenal other colours but the same badge")
	}
}

func decode(t *testing.T, p Picture) image.Image {
	t.Helper()
	if p.Data == nil {
		t.Fatalf("%s: no picture", p.Path)
	}
	img, _, err := image.Decode(bytes.NewReader(p.Data))
	if err != nil {
		t.Fatalf("%s: %v", p.Path, err)
	}
	return img
}

func nrgba(c color.Color) color.NRGBA { return color.NRGBAModel.Convert(c).(color.NRGBA) }

// near allows for JPEG's loss.
func near(a, b color.NRGBA) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.R, b.R) < 12 && d(a.G, b.G) < 12 && d(a.B, b.B) < 12
}

// A sport's black and white picture is its picture in grey.
func TestSportBlackAndWhiteIsGrey(t *testing.T) {
	set := demo(t)
	sport, err := set.st.Get(context.Background(), record.Sport, "102") // Soccer
	if err != nil {
		t.Fatal(err)
	}
	colour := decode(t, set.picture(t, ImagePath(sport.Str("strSportThumb"))))
	bw := decode(t, set.picture(t, ImagePath(sport.Str("strSportThumbBW"))))
	if colour.Bounds() != bw.Bounds() {
		t.Fatalf("sizes %v and %v", colour.Bounds(), bw.Bounds())
	}
	coloured := false
	b := bw.Bounds()
	for y := b.Min.Y + 4; y < b.Max.Y; y += 16 {
		for x := b.Min.X + 4; x < b.Max.X; x += 16 {
			g, c := nrgba(bw.At(x, y)), nrgba(colour.At(x, y))
			if !near(g, color.NRGBA{g.R, g.R, g.R, 255}) {
				t.Fatalf("(%d,%d) is %v in black and white", x, y, g)
			}
			coloured = coloured || !near(c, color.NRGBA{c.R, c.R, c.R, 255})
		}
	}
	if !coloured {
		t.Fatal("the colour picture is grey too")
	}
}
