package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// pictures stands for the public service's image hosts: a TLS server that every connection
// to www.thesportsdb.com or r2.thesportsdb.com reaches (mediaClient). Each path gets a
// picture of its own, but the sports' icons all get one picture (the mirror links them) and the
// sports' thumbs a header claiming 100,000 x 100,000 pixels (refused).
type pictures struct {
	t     *testing.T
	clock interface{ Now() time.Time }
	srv   *httptest.Server
	// onHit, if set, runs at the n-th image request (from 1).
	onHit func(n int)

	mu     sync.Mutex
	hits   map[string]int
	times  []time.Time
	dialed map[string]bool
}

func newPictures(t *testing.T, clk interface{ Now() time.Time }) *pictures {
	p := &pictures{t: t, clock: clk, hits: map[string]int{}, dialed: map[string]bool{}}
	p.srv = httptest.NewTLSServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *pictures) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.hits[r.Host+r.URL.Path]++
	p.times = append(p.times, p.clock.Now())
	n := len(p.times)
	p.mu.Unlock()
	if p.onHit != nil {
		p.onHit(n)
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/images/icons/sports/"):
		w.Write(pngOf(p.t, "sport icon"))
	case strings.HasPrefix(r.URL.Path, "/images/sports/") && !strings.Contains(r.URL.Path, "/bw/"):
		w.Write(pngClaiming(p.t, 100_000, 100_000))
	default:
		w.Write(pngOf(p.t, r.URL.Path))
	}
}

