package imageurl

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"sportsdb/internal/store"
)

// paths is a store.Images that holds only paths.
type paths []string

func (p paths) ImagePaths(_ context.Context, fn func(string) error) error {
	for _, s := range p {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

func (paths) PutImage(context.Context, store.Image) error { return nil }
func (paths) Image(context.Context, string) (store.Image, error) {
	return store.Image{}, store.ErrNotFound
}
func (paths) ImageInfo(context.Context, string) (store.Image, error) {
	return store.Image{}, store.ErrNotFound
}
func (paths) ImageByHash(context.Context, string) (store.Image, error) {
	return store.Image{}, store.ErrNotFound
}
func (paths) DeleteImage(context.Context, string) error  { return store.ErrNotFound }
func (paths) ImageWrites(context.Context) (int64, error) { return 0, nil }

func (paths) ImageStats(context.Context) (store.ImageStats, error) {
	return store.ImageStats{}, nil
}

const held = "/images/media/team/badge/x.png"

func TestRewrite(t *testing.T) {
	w := New(Options{Images: paths{held, "/images/sports/soccer.jpg"}, Hosts: append(PublicHosts, "up.example:8081"),
		PublicURL: "https://sports.example"})
	if _, err := w.At(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/", nil)
	for _, c := range []struct {
		name, in, want string
		images         bool
	}{
		{"escaped, r2", `{"strBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/x.png"}`,
			`{"strBadge":"https:\/\/sports.example\/images\/media\/team\/badge\/x.png"}`, true},
		{"plain, www, http", `{"a":"http://www.thesportsdb.com/images/media/team/badge/x.png","b":1}`,
			`{"a":"https://sports.example/images/media/team/badge/x.png","b":1}`, true},
		{"upstream's host", `<icon src="http://up.example:8081/images/sports/soccer.jpg"/>`,
			`<icon src="https://sports.example/images/sports/soccer.jpg"/>`, true},
		{"not held", `{"a":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/y.png"}`,
			`{"a":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/y.png"}`, true},
		{"a longer path is another image", `{"a":"https://r2.thesportsdb.com/images/media/team/badge/x.png2"}`,
			`{"a":"https://r2.thesportsdb.com/images/media/team/badge/x.png2"}`, true},
		{"a copy of a held original (the image routes make it)", `{"a":"https://r2.thesportsdb.com/images/media/team/badge/x.png/tiny"}`,
			`{"a":"https://sports.example/images/media/team/badge/x.png/tiny"}`, true},
		{"a copy of an original not held", `{"a":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/y.png\/small"}`,
			`{"a":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/y.png\/small"}`, true},
		{"not a copy's name", `{"a":"https://r2.thesportsdb.com/images/media/team/badge/x.png/large"}`,
			`{"a":"https://r2.thesportsdb.com/images/media/team/badge/x.png/large"}`, true},
		{"other host", `{"a":"https://evil.example/images/media/team/badge/x.png"}`,
			`{"a":"https://evil.example/images/media/team/badge/x.png"}`, false},
		{"not an image path", `{"a":"https://www.thesportsdb.com/league/4328"}`,
			`{"a":"https://www.thesportsdb.com/league/4328"}`, false},
		{"two, one held", `["https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/y.png","https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/x.png"]`,
			`["https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/y.png","https:\/\/sports.example\/images\/media\/team\/badge\/x.png"]`, true},
		{"cut short", `{"a":"https:\/\/r2.thesportsdb.com`, `{"a":"https:\/\/r2.thesportsdb.com`, false},
		{"no address", `{"strTeam":"Arsenal","strWebsite":"http"}`, `{"strTeam":"Arsenal","strWebsite":"http"}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, images := w.Rewrite(r, "", []byte(c.in))
			if string(got) != c.want || images != c.images {
				t.Errorf("got %s %v\nwant %s %v", got, images, c.want, c.images)
			}
		})
	}
}

// An answer names the host the request came in on: the key says which, so an answer is
// never served to a request on another host.
func TestRequestHost(t *testing.T) {
	w := New(Options{Images: paths{held}, Hosts: PublicHosts, TrustProxy: true,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	body := []byte(`{"strBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/x.png"}`)
	r := httptest.NewRequest("GET", "http://sports.local:8080/api", nil)
	if k := w.Key(r, "k"); k != "k" {
		t.Fatalf("before the set is loaded the key is %q; want k", k)
	}
	if got, _ := w.Rewrite(r, "k", body); string(got) != string(body) {
		t.Fatalf("rewritten before the set is loaded: %s", got)
	}
	if _, err := w.At(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	rewrite := func(r *http.Request) string {
		got, _ := w.Rewrite(r, w.Key(r, "k"), body)
		return string(got)
	}
	if got := rewrite(r); got != `{"strBadge":"http:\/\/sports.local:8080\/images\/media\/team\/badge\/x.png"}` {
		t.Errorf("plain request: %s", got)
	}
	// A key made while the set was empty holds no host: its answer is left as stored.
	if got, _ := w.Rewrite(r, "k", body); string(got) != string(body) {
		t.Errorf("a key without the host: %s", got)
	}
	r.TLS = &tls.ConnectionState{}
	if got := rewrite(r); got != `{"strBadge":"https:\/\/sports.local:8080\/images\/media\/team\/badge\/x.png"}` {
		t.Errorf("TLS: %s", got)
	}
	proxied := httptest.NewRequest("GET", "http://10.0.0.5/api", nil)
	proxied.RemoteAddr = "10.1.2.3:5555"
	proxied.Header.Set("X-Forwarded-Proto", "https")
	proxied.Header.Set("X-Forwarded-Host", "Sports.Example, inner")
	if got := rewrite(proxied); got != `{"strBadge":"https:\/\/sports.example\/images\/media\/team\/badge\/x.png"}` {
		t.Errorf("behind a proxy: %s", got)
	}
	proxied.RemoteAddr = "192.0.2.1:5555" // not a proxy: its headers say nothing
	if got := rewrite(proxied); got != `{"strBadge":"http:\/\/10.0.0.5\/images\/media\/team\/badge\/x.png"}` {
		t.Errorf("headers from a client: %s", got)
	}
	for _, host := range []string{`evil"}`, "a b", `x\y`, "<x>"} {
		bad := httptest.NewRequest("GET", "http://ok/api", nil)
		bad.Host = host
		if got := rewrite(bad); got != string(body) {
			t.Errorf("host %q: %s", host, got)
		}
	}
}

// The generation moves only when the set of held paths changed.
func TestGeneration(t *testing.T) {
	c := &changing{}
	w := New(Options{Images: c, Hosts: PublicHosts})
	ctx := context.Background()
	gen := func(version int64) int64 {
		g, err := w.At(ctx, version)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g1 := gen(1)
	if g := gen(2); g != g1 {
		t.Errorf("nothing changed, generation %d -> %d", g1, g)
	}
	c.set(held)
	g3 := gen(3)
	if g3 == g1 {
		t.Errorf("an image stored, the generation stayed %d", g3)
	}
	if g := gen(2); g != g3 {
		t.Errorf("an older version asked after: %d, want %d", g, g3)
	}
}

// The paths are read again only when the count of image writes moved: the writes of records
// that move the data version a hundred times a second cost one read of the count each.
func TestAtReadsThePathsWhenImagesWereWritten(t *testing.T) {
	c := &changing{}
	c.set(held)
	w := New(Options{Images: c, Hosts: PublicHosts})
	ctx := context.Background()
	for v := int64(1); v <= 5; v++ {
		if _, err := w.At(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	if c.loads != 1 {
		t.Errorf("five versions without an image write: the paths were read %d times, want 1", c.loads)
	}
	g5, _ := w.At(ctx, 5)
	c.set(held, "/images/media/team/badge/y.png")
	g6, err := w.At(ctx, 6)
	if err != nil {
		t.Fatal(err)
	}
	if c.loads != 2 || g6 == g5 {
		t.Errorf("after an image write: %d reads of the paths and generation %d -> %d; want 2 reads and a new generation", c.loads, g5, g6)
	}
	if body := w.withSet([]byte(`"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/y.png"`), formsOf("http://here")); string(body) != `"http:\/\/here\/images\/media\/team\/badge\/y.png"` {
		t.Errorf("the image written is not pointed here: %s", body)
	}
}

// changing is a store.Images whose paths change, counting its writes as a store does, and
// the reads of its paths.
type changing struct {
	paths
	writes, loads int64
}

func (c *changing) set(ps ...string) { c.paths, c.writes = ps, c.writes+1 }

func (c *changing) ImagePaths(ctx context.Context, fn func(string) error) error {
	c.loads++
	return c.paths.ImagePaths(ctx, fn)
}

func (c *changing) ImageWrites(context.Context) (int64, error) { return c.writes, nil }

// gated holds ImagePaths until released.
type gated struct {
	paths
	entered, release chan struct{}
}

func (g gated) ImagePaths(ctx context.Context, fn func(string) error) error {
	close(g.entered)
	<-g.release
	return g.paths.ImagePaths(ctx, fn)
}

// A request that finds the set being loaded goes on with the set it has, and its answer
// carries that set's generation.
func TestAtDoesNotWaitForALoad(t *testing.T) {
	g := gated{paths: paths{held}, entered: make(chan struct{}), release: make(chan struct{})}
	w := New(Options{Images: g, Hosts: PublicHosts})
	done := make(chan int64)
	go func() {
		gen, err := w.At(context.Background(), 1)
		if err != nil {
			t.Error(err)
		}
		done <- gen
	}()
	<-g.entered
	if gen, err := w.At(context.Background(), 2); err != nil || gen != 0 {
		t.Errorf("while the set loads: generation %d, %v; want 0 at once", gen, err)
	}
	close(g.release)
	if gen := <-done; gen != 1 {
		t.Errorf("the load ended with generation %d, want 1", gen)
	}
}

// Records sent where no request says an address (webhooks, MQTT) name held images on
// --public-url, with the set brought up to the data version; without it, nothing changes.
func TestPublished(t *testing.T) {
	c := &changing{}
	version := int64(1)
	dataVersion := func(context.Context) (int64, error) { return version, nil }
	if f := New(Options{Images: c, Hosts: PublicHosts}).Published(dataVersion); f != nil {
		t.Error("a rewrite without --public-url")
	}
	f := New(Options{Images: c, Hosts: PublicHosts, PublicURL: "https://sports.example"}).Published(dataVersion)
	body := []byte(`{"strBadge":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/badge\/x.png"}`)
	if got := f(context.Background(), body); string(got) != string(body) {
		t.Errorf("nothing held: %s", got)
	}
	c.set(held)
	version = 2
	if got := f(context.Background(), body); string(got) != `{"strBadge":"https:\/\/sports.example\/images\/media\/team\/badge\/x.png"}` {
		t.Errorf("held: %s", got)
	}
}
