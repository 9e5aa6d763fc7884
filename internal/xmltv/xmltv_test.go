package xmltv_test

import (
	"encoding/xml"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/testsupport"
)

// tv is an XMLTV document as a reader sees it.
type tv struct {
	Channels []struct {
		ID   string `xml:"id,attr"`
		Name string `xml:"display-name"`
		Icon struct {
			Src string `xml:"src,attr"`
		} `xml:"icon"`
	} `xml:"channel"`
	Programmes []struct {
		Start      string   `xml:"start,attr"`
		Stop       string   `xml:"stop,attr"`
		Channel    string   `xml:"channel,attr"`
		Title      string   `xml:"title"`
		Categories []string `xml:"category"`
		Icon       struct {
			Src string `xml:"src,attr"`
		} `xml:"icon"`
	} `xml:"programme"`
}

func decode(t *testing.T, r *apitest.Response) tv {
	t.Helper()
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Fatalf("status %d, content type %q: %.300s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	var doc tv
	if err := xml.Unmarshal(r.Body, &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	return doc
}

// validate runs Debian's XMLTV validator (xmltv-util) on the body against the XMLTV DTD:
// it skips without the tool, and fails under CI=true, which installs it.
func validate(t *testing.T, body []byte) {
	t.Helper()
	tool, err := exec.LookPath("tv_validate_file")
	if err != nil {
		testsupport.Unavailable(t, "no tv_validate_file (%v); install it with apt-get install xmltv-util", err)
	}
	file := filepath.Join(t.TempDir(), "tv.xml")
	if err := os.WriteFile(file, body, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, file)
	cmd.Env = append(os.Environ(), "XMLTV_SUPPLEMENT=/usr/share/xmltv")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tv_validate_file refused the guide: %v\n%s", err, out)
	}
}

var xmltvTime = regexp.MustCompile(`^\d{14} \+0000$`)

func countryPath(key, query string) string { return "/xmltv/" + key + "/tv.xml?" + query }

// A country's guide holds its channels, each once with its logo, and its listings of the
// guide's days as programmes in UTC; it is valid XMLTV.
func TestCountryGuide(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	r := env.Get(t, countryPath(env.PremiumKey, "country=United%20States&days=14"))
	doc := decode(t, r)
	if len(doc.Channels) == 0 || len(doc.Programmes) <= 15 {
		t.Fatalf("%d channels, %d programmes: want channels and more than a free key's 15", len(doc.Channels), len(doc.Programmes))
	}
	ids := map[string]bool{}
	for _, c := range doc.Channels {
		if ids[c.ID] || !strings.HasSuffix(c.ID, ".channel.sportsdb") || c.Name == "" || !strings.HasPrefix(c.Icon.Src, "https://") {
			t.Errorf("channel %+v: want a unique id from its record, its name and logo", c)
		}
		ids[c.ID] = true
	}
	today := env.Clock.Now().UTC().Format("20060102")
	for _, p := range doc.Programmes {
		if !ids[p.Channel] || !xmltvTime.MatchString(p.Start) || !xmltvTime.MatchString(p.Stop) || p.Stop <= p.Start ||
			p.Start[:8] < today || p.Title == "" || len(p.Categories) == 0 {
			t.Errorf("programme %+v", p)
		}
	}
	validate(t, r.Body)
}

// Channel ids, and the whole body with its ETag, are the same from another server on
// another database of the same records: a guide does not move between runs or replicas.
func TestGuideStableAcrossServers(t *testing.T) {
	a := apitest.New(t, apitest.Options{Demo: true})
	b := apitest.New(t, apitest.Options{Demo: true})
	for _, path := range []string{"tv.xml?country=Turkey", "team/133604.xml?days=14"} {
		ra, rb := a.Get(t, "/xmltv/"+a.PremiumKey+"/"+path), b.Get(t, "/xmltv/"+b.PremiumKey+"/"+path)
		if string(ra.Body) != string(rb.Body) || ra.Header.Get("ETag") == "" || ra.Header.Get("ETag") != rb.Header.Get("ETag") {
			t.Errorf("%s differs between two servers of the same records (ETag %q, %q)", path, ra.Header.Get("ETag"), rb.Header.Get("ETag"))
		}
	}
}

// A team's guide is one channel with the team's badge, its games as programmes with the
// league as category; valid XMLTV.
func TestTeamGuide(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	r := env.Get(t, "/xmltv/"+env.PremiumKey+"/team/133604.xml?days=14")
	doc := decode(t, r)
	if len(doc.Channels) != 1 || doc.Channels[0].ID != "133604.team.sportsdb" || doc.Channels[0].Name != "Arsenal" ||
		!strings.Contains(doc.Channels[0].Icon.Src, "/images/media/team/badge/") {
		t.Fatalf("channels %+v: want Arsenal's one channel with its badge", doc.Channels)
	}
	if len(doc.Programmes) == 0 {
		t.Fatal("no games in 14 days")
	}
	for _, p := range doc.Programmes {
		if !strings.Contains(p.Title, "Arsenal") || len(p.Categories) == 0 || p.Categories[0] != "English Premier League" ||
			!xmltvTime.MatchString(p.Start) || p.Icon.Src == "" {
			t.Errorf("programme %+v", p)
		}
	}
	validate(t, r.Body)
}

// An ETag the client holds gives 304 without a body.
func TestGuideNotModified(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	path := "/xmltv/" + env.PremiumKey + "/team/133604.xml"
	first := env.Get(t, path)
	etag := first.Header.Get("ETag")
	again := env.Get(t, path, "If-None-Match", etag)
	if etag == "" || again.Status != http.StatusNotModified || len(again.Body) != 0 {
		t.Errorf("If-None-Match %q: status %d, %d bytes; want 304 and no body", etag, again.Status, len(again.Body))
	}
	if other := env.Get(t, path, "If-None-Match", `"other"`); other.Status != http.StatusOK {
		t.Errorf("another ETag: status %d", other.Status)
	}
}

// A free key gets the next 15 programmes at most, none that has started, as a free key's
// calendar holds the next 15 events.
func TestFreeKeyGuide(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	doc := decode(t, env.Get(t, countryPath(env.FreeKey, "country=United%20States&days=14")))
	now := env.Clock.Now().UTC().Format("20060102150405")
	if len(doc.Programmes) == 0 || len(doc.Programmes) > 15 {
		t.Fatalf("free key: %d programmes, want 1 to 15", len(doc.Programmes))
	}
	for _, p := range doc.Programmes {
		if p.Start[:14] < now {
			t.Errorf("free key: programme started at %s, before now %s", p.Start, now)
		}
	}
}

// Guides are counted against the key's limit like any request, with the same headers.
func TestGuideRateLimited(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true, Limiter: ratelimit.NewMemory(clock.Fixed(apitest.FixtureNow)),
		Limits: map[store.Tier]int{store.Free: 2, store.Premium: 100, store.Business: 120}})
	path := "/xmltv/" + env.FreeKey + "/team/133604.xml"
	for i := range 2 {
		if r := env.Get(t, path); r.Status != http.StatusOK || r.Header.Get("X-RateLimit-Limit") != "2" {
			t.Fatalf("request %d: status %d, X-RateLimit-Limit %q", i+1, r.Status, r.Header.Get("X-RateLimit-Limit"))
		}
	}
	r := env.Get(t, path)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(r.Body), "Rate limit exceeded") {
		t.Errorf("third request: %d %s, want 429", r.Status, r.Body)
	}
}