// client is the mirror's HTTP client: the public hosts are this server; anything else is
// dialed as asked (the upstream's proxy). Every host dialed is noted.
func (p *pictures) client() *http.Client {
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // the test server's certificate names no public host
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			p.mu.Lock()
			p.dialed[addr] = true
			p.mu.Unlock()
			if strings.HasSuffix(addr, ".thesportsdb.com:443") {
				addr = p.srv.Listener.Addr().String()
			}
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

func (p *pictures) counts() (hits map[string]int, times []time.Time, dialed map[string]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	hits = map[string]int{}
	for k, v := range p.hits {
		hits[k] = v
	}
	dialed = map[string]bool{}
	for k := range p.dialed {
		dialed[k] = true
	}
	return hits, append([]time.Time(nil), p.times...), dialed
}

// pngOf is a 2x2 PNG whose bytes depend on seed.
func pngOf(t testing.TB, seed string) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	h := crc32.ChecksumIEEE([]byte(seed))
	img.SetNRGBA(0, 0, color.NRGBA{R: uint8(h), G: uint8(h >> 8), B: uint8(h >> 16), A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngClaiming is a small PNG whose header claims w x h pixels (its CRC made right).
func pngClaiming(t testing.TB, w, h uint32) []byte {
	b := pngOf(t, "huge")
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// namedImages are the paths of the images the records of st name on the public hosts.
func namedImages(t *testing.T, st store.Store) map[string]bool {
	t.Helper()
	hosts := ImageHosts("")
	out := map[string]bool{}
	for _, k := range record.Kinds {
		err := st.Scan(context.Background(), k, func(r record.Record) error {
			for _, e := range imageEntries([]record.Record{r}, hosts) {
				p, _ := ImagePath(strings.TrimPrefix(e.URL, imagePrefix), hosts)
				out[p] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func mediaSetup(t *testing.T) (up, down *apitest.Env, clk *fakeClock, pics *pictures, opts Options) {
	up = apitest.New(t, apitest.Options{Demo: true})
	clk = newFakeClock()
	p := newProxy(t, up.Server, clk, up.PremiumKey)
	down = apitest.New(t, apitest.Options{})
	pics = newPictures(t, clk)
	opts = mirrorOpts(up, p, clk)
	opts.Store, opts.Media, opts.HTTP = down.Store, true, pics.client()
	return up, down, clk, pics, opts
}

// A mirror with --media holds every image its records name, each fetched once from the
// host its record names it on; a picture over the limits is refused from its header, and
// bytes held under another path are linked. A second run fetches nothing again.
func TestMirrorMediaCopiesImages(t *testing.T) {
	_, down, _, pics, opts := mediaSetup(t)
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	named := namedImages(t, down.Store)
	if len(named) < 10 {
		t.Fatalf("the records name %d images", len(named))
	}
	hits, _, dialed := pics.counts()
	images := down.Store.(store.Images)
	var refused, linked int64
	for p := range named {
		_, err := images.ImageInfo(context.Background(), p)
		switch thumb := strings.HasPrefix(p, "/images/sports/") && !strings.Contains(p, "/bw/"); {
		case thumb && errors.Is(err, store.ErrNotFound):
			refused++
		case thumb, err != nil:
			t.Errorf("%s: %v", p, err)
		case strings.HasPrefix(p, "/images/icons/sports/"):
			linked++
		}
	}
	for p, n := range hits {
		if n != 1 {
			t.Errorf("%s asked %d times", p, n)
		}
	}
	for addr := range dialed {
		if !strings.HasSuffix(addr, ".thesportsdb.com:443") && !strings.HasPrefix(addr, "127.0.0.1:") {
			t.Errorf("dialed %s", addr)
		}
	}
	if sum.Images+sum.ImagesLinked+sum.ImagesRefused != int64(len(named)) || sum.ImagesRefused != refused ||
		sum.ImagesLinked != linked-1 || sum.Kept == nil || sum.Kept.Images != int64(len(named))-refused {
		t.Errorf("%d images named, %d refused, %d sport icons; summary %+v", len(named), refused, linked, sum)
	}
	if !strings.Contains(sum.String(), "; the database holds ") {
		t.Errorf("summary line %q", sum.String())
	}
	again, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if hits2, _, _ := pics.counts(); len(hits2) != len(hits) || again.Images != 0 {
		t.Errorf("a second run asked %d images (%d before), fetched %d", len(hits2), len(hits), again.Images)
	}
}

// Interrupted while copying images, the same command goes on with those it had not stored,
// asking none it stored again.
func TestMirrorMediaResumes(t *testing.T) {
	_, down, _, pics, opts := mediaSetup(t)
	ctx, cancel := context.WithCancel(context.Background())
	pics.onHit = func(n int) {
		if n == 7 {
			cancel()
		}
	}
	if _, err := Run(ctx, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	first, _, _ := pics.counts()
	if len(first) != 7 {
		t.Fatalf("%d images asked before the interruption", len(first))
	}
	pics.onHit = nil
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	hits, _, _ := pics.counts()
	again := 0
	for p, n := range hits {
		if n > 1 {
			again++
			if first[p] == 0 {
				t.Errorf("%s asked %d times", p, n)
			}
		}
	}
	// The one in flight when it was interrupted may be asked again.
	if again > opts.Workers {
		t.Errorf("%d images asked again after the interruption", again)
	}
	named := namedImages(t, down.Store)
	if sum.Kept == nil || sum.Kept.Images+sum.ImagesRefused < int64(len(named))-int64(len(first)) || len(hits) != len(named) {
		t.Errorf("%d images named, %d asked; summary %+v", len(named), len(hits), sum)
	}
}

// --media-rate holds image requests to N in any rolling 60 s of the (fake) clock.
func TestMirrorMediaRate(t *testing.T) {
	_, _, clk, pics, opts := mediaSetup(t)
	opts.MediaRate = 7
	start := clk.Now()
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	_, times, _ := pics.counts()
	if len(times) < 3*opts.MediaRate {
		t.Fatalf("only %d images asked", len(times))
	}
	for i := range times {
		n := 0
		for _, at := range times[i:] {
			if at.Sub(times[i]) < time.Minute {
				n++
			}
		}
		if n > opts.MediaRate {
			t.Fatalf("%d image requests within 60 s from %s", n, times[i].Sub(start))
		}
	}
	if min := time.Duration(len(times)/opts.MediaRate-1) * time.Minute; times[len(times)-1].Sub(start) < min {
		t.Errorf("%d images in %s; the rate allows no less than %s", len(times), times[len(times)-1].Sub(start), min)
	}
}

func TestImagePath(t *testing.T) {
	hosts := ImageHosts("http://127.0.0.1:8081")
	for _, c := range []struct {
		address, path string
	}{
		{"https://r2.thesportsdb.com/images/media/team/badge/x.png", "/images/media/team/badge/x.png"},
		{"http://www.thesportsdb.com/images/sports/soccer.jpg", "/images/sports/soccer.jpg"},
		{"http://127.0.0.1:8081/images/media/player/thumb/y.jpg", "/images/media/player/thumb/y.jpg"},
		{"https://R2.TheSportsDB.com/images/a%20b.png", "/images/a%20b.png"},
		{"https://evil.example/images/media/team/badge/x.png", ""},
		{"http://127.0.0.1:8082/images/x.png", ""},
		{"https://r2.thesportsdb.com/api/v1/json/3/all_sports.php", ""},
		{"https://r2.thesportsdb.com/images/x.png?size=1", ""},
		{"https://user@r2.thesportsdb.com/images/x.png", ""},
		{"https://r2.thesportsdb.com/images/../api/x", ""},
		{"ftp://r2.thesportsdb.com/images/x.png", ""},
		{"www.arsenal.com", ""},
	} {
		p, ok := ImagePath(c.address, hosts)
		if p != c.path || ok != (c.path != "") {
			t.Errorf("%s: %q %v, want %q", c.address, p, ok, c.path)
		}
	}
}

// A run with --media after one without copies the images of the records stored before
// (their answers are fresh, so no answer queues them), and leaves alone an image held under
// its path already.
func TestMirrorMediaAfterARunWithout(t *testing.T) {
	_, down, _, pics, opts := mediaSetup(t)
	opts.Media = false
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if hits, _, _ := pics.counts(); len(hits) != 0 {
		t.Fatalf("a run without --media asked %d images", len(hits))
	}
	named := namedImages(t, down.Store)
	var held string
	for p := range named {
		if strings.HasPrefix(p, "/images/media/team/badge/") {
			held = p
			break
		}
	}
	data := pngOf(t, "held")
	sum256 := sha256.Sum256(data)
	err := down.Store.(store.Images).PutImage(context.Background(), store.Image{Path: held, Type: "image/png",
		Hash: hex.EncodeToString(sum256[:]), Size: int64(len(data)), Width: 2, Height: 2, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	opts.Media = true
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	hits, _, _ := pics.counts()
	if len(hits) != len(named)-1 || hits["r2.thesportsdb.com"+held] != 0 || sum.ImagesHeld != 1 {
		t.Errorf("%d images named, %d asked (the one held: %d times); summary %+v", len(named), len(hits), hits["r2.thesportsdb.com"+held], sum)
	}
}

// A record naming a smaller copy (a table row's "x.png/tiny" badge) queues its original:
// the copy is made here, and the upstream's hosts are never asked for one.
func TestImageEntriesNameOriginals(t *testing.T) {
	row := record.FromDoc(record.Standing, `{"idStanding":"1","strBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/x.png\/tiny",`+
		`"strTeam":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/y.png\/large"}`)
	es := imageEntries([]record.Record{row}, ImageHosts(""))
	var got []string
	for _, e := range es {
		got = append(got, strings.TrimPrefix(e.URL, imagePrefix))
	}
	want := []string{"https://r2.thesportsdb.com/images/media/team/badge/x.png", "https://r2.thesportsdb.com/images/media/team/badge/y.png/large"}
	slices.Sort(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("queued %q, want %q", got, want)
	}
}
