package mirror

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Read-through stores what answers the request it asked, and nothing else: an upstream that
// answers a lookup of one team with another, or a search with ten thousand records, changes
// nothing the request did not ask about.

// asked is what the records of an answer must carry to answer its request.
type asked struct {
	// values are the request's values (its ids, names, dates, seasons): each must be the
	// value of one of a record's fields, an id exactly, a name folded (record.Fold) and
	// within it, as a search finds it.
	values []string
	// cap is the most records the request's endpoint answers with.
	cap int
}

// routeCaps are the caps of the API's route tables, as the rows register them: a text
// search stores at most the premium cap of its endpoint; any other request at most
// caps.Ceiling.
var routeCaps = sync.OnceValue(func() *caps.Table {
	t := caps.New()
	v1.New(api.Deps{Caps: t})
	v2.New(api.Deps{Caps: t})
	return t
})

// searchCap is the premium cap of a text search endpoint (a route named v1/search*.php,
// not the v1/search_all_*.php lists, or v2/search/...), and ok false for any other route.
func searchCap(route string) (int, bool) {
	v1Search := strings.HasPrefix(route, "v1/search") && !strings.HasPrefix(route, "v1/search_all")
	if !v1Search && !strings.HasPrefix(route, "v2/search/") {
		return 0, false
	}
	t := routeCaps()
	if !slices.Contains(t.Names(), route) {
		return 0, false
	}
	return t.Limit(route, store.Premium), true
}

// flagParams are v1 parameters that switch parts of an answer on, not values it holds.
var flagParams = map[string]bool{"badge": true, "poster": true, "description": true}

// askedOf reads a frontier URL's values.
func askedOf(u string) asked {
	a := asked{cap: caps.Ceiling}
	if rest, ok := cutPrefix(u, "v1/"); ok {
		file, query, _ := strings.Cut(rest, "?")
		if n, ok := searchCap("v1/" + file); ok {
			a.cap = n
		}
		vals, _ := url.ParseQuery(query)
		for k, vs := range vals {
			for _, v := range vs {
				if v != "" && !flagParams[k] {
					a.values = append(a.values, v)
				}
			}
		}
		return a
	}
	rest, _ := cutPrefix(u, "v2/")
	segs := strings.Split(rest, "/")
	if len(segs) == 3 && segs[0] == "search" {
		if n, ok := searchCap("v2/search/" + segs[1]); ok {
			a.cap = n
		}
		if q, err := url.PathUnescape(segs[2]); err == nil {
			a.values = append(a.values, q)
		}
		return a
	}
	// Literal segments name the endpoint; those with a digit are ids, dates and seasons.
	for _, s := range segs {
		if strings.ContainsAny(s, "0123456789") {
			if v, err := url.PathUnescape(s); err == nil {
				a.values = append(a.values, v)
			}
		}
	}
	return a
}

// answers says whether r holds every value of the request.
func (a asked) answers(r record.Record) bool {
	for _, v := range a.values {
		if !holds(r, v) {
			return false
		}
	}
	return true
}

func holds(r record.Record, v string) bool {
	id := strings.Trim(v, "0123456789") == ""
	fv := record.Fold(v)
	for _, f := range r.Kind.Fields {
		s := r.Str(f)
		switch {
		case s == "":
		case s == v:
			return true
		case !id && strings.Contains(record.Fold(s), fv):
			return true
		}
	}
	return false
}

// answeringTx stores, of the records of an answer, those that answer the request, at most
// the endpoint's cap, and none that would rename a record the store holds.
type answeringTx struct {
	store.Tx
	st      store.Records
	asked   asked
	kept    int
	dropped int
	// renamed counts the records left out because the store holds one of the same id
	// under another name.
	renamed int
}

func (t *answeringTx) Upsert(ctx context.Context, r record.Record) error {
	if t.kept >= t.asked.cap || !t.asked.answers(r) {
		t.dropped++
		return nil
	}
	if t.renames(ctx, r) {
		t.renamed++
		return nil
	}
	t.kept++
	return t.Tx.Upsert(ctx, r)
}

func (t *answeringTx) Replace(ctx context.Context, r record.Record) error {
	return errors.New("mirror: read-through replaces no record")
}

// renames says whether the store holds a record of r's id whose name differs from r's:
// another record than the one asked for, stored by an import or a mirror.
func (t *answeringTx) renames(ctx context.Context, r record.Record) bool {
	id, err := r.ID()
	if err != nil {
		return false
	}
	old, err := t.st.Get(ctx, r.Kind, id)
	if err != nil {
		return false
	}
	f := nameField(r.Kind)
	o, n := old.Str(f), r.Str(f)
	return o != "" && n != "" && record.Fold(o) != record.Fold(n)
}

// nameField is the field naming a record of k (strTeam, strPlayer, strEvent...), or "".
func nameField(k *record.Kind) string {
	if k.Name == "" {
		return ""
	}
	f := "str" + strings.ToUpper(k.Name[:1]) + k.Name[1:]
	if k.Has(f) {
		return f
	}
	return ""
}

// refusal says why records of an answer were left out.
func (t *answeringTx) refusal() error {
	var parts []string
	if t.dropped > 0 {
		parts = append(parts, strconv.Itoa(t.dropped)+" records that do not answer the request (or past its cap)")
	}
	if t.renamed > 0 {
		parts = append(parts, strconv.Itoa(t.renamed)+" records that would rename a stored one")
	}
	return errors.New("left out " + strings.Join(parts, " and "))
}
