package v1

import (
	"cmp"
	"slices"
	"strconv"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Answer functions of the search, lookup and list rows. Each reads its parameters, and a
// parameter that cannot match anything (missing, empty, non-numeric id, overlong) gives no
// results.

// searchTeams: free keys find only the team whose name or one alternate name is the query;
// premium keys also find names containing it, exact matches first.
func searchTeams(r *api.Request, p params) (api.Answer, error) {
	if p.get("t") == "" && p.get("sname") != "" {
		return teamsByShortName(r, p)
	}
	t, ok := p.name("t")
	if !ok {
		return api.None, nil
	}
	qs := []store.Query{
		api.Where(api.EqName("strTeam", t)),
		api.Where(api.ListHas("strTeamAlternate", t)),
	}
	if r.Tier != store.Free {
		qs = append(qs, api.Where(api.Or(api.ContainsName("strTeam", t), api.ListContains("strTeamAlternate", t))))
	}
	recs, err := r.FindFirst(qs...)
	return api.Records(recs), err
}

// teamsByShortName is searchteams.php?sname=SHORT (docs/CONTRACT.md section 5): the teams whose
// strTeamShort is SHORT, case-insensitively, in the row's order.
func teamsByShortName(r *api.Request, p params) (api.Answer, error) {
	short, ok := p.name("sname")
	if !ok {
		return api.None, nil
	}
	recs, err := r.Find(api.Where(api.EqName("strTeamShort", short)))
	return api.Records(recs), err
}

// searchEvents: e is the event name, f the filename; s (season) or d (date) narrows them.
// Sending both s and d is a combination the service does not allow: empty body.
func searchEvents(r *api.Request, p params) (api.Answer, error) {
	if p.get("s") != "" && p.get("d") != "" {
		return api.EmptyBody, nil
	}
	var conds []store.Cond
	if p.get("e") != "" {
		e, ok := p.name("e")
		if !ok {
			return api.None, nil
		}
		conds = append(conds, api.EqName("strEvent", e))
	}
	if p.get("f") != "" {
		f, ok := p.name("f")
		if !ok {
			return api.None, nil
		}
		conds = append(conds, api.EqName("strFilename", f))
	}
	if len(conds) == 0 {
		return api.None, nil
	}
	return eventsNarrowed(r, p, conds)
}

// searchFilename: e is the filename `{League} {YYYY-MM-DD} {Home} vs {Away}`.
func searchFilename(r *api.Request, p params) (api.Answer, error) {
	e, ok := p.name("e")
	if !ok {
		return api.None, nil
	}
	return eventsNarrowed(r, p, []store.Cond{api.EqName("strFilename", e)})
}

// eventsNarrowed adds the s (season) and d (date) filters and answers the latest first.
func eventsNarrowed(r *api.Request, p params, conds []store.Cond) (api.Answer, error) {
	if p.get("s") != "" {
		s, ok := p.text("s")
		if !ok {
			return api.None, nil
		}
		conds = append(conds, api.Eq("strSeason", s))
	}
	if p.get("d") != "" {
		d, ok := p.date("d")
		if !ok {
			return api.None, nil
		}
		conds = append(conds, api.Eq("dateEvent", d))
	}
	recs, err := r.Find(api.Where(conds...))
	return api.Records(recs), err
}

// relevanceWindow bounds how many partial matches are ranked for one player search.
const relevanceWindow = 200

// searchPlayers answers the player search summary plus relevance (relevance.go), best match
// first, ties by name: the exact names and up to relevanceWindow names containing the query
// are ranked, then cut to the cap. Relevance is written as Go writes a float64, shortest
// exact form ("20", "13.333333333333334"), as the public service writes its float score.
func searchPlayers(r *api.Request, p params) (api.Answer, error) {
	if p.get("t") != "" {
		return playersOfTeam(r, p)
	}
	name, ok := p.name("p")
	if !ok {
		return api.None, nil
	}
	limit := r.Limit
	r.Limit = relevanceWindow
	qs := []store.Query{
		api.Where(api.EqName("strPlayer", name)),
		api.Sorted(api.Where(api.ContainsName("strPlayer", name)), api.ByName("strPlayer")),
	}
	recs, scores, ok, err := playersByNames(r, name, limit, qs)
	if err == nil && !ok {
		recs, scores, err = playersByRecords(r, name, limit, qs)
	}
	r.Limit = limit
	if err != nil {
		return api.None, err
	}
	ans := api.Records(recs)
	ans.Relevance = func(rec record.Record) string {
		id, _ := rec.ID()
		return strconv.FormatFloat(scores[id], 'f', -1, 64)
	}
	return ans, nil
}

// ranked is the positions 0..n-1 by score, best first, equal scores in position order, the
// first limit of them.
func ranked(n, limit int, score func(i int) float64) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score(b), score(a)) })
	return order[:min(n, limit)]
}

