package v1

import (
	"cmp"
	"slices"
	"strconv"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Build functions of the search, lookup and list rows. Each reads its parameters, and a
// parameter that cannot match anything (missing, empty, non-numeric id, overlong) gives no
// results.

// searchTeams: free keys find only the team whose name or one alternate name is the query;
// premium keys also find names containing it, exact matches first.
func searchTeams(r *request) (answer, error) {
	t, ok := r.p.name("t")
	if !ok {
		return none, nil
	}
	qs := []store.Query{
		sorted(where(eqName("strTeam", t)), byName("strTeam")),
		sorted(where(listHas("strTeamAlternate", t)), byName("strTeam")),
	}
	if r.tier != store.Free {
		qs = append(qs, sorted(where(or(containsName("strTeam", t), listContains("strTeamAlternate", t))), byName("strTeam")))
	}
	recs, err := r.findFirst(qs...)
	return records(recs), err
}

// searchEvents: e is the event name, f the filename; s (season) or d (date) narrows them.
// Sending both s and d is a combination the service does not allow: empty body.
func searchEvents(r *request) (answer, error) {
	if r.p.get("s") != "" && r.p.get("d") != "" {
		return empty, nil
	}
	var conds []store.Cond
	if r.p.get("e") != "" {
		e, ok := r.p.name("e")
		if !ok {
			return none, nil
		}
		conds = append(conds, eqName("strEvent", e))
	}
	if r.p.get("f") != "" {
		f, ok := r.p.name("f")
		if !ok {
			return none, nil
		}
		conds = append(conds, eqName("strFilename", f))
	}
	if len(conds) == 0 {
		return none, nil
	}
	return eventsNarrowed(r, conds)
}

// searchFilename: e is the filename `{League} {YYYY-MM-DD} {Home} vs {Away}`.
func searchFilename(r *request) (answer, error) {
	e, ok := r.p.name("e")
	if !ok {
		return none, nil
	}
	return eventsNarrowed(r, []store.Cond{eqName("strFilename", e)})
}

// eventsNarrowed adds the s (season) and d (date) filters and answers the latest first.
func eventsNarrowed(r *request, conds []store.Cond) (answer, error) {
	if r.p.get("s") != "" {
		s, ok := r.p.text("s")
		if !ok {
			return none, nil
		}
		conds = append(conds, eq("strSeason", s))
	}
	if r.p.get("d") != "" {
		d, ok := r.p.date("d")
		if !ok {
			return none, nil
		}
		conds = append(conds, eq("dateEvent", d))
	}
	recs, err := r.find(sorted(where(conds...), desc("strTimestamp")))
	return records(recs), err
}

// relevanceWindow bounds how many partial matches are ranked for one player search.
const relevanceWindow = 200

// searchPlayers answers the player search summary plus relevance, best match first.
// Relevance is 10 × (length of the folded query ÷ length of the folded player name): 10 for
// the exact name, less the more of the name the query leaves out. It is written with two
// decimals, e.g. "10.00" or "4.17".
func searchPlayers(r *request) (answer, error) {
	p, ok := r.p.name("p")
	if !ok {
		return none, nil
	}
	limit := r.limit
	r.limit = relevanceWindow
	recs, err := r.findFirst(
		where(eqName("strPlayer", p)),
		sorted(where(containsName("strPlayer", p)), byName("strPlayer")),
	)
	r.limit = limit
	if err != nil {
		return none, err
	}
	q := len([]rune(record.Fold(p)))
	scores := make(map[string]float64, len(recs))
	for _, rec := range recs {
		id, _ := rec.ID()
		n := len([]rune(record.Fold(rec.Str("strPlayer"))))
		if n > 0 && q <= n {
			scores[id] = 10 * float64(q) / float64(n)
		}
	}
	score := func(rec record.Record) float64 { id, _ := rec.ID(); return scores[id] }
	slices.SortStableFunc(recs, func(a, b record.Record) int { return cmp.Compare(score(b), score(a)) })
	if len(recs) > limit {
		recs = recs[:limit]
	}
	ans := records(recs)
	ans.relevance = func(rec record.Record) string { return strconv.FormatFloat(score(rec), 'f', 2, 64) }
	return ans, nil
}

// searchVenues finds venues whose name or an alternate name contains the query, the exact
// name first.
func searchVenues(r *request) (answer, error) {
	v, ok := r.p.name("v")
	if !ok {
		return none, nil
	}
	recs, err := r.findFirst(
		sorted(where(eqName("strVenue", v)), byName("strVenue")),
		sorted(where(or(containsName("strVenue", v), listContains("strVenueAlternate", v))), byName("strVenue")),
	)
	return records(recs), err
}

// lookup answers the record whose id is the id parameter.
func lookup(r *request) (answer, error) {
	id, ok := r.p.id("id")
	if !ok {
		return none, nil
	}
	recs, err := r.get(r.kind, id)
	return records(recs), err
}

// childrenOf answers the records whose field holds the id parameter (a team's kits, a
// player's honours, an event's lineup), in the order they were stored.
func childrenOf(field string) func(*request) (answer, error) {
	return func(r *request) (answer, error) {
		id, ok := r.p.id("id")
		if !ok {
			return none, nil
		}
		recs, err := r.find(where(eq(field, id)))
		return records(recs), err
	}
}

// lookupTable answers a league's table for season s. Without s it is the league's
// strCurrentSeason; when the league is not stored or names no current season, the latest
// season that has a table.
func lookupTable(r *request) (answer, error) {
	l, ok := r.p.id("l")
	if !ok {
		return none, nil
	}
	season, ok := r.p.text("s")
	if r.p.get("s") != "" && !ok {
		return none, nil
	}
	if !ok {
		var err error
		if season, err = currentSeason(r, l); err != nil || season == "" {
			return none, err
		}
	}
	q := where(eq("idLeague", l), eq("strSeason", season))
	recs, err := r.find(sorted(q, store.Order{Field: "intRank", Numeric: true}))
	return records(recs), err
}

func currentSeason(r *request, league string) (string, error) {
	lg, err := r.get(record.League, league)
	if err != nil {
		return "", err
	}
	if len(lg) == 1 && lg[0].Str("strCurrentSeason") != "" {
		return lg[0].Str("strCurrentSeason"), nil
	}
	latest, err := r.st.Find(r.ctx, store.Query{Kind: record.Standing, Where: []store.Cond{eq("idLeague", league)},
		OrderBy: []store.Order{desc("strSeason")}, Limit: 1})
	if err != nil || len(latest) == 0 {
		return "", err
	}
	return latest[0].Str("strSeason"), nil
}

// all answers every record of the kind, in the order they were stored.
func all(r *request) (answer, error) {
	recs, err := r.find(store.Query{})
	return records(recs), err
}

// allLeagues adds strLeagueAlternate for premium keys only.
func allLeagues(r *request) (answer, error) {
	ans, err := all(r)
	if r.tier != store.Free {
		ans.fields = record.League.View("listPremium").Fields
	}
	return ans, err
}

// leaguesOfCountry: full league records of country c, optionally of sport s (the key really
// is "countries"). l= instead of c= is rejected, as the public service rejects it.
func leaguesOfCountry(r *request) (answer, error) {
	if r.p.get("c") == "" && r.p.get("s") == "" {
		if r.p.has("l") {
			return rejected("Invalid country passed"), nil
		}
		return none, nil
	}
	conds, ok := nameConds(r, map[string]string{"c": "strCountry", "s": "strSport"}, "c", "s")
	if !ok {
		return none, nil
	}
	recs, err := r.find(sorted(where(conds...), byName("strLeague")))
	return records(recs), err
}

// nameConds turns the given name parameters that were sent into folded equality conditions.
// ok is false when one of them cannot match anything.
func nameConds(r *request, fields map[string]string, order ...string) ([]store.Cond, bool) {
	var conds []store.Cond
	for _, k := range order {
		if r.p.get(k) == "" {
			continue
		}
		v, ok := r.p.name(k)
		if !ok {
			return nil, false
		}
		conds = append(conds, eqName(fields[k], v))
	}
	return conds, true
}

// seasonFlags are the seasons endpoint's flags and the field each adds, in the order the
// fields are written when several are set.
var seasonFlags = []struct{ param, field string }{
	{"poster", "strPoster"}, {"badge", "strBadge"}, {"description", "strDescriptionEN"},
}

// seasons answers a league's season names, with poster, badge or description when asked.
func seasons(r *request) (answer, error) {
	if !r.p.has("id") && r.p.has("l") {
		return rejected("Invalid League ID passed"), nil
	}
	id, ok := r.p.id("id")
	if !ok {
		return none, nil
	}
	recs, err := r.find(sorted(where(eq("idLeague", id)), asc("strSeason")))
	ans := records(recs)
	for _, f := range seasonFlags {
		if r.p.flag(f.param) {
			if ans.fields == nil {
				ans.fields = []string{"strSeason"}
			}
			ans.fields = append(ans.fields, f.field)
		}
	}
	return ans, err
}

// teamsOf answers the teams of league l (a name), or of sport s in country c.
func teamsOf(r *request) (answer, error) {
	var conds []store.Cond
	switch {
	case r.p.get("l") != "":
		l, ok := r.p.name("l")
		if !ok {
			return none, nil
		}
		conds = []store.Cond{eqName("strLeague", l)}
	case r.p.get("s") != "" && r.p.get("c") != "":
		var ok bool
		if conds, ok = nameConds(r, map[string]string{"s": "strSport", "c": "strCountry"}, "s", "c"); !ok {
			return none, nil
		}
	default:
		return none, nil
	}
	recs, err := r.find(sorted(where(conds...), byName("strTeam")))
	return records(recs), err
}

// squad answers a team's players by name.
func squad(r *request) (answer, error) {
	id, ok := r.p.id("id")
	if !ok {
		return none, nil
	}
	recs, err := r.find(sorted(where(eq("idTeam", id)), byName("strPlayer")))
	return records(recs), err
}
