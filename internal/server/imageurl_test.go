package server_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/config"
	"sportsdb/internal/mirror"
	"sportsdb/internal/record"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// badgeOf is the stored address of team 133604's badge, and its path.
func badgeOf(t testing.TB, env *apitest.Env) (url, path string) {
	t.Helper()
	var got struct {
		Teams []struct{ StrBadge string } `json:"teams"`
	}
	r := env.Get(t, "/api/v1/json/"+env.PremiumKey+"/lookupteam.php?id=133604")
	if err := json.Unmarshal(r.Body, &got); err != nil || len(got.Teams) != 1 {
		t.Fatalf("lookupteam: %v %s", err, r.Body)
	}
	url = got.Teams[0].StrBadge
	_, path, ok := strings.Cut(url, "thesportsdb.com")
	if !ok || !strings.HasPrefix(path, "/images/") {
		t.Fatalf("the demo badge is %q", url)
	}
	return url, path
}

func putImage(t testing.TB, env *apitest.Env, path string) {
	t.Helper()
	data := []byte("\x89PNG\r\n\x1a\n" + path)
	sum := sha256.Sum256(data)
	img := store.Image{Path: path, Type: "image/png", Hash: hex.EncodeToString(sum[:]), Size: int64(len(data)), Width: 1, Height: 1, Data: data}
	if err := env.Store.(store.Images).PutImage(context.Background(), img); err != nil {
		t.Fatal(err)
	}
}

// escaped is an address as answers write it.
func escaped(s string) string { return strings.ReplaceAll(s, "/", `\/`) }

// Every surface that writes records points the address of a held image at the host the
// request came in on, and leaves the others as stored; the answers cached before the image
// was stored are computed again.
func TestImageAddressesFollowTheRequest(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	stored, path := badgeOf(t, env)
	k := env.PremiumKey
	paths := []string{
		"/api/v1/json/" + k + "/lookupteam.php?id=133604",
		"/api/v1/json/" + k + "/search_all_teams.php?l=English_Premier_League",
		"/api/v2/json/" + k + "/lookup/team/133604",
		"/api/v2/json/lookup/team/133604",
		"/sportarr/" + k + "/lookup/team/133604",
		"/xmltv/" + k + "/team/133604.xml?days=14",
	}
	for _, p := range paths {
		if r := env.Get(t, p, "X-API-KEY", k); !bytes.Contains(r.Body, []byte(escaped(stored))) && !bytes.Contains(r.Body, []byte(stored)) {
			t.Fatalf("%s: %d, the stored address is not in %.300s", p, r.Status, r.Body)
		}
	}
	putImage(t, env, path)
	for _, host := range []string{"sportsdb.test", "sports.local:8080"} {
		here := "http://" + host + path
		for _, p := range paths {
			r := env.Get(t, p, "X-API-KEY", k, "Host", host)
			if !bytes.Contains(r.Body, []byte(escaped(here))) && !bytes.Contains(r.Body, []byte(here)) {
				t.Errorf("%s on %s: %d, no %s in %.300s", p, host, r.Status, here, r.Body)
			}
			if bytes.Contains(r.Body, []byte(escaped(stored))) || bytes.Contains(r.Body, []byte(stored)) {
				t.Errorf("%s on %s: the stored address is still there", p, host)
			}
		}
	}
	// The images this server does not hold keep their addresses.
	r := env.Get(t, paths[0])
	if !bytes.Contains(r.Body, []byte(`https:\/\/r2.thesportsdb.com\/images\/media\/team\/`)) {
		t.Errorf("no other address is left as stored: %s", r.Body)
	}
}

func TestImageAddressesSettings(t *testing.T) {
	for _, c := range []struct {
		name      string
		configure func(*config.Config)
		headers   []string
		want      string // "" : as stored
	}{
		{"public url", func(c *config.Config) { c.PublicURL = "https://sports.example/db" }, nil, "https://sports.example/db"},
		{"public url beats the proxy", func(c *config.Config) { c.PublicURL, c.TrustProxy = "https://sports.example", true },
			[]string{"X-Forwarded-Host", "other.example"}, "https://sports.example"},
		{"behind a proxy", func(c *config.Config) { c.TrustProxy = true },
			[]string{"X-Forwarded-Proto", "https", "X-Forwarded-Host", "sports.example"}, "https://sports.example"},
		{"proxy headers without --trust-proxy", func(*config.Config) {},
			[]string{"X-Forwarded-Proto", "https", "X-Forwarded-Host", "sports.example"}, "http://sportsdb.test"},
		{"stored", func(c *config.Config) { c.MediaURLs = "stored" }, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := apitest.New(t, apitest.Options{Demo: true, Configure: c.configure})
			stored, path := badgeOf(t, env)
			putImage(t, env, path)
			want := stored
			if c.want != "" {
				want = c.want + path
			}
			r := env.Get(t, "/api/v1/json/"+env.PremiumKey+"/lookupteam.php?id=133604", c.headers...)
			if !bytes.Contains(r.Body, []byte(escaped(want))) {
				t.Errorf("want %s in %s", want, r.Body)
			}
		})
	}
}

