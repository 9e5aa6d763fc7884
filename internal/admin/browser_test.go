package admin_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

// The scorekeeper's page in headless Chromium: sign in, create a fixture, keep score (kick
// off, +1, the minute, half time), see another editor's write arrive, meet a conflict (412),
// edit a record (a 422 shown by field, then saved), and fit a 375 px screen. Each step is a
// screenshot in SPORTSDB_SCREENSHOT_DIR (a CI artifact) or the test's directory.
func TestScorekeeperInBrowser(t *testing.T) {
	b := startBrowser(t)
	env := apitest.New(t, apitest.Options{Demo: true, Clock: clock.System{}})
	editor := env.AddKey(t, store.Business, store.Editor)
	other := env.AddKey(t, store.Business, store.Editor)
	streams := &gate{}
	srv := httptest.NewServer(streams.wrap(env.Server))
	defer srv.Close()
	dir := os.Getenv("SPORTSDB_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shot := func(name string) { b.screenshot(filepath.Join(dir, "admin-"+name+".png")) }

	const id = "9100001"
	home, away := teamID(t, env, "Arsenal"), teamID(t, env, "Liverpool")

	b.viewport(1280, 900, false)
	b.navigate(srv.URL + "/admin")
	b.eval(`waitFor("the sign-in form", () => shown("#signin"), 10000)`, nil)
	shot("1-signin")
	b.eval(fmt.Sprintf(`sel("#key").value = %q; sel("#signin-form").requestSubmit();
		waitFor("the event finder", () => shown("#find"), 10000)`, editor), nil)
	var stored struct{ Session, Local int }
	b.eval(`({Session: sessionStorage.length, Local: localStorage.length})`, &stored)
	if stored.Session != 1 || stored.Local != 0 {
		t.Errorf("the key is kept in %d sessionStorage and %d localStorage entries, want 1 and 0", stored.Session, stored.Local)
	}

	// Create the fixture from what the store holds: league, season, teams, venue.
	choose := func(selID, value, then string) {
		t.Helper()
		b.eval(fmt.Sprintf(`waitFor("the choice %[2]s in %[1]s", () => [...sel(%[1]q).options].some(o => o.value === %[2]q), 10000)
			.then(() => { const s = sel(%[1]q); s.value = %[2]q; s.dispatchEvent(new Event("change")); })
			.then(() => waitFor(%[3]q, () => %[3]s, 10000))`, selID, value, then), nil)
	}
	choose("#c-league", "4328", `sel("#c-home").options.length > 2`)
	var season string
	b.eval(`sel("#c-season").options[1].value`, &season)
	choose("#c-season", season, "true")
	choose("#c-home", home, "true")
	choose("#c-away", away, `sel("#c-venue").options.length === 3`)
	b.eval(fmt.Sprintf(`sel("#c-date").value = "2026-10-05"; sel("#c-time").value = "19:45"; sel("#c-id").value = %q`, id), nil)
	shot("2-create")
	b.eval(`sel("#create-form").requestSubmit();
		waitFor("the new event and a live stream", () => shown("#score") && text("#home-name") === "Arsenal" &&
			text("#away-name") === "Liverpool" && sel("#live").dataset.state === "open", 10000)`, nil)
	created := read(t, env, "event", id)
	if created["strEvent"] != "Arsenal vs Liverpool" || created["strSeason"] != season || created["strVenue"] != "Emirates Stadium" ||
		created["strTimestamp"] != "2026-10-05T19:45:00" || created["strStatus"] != "NS" {
		t.Errorf("the created event: %v, season %v, venue %v, %v, status %v", created["strEvent"], created["strSeason"],
			created["strVenue"], created["strTimestamp"], created["strStatus"])
	}
	shot("3-fixture")

	// Keep score: each tap is a PATCH on the last ETag, answered before the next.
	tap := func(what, sel string) {
		t.Helper()
		b.eval(fmt.Sprintf(`(() => { const saved = Number(sel("#score").dataset.saved || 0); sel(%q).click();
			return waitFor(%q, () => Number(sel("#score").dataset.saved || 0) === saved + 1, 10000); })()`, sel, what), nil)
	}
	tap("kick-off", `#steps button[data-status="1H"]`)
	tap("a home goal", "#home-plus")
	b.eval(`sel("#minute").value = "23"; sel("#minute-form").requestSubmit()`, nil)
	b.eval(`waitFor("the minute saved", () => Number(sel("#score").dataset.saved) === 3, 10000)`, nil)
	tap("half time", `#steps button[data-status="HT"]`)
	b.eval(`waitFor("half time shown", () => text("#status-now").startsWith("HT") && text("#home-score") === "1" &&
		sel("#steps button.current").dataset.status === "HT", 10000)`, nil)
	shot("4-halftime")
	ev := read(t, env, "event", id)
	if ev["intHomeScore"] != "1" || ev["intAwayScore"] != nil || ev["strStatus"] != "HT" {
		t.Errorf("stored event after the taps: %v-%v %v", ev["intHomeScore"], ev["intAwayScore"], ev["strStatus"])
	}
	if ls := read(t, env, "livescore", id); ls["strProgress"] != "23" || ls["strStatus"] != "HT" {
		t.Errorf("live score entry: progress %v status %v, want 23 HT", ls["strProgress"], ls["strStatus"])
	}

	// Another editor's write shows within a second, through the stream.
	start := time.Now()
	write(t, env, other, http.MethodPatch, id, map[string]string{"intAwayScore": "1"})
	b.eval(`waitFor("the other editor's goal", () => text("#away-score") === "1", 1000)`, nil)
	t.Logf("another editor's write shown after %v", time.Since(start).Round(time.Millisecond))
	shot("5-other-editor")

	// A conflict: the stream is held while the other editor writes, so the page taps on an
	// ETag that is no longer the record's.
	streams.hold()
	write(t, env, other, http.MethodPatch, id, map[string]string{"intAwayScore": "2", "strStatus": "2H", "strProgress": "47"})
	b.eval(`sel("#home-plus").click(); waitFor("the 412 and the event as it now is", () => sel("#message").dataset.status === "412" &&
		!sel("#message").hidden && text("#away-score") === "2" && text("#status-now").startsWith("2H") && sel("#minute").value === "47", 10000)`, nil)
	var conflict struct{ Message, Home, Away, Status, Minute string }
	b.eval(`({Message: text("#message"), Home: text("#home-score"), Away: text("#away-score"),
		Status: text("#status-now"), Minute: sel("#minute").value})`, &conflict)
	if !strings.Contains(conflict.Message, "Arsenal 1 – 2 Liverpool, status 2H, minute 47") ||
		conflict.Home != "1" || conflict.Away != "2" || !strings.HasPrefix(conflict.Status, "2H") || conflict.Minute != "47" {
		t.Errorf("after the 412 the page shows %+v", conflict)
	}
	shot("6-conflict")
	streams.release()
	if ev := read(t, env, "event", id); ev["intHomeScore"] != "1" {
		t.Errorf("the refused tap was kept: home %v", ev["intHomeScore"])
	}

	// Any record: found by name, edited in a form that shows a 422's problem by its field.
	b.eval(`location.hash = "#/"; waitFor("the record finder", () => shown("#records"), 10000)
		.then(() => { sel("#r-kind").value = "team"; sel("#r-q").value = "Liverpool"; sel("#records-form").requestSubmit(); })
		.then(() => waitFor("Liverpool found", () => [...document.querySelectorAll("#r-results a")].some(a => a.textContent === "Liverpool"), 10000))
		.then(() => [...document.querySelectorAll("#r-results a")].find(a => a.textContent === "Liverpool").click())
		.then(() => waitFor("the team's form", () => shown("#edit") && sel("#f-strTeam") && sel("#f-strTeam").value === "Liverpool", 10000))
		.then(() => { sel("#f-idLeague").value = "EPL"; sel("#f-strKeywords").value = "The Kop"; sel("#edit-form").requestSubmit(); })
		.then(() => waitFor("the 422 by field", () => sel('.field.invalid[data-field="idLeague"] .problem').textContent !== "", 10000))`, nil)
	shot("7-edit-422")
	b.eval(`sel("#f-idLeague").value = "4328"; sel("#edit-form").requestSubmit();
		waitFor("saved", () => text("#message") === "Saved." && !document.querySelector(".field.invalid"), 10000)`, nil)
	if team := read(t, env, "team", away); team["strKeywords"] != "The Kop" || team["idLeague"] != "4328" {
		t.Errorf("the edited team: keywords %v league %v", team["strKeywords"], team["idLeague"])
	}
	if r := env.Get(t, "/api/v2/json/records/team/"+away+"/history", "X-API-KEY", env.PremiumKey); !strings.Contains(string(r.Body), `"strKeywords":"The Kop"`) {
		t.Errorf("the team's history does not show the edit: %.300s", r.Body)
	}

	// A phone: 375 px wide, nothing wider than the screen.
	b.eval(fmt.Sprintf(`location.hash = "#/event/%s";
		waitFor("the score again", () => shown("#score") && text("#away-score") === "2" && sel("#live").dataset.state === "open", 10000)`, id), nil)
	b.viewport(375, 812, true)
	var width int
	b.eval(`waitFor("the narrow layout", () => document.documentElement.clientWidth === 375, 10000).then(() => document.documentElement.scrollWidth)`, &width)
	if width > 375 {
		t.Errorf("the page is %d px wide on a 375 px screen", width)
	}
	shot("8-phone-375")

	var foreign []string
	b.eval(`performance.getEntriesByType("resource").map(e => e.name).filter(u => !u.startsWith(location.origin + "/"))`, &foreign)
	if len(foreign) > 0 {
		t.Errorf("the page loaded from other hosts: %v", foreign)
	}
}

// gate holds what the server writes on its streams while it is held, as a slow network
// would, so a write can reach the store before the page hears of it.
type gate struct{ mu sync.RWMutex }

func (g *gate) hold()    { g.mu.Lock() }
func (g *gate) release() { g.mu.Unlock() }

func (g *gate) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/stream/") {
			w = &gatedWriter{ResponseWriter: w, g: g}
		}
		h.ServeHTTP(w, r)
	})
}

