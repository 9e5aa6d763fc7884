package server_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/gen/pictures"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// picturesPage shows what a client of the demo shows: the Premier League's badges, its
// league badge, Arsenal's cutouts and the thumbnails of its last games, each loaded from
// the path its record names, as kept on this server (GET /images/...). It lists every
// picture with the size it decoded to.
const picturesPage = `<!doctype html><html><body style="margin:0;background:#f4f4f4;font:12px sans-serif">
<div id="grid" style="display:flex;flex-wrap:wrap;gap:8px;padding:8px;width:1264px"></div>
<pre id="out" style="margin:8px">pending</pre>
<img src="/hold" alt="" width="1" height="1">
<script>
const key = %q;
const out = document.getElementById("out"), grid = document.getElementById("grid");
const show = lines => {
  out.textContent = lines.join("\n");
  fetch("/result", {method: "POST", body: out.textContent});
};
const get = async (path, field) => (await (await fetch("/api/v1/json/" + key + "/" + path)).json())[field] || [];
// A record names the public service's host; this server keeps the picture under the same path.
const here = url => new URL(url).pathname;
const add = (url, w, h, label) => {
  const img = new Image();
  img.src = here(url);
  img.title = label;
  img.style.cssText = "width:" + w + "px;height:" + h + "px;object-fit:contain";
  grid.appendChild(img);
  return {img, label};
};
(async () => {
  const shown = [];
  for (const t of await get("search_all_teams.php?l=English%%20Premier%%20League", "teams")) shown.push(add(t.strBadge, 96, 96, "team badge " + t.strTeam));
  for (const l of await get("lookupleague.php?id=4328", "leagues")) shown.push(add(l.strBadge, 96, 96, "league badge " + l.strLeague));
  for (const p of (await get("lookup_all_players.php?id=133604", "player")).slice(0, 8)) shown.push(add(p.strCutout, 96, 120, "player cutout " + p.strPlayer));
  for (const e of (await get("eventspastleague.php?id=4328", "events")).filter(e => e.strThumb).slice(0, 6)) shown.push(add(e.strThumb, 304, 171, "event thumb " + e.strEvent));
  const lines = [];
  for (const s of shown) {
    try { await s.img.decode(); } catch (e) {}
    lines.push(s.label + " = " + s.img.naturalWidth + "x" + s.img.naturalHeight);
  }
  lines.push("done");
  show(lines);
})().catch(e => show(["failed: " + e.message]));
</script></body></html>`

// A client pointed at the demo shows pictures, not broken links: in a real browser every
// badge, cutout and thumbnail the demo's answers name loads from the server and decodes.
// The screenshot (pictures.png) goes where the reference page's goes.
func TestDemoPicturesInBrowser(t *testing.T) {
	chromium := needChromium(t)
	env := apitest.New(t, apitest.Options{Demo: true})
	im, ok := env.Store.(store.Images)
	if !ok {
		t.Fatalf("%T keeps no pictures", env.Store)
	}
	// The pictures the page can show, not the demo's fourteen thousand: drawing them all is
	// the gen tests' part, and ten times slower under the race detector.
	c, err := pictures.Collect(context.Background(), env.Store)
	if err != nil {
		t.Fatal(err)
	}
	shown := shownPictures(t, env.Store)
	c.Keep(func(path string) bool { return shown[path] })
	if _, err := c.Put(context.Background(), im, env.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	h := &harness{key: env.PremiumKey, api: env.Server, page: fmt.Sprintf(picturesPage, env.PremiumKey)}
	srv := httptest.NewServer(h)
	defer srv.Close()

	text := h.run(t, chromium, "--dump-dom", srv.URL+"/harness")
	counts := map[string]int{}
	for _, line := range strings.Split(text, "\n") {
		label, size, ok := strings.Cut(line, " = ")
		if !ok {
			continue
		}
		kind := strings.Join(strings.Fields(label)[:2], " ")
		counts[kind]++
		want := map[string]string{"team badge": "512x512", "league badge": "512x512", "player cutout": "400x500", "event thumb": "480x270"}[kind]
		if size != want {
			t.Errorf("%s decoded as %s, want %s", label, size, want)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(text), "done") || counts["team badge"] < 10 || counts["league badge"] != 1 ||
		counts["player cutout"] == 0 || counts["event thumb"] == 0 {
		t.Fatalf("the page showed %v:\n%s", counts, text)
	}
	t.Logf("pictures decoded: %v", counts)
	h.screenshot(t, chromium, srv.URL+"/harness", "pictures.png", "1280,900")
}

// shownPictures are the paths of the pictures picturesPage can show: the Premier League's
// team badges, event thumbnails and league badge, and Arsenal's cutouts.
func shownPictures(t *testing.T, st store.Store) map[string]bool {
	t.Helper()
	shown := map[string]bool{}
	for _, q := range []struct {
		kind         *record.Kind
		field, value string
		image        string
	}{
		{record.Team, "idLeague", "4328", "strBadge"},
		{record.Event, "idLeague", "4328", "strThumb"},
		{record.Player, "idTeam", "133604", "strCutout"},
	} {
		recs, err := st.Find(context.Background(), store.Query{Kind: q.kind, Where: []store.Cond{{Field: q.field, Op: store.Eq, Value: q.value}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			shown[pictures.ImagePath(r.Str(q.image))] = true
		}
	}
	league, err := st.Get(context.Background(), record.League, "4328")
	if err != nil {
		t.Fatal(err)
	}
	shown[pictures.ImagePath(league.Str("strBadge"))] = true
	return shown
}