// playersByRecords ranks the window's records, read whole (FindEach of qs: the store could
// not give their names), and keeps the first limit; scores are by id.
func playersByRecords(r *api.Request, name string, limit int, qs []store.Query) ([]record.Record, map[string]float64, error) {
	recs, err := r.FindEach(qs...)
	if err != nil {
		return nil, nil, err
	}
	score := make([]float64, len(recs))
	q := newSearchQuery(name)
	for i, rec := range recs {
		score[i] = q.score(record.Fold(rec.Str("strPlayer")))
	}
	keep := ranked(len(recs), limit, func(i int) float64 { return score[i] })
	out := make([]record.Record, len(keep))
	scores := make(map[string]float64, len(keep))
	for j, i := range keep {
		out[j] = recs[i]
		id, _ := recs[i].ID()
		scores[id] = score[i]
	}
	return out, scores, nil
}

// playersByNames is playersByRecords ranking the window's folded names, which the store
// gives without the records (store.NameFinder), and reading only the records kept. The
// window is FindFirst's: each query's rows in its order, each record once, up to r.Limit.
// The index's names are folded as relevance folds a name, so they are scored as they are.
// ok is false when the store cannot answer every query so from one data version.
func playersByNames(r *api.Request, name string, limit int, qs []store.Query) ([]record.Record, map[string]float64, bool, error) {
	n, ok, err := r.FindFirstNames(qs, "strPlayer")
	if err != nil || !ok {
		return nil, nil, false, err
	}
	query := newSearchQuery(name)
	score := make([]float64, len(n.Seqs))
	for i, v := range n.Values {
		score[i] = query.score(v)
	}
	keep := ranked(len(n.Seqs), limit, func(i int) float64 { return score[i] })
	kept := make([]int64, len(keep))
	for j, i := range keep {
		kept[j] = n.Seqs[i]
	}
	recs, ok, err := r.RecordsBySeqs(kept, n.Version)
	if err != nil || !ok {
		return nil, nil, false, err
	}
	scores := make(map[string]float64, len(keep))
	for j, rec := range recs {
		id, _ := rec.ID()
		scores[id] = score[keep[j]]
	}
	return recs, scores, true, nil
}

// playersOfTeam is searchplayers.php?t=TEAM[&p=NAME], the form the Kodi scraper builds its
// cast from: the players of the team named t (its name or an alternate, exactly), whose
// name contains p when p is sent, by name.
func playersOfTeam(r *api.Request, p params) (api.Answer, error) {
	t, ok := p.name("t")
	if !ok {
		return api.None, nil
	}
	teams, err := r.Find(store.Query{Kind: record.Team, Where: []store.Cond{api.Or(api.EqName("strTeam", t), api.ListHas("strTeamAlternate", t))},
		OrderBy: []store.Order{api.ByID("idTeam")}, Limit: 1})
	if err != nil || len(teams) == 0 {
		return api.None, err
	}
	id, _ := teams[0].ID()
	conds := []store.Cond{api.Eq("idTeam", id)}
	if p.get("p") != "" {
		name, ok := p.name("p")
		if !ok {
			return api.None, nil
		}
		conds = append(conds, api.ContainsName("strPlayer", name))
	}
	recs, err := r.Find(api.Sorted(api.Where(conds...), api.ByName("strPlayer"), api.ByID("idPlayer")))
	return api.Records(recs), err
}

// searchVenues finds venues whose name or an alternate name contains the query, the exact
// name first.
func searchVenues(r *api.Request, p params) (api.Answer, error) {
	v, ok := p.name("v")
	if !ok {
		return api.None, nil
	}
	recs, err := r.FindFirst(
		api.Where(api.EqName("strVenue", v)),
		api.Where(api.Or(api.ContainsName("strVenue", v), api.ListContains("strVenueAlternate", v))),
	)
	return api.Records(recs), err
}

// lookup answers the record whose id is the id parameter.
func lookup(r *api.Request, p params) (api.Answer, error) {
	id, ok := p.id("id")
	if !ok {
		return api.None, nil
	}
	recs, err := r.Get(r.Kind, id)
	return api.Records(recs), err
}

// childrenOf answers the records whose field holds the id parameter (a team's kits, a
// player's honours, an event's lineup), in the order they were stored.
func childrenOf(field string) answerFunc {
	return func(r *api.Request, p params) (api.Answer, error) {
		id, ok := p.id("id")
		if !ok {
			return api.None, nil
		}
		recs, err := r.Find(api.Where(api.Eq(field, id)))
		return api.Records(recs), err
	}
}

