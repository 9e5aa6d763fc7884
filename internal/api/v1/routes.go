package v1

import (
	"net/http"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/store"
)

// form is one way a path reaches a v1 file: under /api/{version}/json/, with the key as the
// segment before the file or in the X-API-KEY header.
type form struct {
	version   string
	keyInPath bool
}

// The forms of v1 paths; the v2 ones are the aliases of docs/CONTRACT.md section 5.
var (
	v1Path = form{"v1", true}  // /api/v1/json/{key}/{file}
	v2Path = form{"v2", true}  // /api/v2/json/{key}/{file}: that v1 file with that key
	v2Head = form{"v2", false} // /api/v2/json/{file} with X-API-KEY
)

// rows is the v1 table: the files of every form, and the rows that only one form reaches.
type rows struct {
	list  []*endpoint
	files map[form]map[string]int // file -> index in list
}

func newRows(lenient bool) rows {
	t := rows{files: map[form]map[string]int{}}
	for _, f := range []form{v1Path, v2Path, v2Head} {
		t.files[f] = map[string]int{}
	}
	for _, row := range endpoints {
		ep := *row
		ep.Route = "v1/" + ep.Path
		t.add(&ep, v1Path, v2Path, v2Head)
	}
	// The older live score feed replaces livescore.php on the one form that reaches it.
	t.add(legacyLivescore, v2Path)
	if lenient {
		t.addLenient()
	}
	return t
}

func (t *rows) add(ep *endpoint, forms ...form) {
	t.list = append(t.list, ep)
	for _, f := range forms {
		t.files[f][ep.Path] = len(t.list) - 1
	}
}

// Match recognises the v1 forms: /api/v1/json/{key}/{file}, /api/v2/json/{key}/{file} and
// /api/v2/json/{file}. A .php file no row names is still v1's, so its key is checked before
// the 404, as the public service does.
func (a *API) Match(version string, segs []string) (api.Target, bool) {
	var f form
	switch {
	case len(segs) == 2 && segs[0] != "" && api.IsFile(segs[1]):
		f = form{version, true}
	case len(segs) == 1 && version == "v2" && api.IsFile(segs[0]):
		f = v2Head
	default:
		return api.Target{}, false
	}
	t := api.Target{Route: api.OtherRoute, Row: api.NoRow, HeaderKey: !f.keyInPath}
	if f.keyInPath {
		t.Key = segs[0]
	}
	if i, ok := a.rows.files[f][segs[len(segs)-1]]; ok {
		ep := a.rows.list[i]
		t.Row, t.Route, t.PremiumOnly, t.Clock, t.Local = i, ep.Route, ep.PremiumOnly, ep.Clock, ep.Local
	}
	return t, true
}

// Routes lists the route names of the table.
func (a *API) Routes() []string {
	out := make([]string, len(a.rows.list))
	for i, ep := range a.rows.list {
		out[i] = ep.Route
	}
	return out
}

// Serve answers a target Match gave, for a key of the given tier.
func (a *API) Serve(w http.ResponseWriter, r *http.Request, t api.Target, tier store.Tier) {
	if !t.Known() {
		respond.NotFound(w)
		return
	}
	a.run(w, r, a.rows.list[t.Row], tier)
}