// imageUpstream reads nothing through, but says it fetches images.
type imageUpstream struct{}

func (imageUpstream) Ensure(context.Context, string, string) (bool, error) { return false, nil }
func (imageUpstream) Image(context.Context, string) error                  { return nil }

// Reading through to an upstream that fetches images, every image address points here,
// held or not: the image is fetched on its first request.
func TestImageAddressesWithUpstream(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true, Upstream: func(store.Store) server.Upstream { return imageUpstream{} }})
	r := env.Get(t, "/api/v1/json/"+env.PremiumKey+"/lookupteam.php?id=133604", "Host", "sports.local")
	if bytes.Contains(r.Body, []byte("thesportsdb.com")) || !bytes.Contains(r.Body, []byte(`"strBadge":"http:\/\/sports.local\/images\/media\/team\/badge\/`)) {
		t.Errorf("%s", r.Body)
	}
}

// A stream sends the records of its changes with the addresses of held images on the host
// it was opened on.
func TestImageAddressesInStreams(t *testing.T) {
	e := newLiveEnv(t, nil)
	const held = "/images/media/team/badge/held.png"
	putImage(t, e.env, held)
	c := openStream(t, e.base, "/api/v2/json/stream/changes?kinds=team", e.premium)
	defer c.close()
	r := team("1", "One")
	r.Set("strBadge", record.Str("https://r2.thesportsdb.com"+held))
	r.Set("strLogo", record.Str("https://r2.thesportsdb.com/images/media/team/logo/other.png"))
	upsert(t, e.store, r)
	ev := c.nextEvent(t)
	here := strings.TrimPrefix(e.base, "http://")
	if !strings.Contains(ev.data, `"strBadge":"http:\/\/`+here+`\/images\/media\/team\/badge\/held.png"`) ||
		!strings.Contains(ev.data, `"strLogo":"https:\/\/r2.thesportsdb.com\/images\/media\/team\/logo\/other.png"`) {
		t.Errorf("event data %s", ev.data)
	}
}

// Reading through, the first GET of an image the store does not hold fetches it from the
// upstream's own host, once, keeps it and serves it; a copy of an original not held brings
// the original first; an image the upstream lacks is 404.
func TestImageReadThroughServes(t *testing.T) {
	var asked sync.Map
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := asked.LoadOrStore(r.URL.Path, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		if strings.Contains(r.URL.Path, "missing") {
			http.NotFound(w, r)
			return
		}
		img := image.NewNRGBA(image.Rect(0, 0, 600, 300))
		w.Header().Set("Content-Type", "image/png")
		png.Encode(w, img)
	}))
	defer up.Close()
	env := apitest.New(t, apitest.Options{Upstream: func(st store.Store) server.Upstream {
		f, err := mirror.NewFetcher(mirror.FetcherOptions{From: up.URL, Key: "k", Store: st})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}})
	count := func(p string) int32 {
		n, ok := asked.Load(p)
		if !ok {
			return 0
		}
		return n.(*atomic.Int32).Load()
	}
	const badge = "/images/media/team/badge/x.png"
	for range 2 {
		r := env.Get(t, badge)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %d %s", badge, r.Status, r.Body)
		}
	}
	if n := count(badge); n != 1 {
		t.Errorf("the upstream was asked %d times for %s", n, badge)
	}
	const thumb = "/images/media/player/thumb/y.png"
	r := env.Get(t, thumb+"/small")
	if r.Status != http.StatusOK || count(thumb) != 1 || count(thumb+"/small") != 0 {
		t.Errorf("a copy: %d, the upstream asked %d for its original and %d for the copy", r.Status, count(thumb), count(thumb+"/small"))
	}
	const missing = "/images/media/team/badge/missing.png"
	for range 2 {
		if r := env.Get(t, missing); r.Status != http.StatusNotFound {
			t.Errorf("%s: %d %s", missing, r.Status, r.Body)
		}
	}
	if n := count(missing); n != 1 {
		t.Errorf("the upstream was asked %d times for an image it lacks", n)
	}
}

// A mirror of another sportsdb holds addresses on that sportsdb's host: --media-hosts
// points those here too when the image is held, and only those.
func TestImageAddressesOfOtherHosts(t *testing.T) {
	for _, c := range []struct {
		hosts []string
		want  string
	}{
		{nil, `http:\/\/up.local:8081\/images\/media\/team\/badge\/held.png`},
		{[]string{"up.local:8081"}, `http:\/\/sportsdb.test\/images\/media\/team\/badge\/held.png`},
	} {
		env := apitest.New(t, apitest.Options{Configure: func(cfg *config.Config) { cfg.MediaHosts = c.hosts }})
		r := team("7", "Seven")
		r.Set("strBadge", record.Str("http://up.local:8081/images/media/team/badge/held.png"))
		upsert(t, env.Store, r)
		putImage(t, env, "/images/media/team/badge/held.png")
		if got := env.V1(t, env.PremiumKey, "lookupteam.php?id=7"); !strings.Contains(string(got.Body), `"strBadge":"`+c.want+`"`) {
			t.Errorf("--media-hosts %v: %s", c.hosts, got.Body)
		}
	}
}