// lookupTable answers a league's table for season s. Without s it is the league's
// strCurrentSeason; when the league is not stored or names no current season, the latest
// season that has a table.
func lookupTable(r *api.Request, p params) (api.Answer, error) {
	l, ok := p.id("l")
	if !ok {
		return api.None, nil
	}
	season, ok := p.text("s")
	if p.get("s") != "" && !ok {
		return api.None, nil
	}
	if !ok {
		var err error
		if season, err = currentSeason(r, l); err != nil || season == "" {
			return api.None, err
		}
	}
	q := api.Where(api.Eq("idLeague", l), api.Eq("strSeason", season))
	recs, err := r.Find(q)
	return api.Records(recs), err
}

func currentSeason(r *api.Request, league string) (string, error) {
	lg, err := r.Get(record.League, league)
	if err != nil {
		return "", err
	}
	if len(lg) == 1 && lg[0].Str("strCurrentSeason") != "" {
		return lg[0].Str("strCurrentSeason"), nil
	}
	latest, err := r.Find(store.Query{Kind: record.Standing, Where: []store.Cond{api.Eq("idLeague", league)},
		OrderBy: []store.Order{api.Desc("strSeason")}, Limit: 1})
	if err != nil || len(latest) == 0 {
		return "", err
	}
	return latest[0].Str("strSeason"), nil
}

// all answers every record of the kind, in the order they were stored.
func all(r *api.Request, p params) (api.Answer, error) {
	recs, err := r.Find(store.Query{})
	return api.Records(recs), err
}

// allLeagues adds strLeagueAlternate for premium keys only.
func allLeagues(r *api.Request, p params) (api.Answer, error) {
	ans, err := all(r, p)
	if r.Tier != store.Free {
		ans.Fields = record.League.View("listPremium").Fields
	}
	return ans, err
}

// leaguesOfCountry: full league records of country c, optionally of sport s (the key really
// is "countries"). l= instead of c= is rejected, as the public service rejects it.
func leaguesOfCountry(r *api.Request, p params) (api.Answer, error) {
	if p.get("c") == "" && p.get("s") == "" {
		if p.has("l") {
			return api.Reject("Invalid country passed"), nil
		}
		return api.None, nil
	}
	conds, ok := nameConds(p, map[string]string{"c": "strCountry", "s": "strSport"}, "c", "s")
	if !ok {
		return api.None, nil
	}
	recs, err := r.Find(api.Where(conds...))
	return api.Records(recs), err
}

// nameConds turns the given name parameters that were sent into folded equality conditions.
// ok is false when one of them cannot match anything.
func nameConds(p params, fields map[string]string, order ...string) ([]store.Cond, bool) {
	var conds []store.Cond
	for _, k := range order {
		if p.get(k) == "" {
			continue
		}
		v, ok := p.name(k)
		if !ok {
			return nil, false
		}
		conds = append(conds, api.EqName(fields[k], v))
	}
	return conds, true
}

// seasonFlags are the seasons endpoint's flags and the field each adds, in the order the
// fields are written when several are set.
var seasonFlags = []struct{ param, field string }{
	{"poster", "strPoster"}, {"badge", "strBadge"}, {"description", "strDescriptionEN"},
}

// seasons answers a league's season names, with poster, badge or description when asked.
func seasons(r *api.Request, p params) (api.Answer, error) {
	if !p.has("id") && p.has("l") {
		return api.Reject("Invalid League ID passed"), nil
	}
	id, ok := p.id("id")
	if !ok {
		return api.None, nil
	}
	recs, err := r.Find(api.Where(api.Eq("idLeague", id)))
	ans := api.Records(recs)
	for _, f := range seasonFlags {
		if p.flag(f.param) {
			if ans.Fields == nil {
				ans.Fields = []string{"strSeason"}
			}
			ans.Fields = append(ans.Fields, f.field)
		}
	}
	return ans, err
}

// teamsOf answers the teams of league l (a name), or of sport s in country c.
func teamsOf(r *api.Request, p params) (api.Answer, error) {
	var conds []store.Cond
	switch {
	case p.get("l") != "":
		l, ok := p.name("l")
		if !ok {
			return api.None, nil
		}
		conds = []store.Cond{api.EqName("strLeague", l)}
	case p.get("s") != "" && p.get("c") != "":
		var ok bool
		if conds, ok = nameConds(p, map[string]string{"s": "strSport", "c": "strCountry"}, "s", "c"); !ok {
			return api.None, nil
		}
	default:
		return api.None, nil
	}
	recs, err := r.Find(api.Where(conds...))
	return api.Records(recs), err
}

// squad answers a team's players by name.
func squad(r *api.Request, p params) (api.Answer, error) {
	id, ok := p.id("id")
	if !ok {
		return api.None, nil
	}
	recs, err := r.Find(api.Where(api.Eq("idTeam", id)))
	return api.Records(recs), err
}