// Bad input is a clear JSON answer, never a 500.
func TestGuideBadInput(t *testing.T) {
	env := apitest.New(t, apitest.Options{Demo: true})
	k := env.PremiumKey
	tests := []struct {
		path   string
		status int
		msg    string
	}{
		{countryPath(k, "country=Turkey&days=0"), 400, "days must be a whole number from 1 to 14"},
		{countryPath(k, "country=Turkey&days=15"), 400, "days must be a whole number from 1 to 14"},
		{countryPath(k, "country=Turkey&days=x"), 400, "days must be a whole number from 1 to 14"},
		{countryPath(k, ""), 400, "country is required"},
		{countryPath(k, "country=%00"), 400, "country is required"},
		{"/xmltv/" + k + "/team/999999999.xml", 404, "Not found"},
		{"/xmltv/" + k + "/team/abc.xml", 404, "Not found"},
		{"/xmltv/" + k + "/team/133604.json", 404, "Not found"},
		{"/xmltv/" + k + "/other.xml", 404, "Not found"},
		{"/xmltv/not-a-key/tv.xml?country=Turkey", 400, "Invalid API key"},
	}
	for _, tt := range tests {
		r := env.Get(t, tt.path)
		if r.Status != tt.status || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") || !strings.Contains(string(r.Body), tt.msg) {
			t.Errorf("%s: %d %s, want %d %q", tt.path, r.Status, r.Body, tt.status, tt.msg)
		}
	}
	// A country without listings is a valid guide without channels.
	doc := decode(t, env.Get(t, countryPath(k, "country=Atlantis")))
	if len(doc.Channels)+len(doc.Programmes) != 0 {
		t.Errorf("Atlantis: %+v", doc)
	}
}

// The access log shows a guide's path with {key}, and the metrics count it under its route;
// neither holds a key.
func TestGuideLogsAndMetricsHoldNoKey(t *testing.T) {
	var logs testsupport.LogBuffer
	env := apitest.New(t, apitest.Options{Demo: true, AccessLog: server.NewAccessLog(&logs, true)})
	env.Get(t, "/xmltv/"+env.PremiumKey+"/team/133604.xml")
	env.Get(t, countryPath(env.PremiumKey, "country=Turkey"))
	env.Get(t, countryPath("wrong-key-value", "country=Turkey"))
	out := logs.String()
	for _, k := range []string{env.PremiumKey, "wrong-key-value"} {
		if strings.Contains(out, k) {
			t.Fatalf("a key reached the log: %s", out)
		}
	}
	if !strings.Contains(out, "/xmltv/{key}/team/133604.xml") || !strings.Contains(out, "/xmltv/{key}/tv.xml") {
		t.Fatalf("no request lines: %s", out)
	}
	body := string(env.Get(t, "/metrics").Body)
	for _, want := range []string{`sportsdb_http_requests_total{code="200",route="xmltv/team"} 1`,
		`sportsdb_http_requests_total{code="200",route="xmltv/country"} 1`,
		`sportsdb_http_requests_total{code="400",route="xmltv/country"} 1`} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(body, env.PremiumKey) {
		t.Fatal("a key reached the metrics")
	}
}