type gatedWriter struct {
	http.ResponseWriter
	g *gate
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	w.g.mu.RLock()
	defer w.g.mu.RUnlock()
	return w.ResponseWriter.Write(p)
}

func (w *gatedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// teamID is the id of the demo data's team of that name.
func teamID(t *testing.T, env *apitest.Env, name string) string {
	t.Helper()
	var v struct {
		Search []struct {
			IDTeam json.Number `json:"idTeam"`
		} `json:"search"`
	}
	if err := json.Unmarshal(env.V2(t, "search/team/"+name).Body, &v); err != nil || len(v.Search) == 0 {
		t.Fatalf("no team %s in the demo data (%v)", name, err)
	}
	return v.Search[0].IDTeam.String()
}

// write sends a record's fields through the records API with key, as another editor.
func write(t *testing.T, env *apitest.Env, key, method, id string, fields map[string]string) {
	t.Helper()
	body, _ := json.Marshal(fields)
	ctype := "application/json"
	if method == http.MethodPatch {
		ctype = "application/merge-patch+json"
	}
	r := env.Send(t, method, "/api/v2/json/records/event/"+id, strings.NewReader(string(body)),
		"X-API-KEY", key, "Content-Type", ctype)
	if r.Status != http.StatusOK && r.Status != http.StatusCreated {
		t.Fatalf("%s event %s: %d %s", method, id, r.Status, r.Body)
	}
}

// read is a stored record's fields.
func read(t *testing.T, env *apitest.Env, kind, id string) map[string]any {
	t.Helper()
	r := env.Get(t, "/api/v2/json/records/"+kind+"/"+id, "X-API-KEY", env.PremiumKey)
	var v struct{ Record map[string]any }
	if r.Status != http.StatusOK || json.Unmarshal(r.Body, &v) != nil {
		t.Fatalf("read %s %s: %d %s", kind, id, r.Status, r.Body)
	}
	return v.Record
}
