package sportarr

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// row is one call of Sportarr's client: its path under the base URL (parameters written
// {name}), the query parameters it reads, what it answers (for the OpenAPI document), and
// its answer.
type row struct {
	Path   string
	Query  []string
	Doc    string
	Answer answer
}

// answer writes the body of a call from the path's parameters in order; schema is the JSON
// schema of that body.
type answer struct {
	fn     func(c *call, args []string) ([]byte, error)
	schema map[string]any
}

// rows are the calls of Sportarr's client (src/Services/SportarrApiClient.cs), in its order.
// The route of a row is "sportarr/" and its literal segments.
var rows = []row{
	// Search: {"data":{"search":[...]}}. PingAsync asks search/league/ping. Events are searched
	// by their name (v1 searchevents.php; v2's search/event reads file names only).
	{Path: "search/league/{name}", Doc: "Leagues by name, as v2 search/league.", Answer: write(in("search"), leagueModel, fromV2("search/league/{0}"))},
	{Path: "search/team/{name}", Doc: "Teams by name, as v2 search/team.", Answer: write(in("search"), teamModel, fromV2("search/team/{0}"))},
	{Path: "search/player/{name}", Doc: "Players by name, as v2 search/player.", Answer: write(in("search"), playerModel, fromV2("search/player/{0}"))},
	{Path: "search/event/{name}", Doc: "Events by name (strEvent), as v1 searchevents.php?e=.", Answer: write(in("search"), eventModel, fromV1("searchevents.php", "e"))},

	// Lookups: a league under {"data":{"lookup":[...]}}, the others under {"data":[...]}.
	{Path: "lookup/league/{id}", Doc: "A league, as v2 lookup/league.", Answer: write(in("lookup"), leagueModel, fromV2("lookup/league/{0}"))},
	{Path: "lookup/team/{id}", Doc: "A team, as v2 lookup/team.", Answer: write(flat, teamModel, fromV2("lookup/team/{0}"))},
	{Path: "lookup/player/{id}", Doc: "A player, as v2 lookup/player.", Answer: write(flat, playerModel, fromV2("lookup/player/{0}"))},
	{Path: "lookup/event/{id}", Doc: "An event, as v2 lookup/event.", Answer: write(flat, eventModel, fromV2("lookup/event/{0}"))},

	// Schedules.
	{Path: "schedule/all/player/{id}", Doc: "The events a player took part in (their results and lineups), oldest first, at most 500.", Answer: write(flat, eventModel, playerEvents)},
	{Path: "schedule/team/next10/{id}", Doc: "A team's next events, as v2 schedule/next/team.", Answer: write(flat, eventModel, fromV2("schedule/next/team/{0}"))},
	{Path: "schedule/team/prev10/{id}", Doc: "A team's previous events, as v2 schedule/previous/team.", Answer: write(flat, eventModel, fromV2("schedule/previous/team/{0}"))},
	{Path: "list/leagues/team/{id}", Doc: "The leagues a team played in over its latest 250 events, most events first.", Answer: answer{teamLeagues, teamLeaguesSchema}},
	{Path: "list/seasons/{id}", Query: []string{"cb"}, Doc: "A league's seasons, as v2 list/seasons (`cb` is Sportarr's cache breaker, ignored).", Answer: write(list, seasonModel, fromV2("list/seasons/{0}"))},
	{Path: "list/seasonposters/{id}", Doc: "A league's season posters, as v2 list/seasonposters.", Answer: write(list, seasonModel, fromV2("list/seasonposters/{0}"))},
	{Path: "list/teams/{id}", Doc: "A league's teams, as v2 list/teams.", Answer: write(list, teamModel, fromV2("list/teams/{0}"))},
	{Path: "schedule/league/{id}/{season}", Query: []string{"cb"}, Doc: "A league's season, as v2 schedule/league (`cb` ignored).", Answer: write(in("schedule"), eventModel, leagueSeason)},

	// TV: {"data":{"tvschedule":[...]}}.
	{Path: "tv/event/{id}", Doc: "An event's TV listings, as v2 lookup/event_tv.", Answer: write(in("tvschedule"), tvModel, fromV2("lookup/event_tv/{0}"))},
	{Path: "filter/tv/day/{date}", Doc: "A day's TV listings, as v2 filter/tv/day.", Answer: write(in("tvschedule"), tvModel, fromV2("filter/tv/day/{0}"))},

	// Live scores, as events.
	{Path: "livescore/sport/{sport}", Doc: "A sport's live scores as events, as v2 livescore/{sport}.", Answer: write(flat, eventModel, fromV2("livescore/{0}"))},
	{Path: "livescore/league/{id}", Doc: "A league's live scores as events, as v2 livescore/{idLeague}.", Answer: write(flat, eventModel, fromV2("livescore/{0}"))},

	// Everything of a kind: leagues under {"data":{"all":[...]}}, teams of sports under
	// {"list":[...]}.
	{Path: "all/leagues", Doc: "Every league, as v2 all/leagues.", Answer: write(in("all"), leagueModel, fromV2("all/leagues"))},
	{Path: "all/sports", Doc: "Every sport, as v2 all/sports.", Answer: write(flat, sportModel, fromV2("all/sports"))},
	{Path: "all/countries", Doc: "Every country, as v2 all/countries.", Answer: write(flat, countryModel, fromV2("all/countries"))},
	{Path: "all/teams", Query: []string{"sport"}, Doc: "The teams of the sports named in `sport` (comma separated; none: every team), at most 10000.", Answer: write(list, teamModel, teamsOfSports)},

	// Episode numbers, a cast, the change feed.
	{Path: "api/metadata/plex/series/{id}/season/{season}/episodes", Doc: "A league's season as numbered episodes: every event, soonest first, from 1.", Answer: answer{episodes, episodesSchema}},
	{Path: "api/metadata/agents/episode/{id}", Doc: "An event's cast: its lineup, as v2 lookup/event_lineup.", Answer: write(envelope{"players"}, castModel, fromV2("lookup/event_lineup/{0}"))},
	{Path: "changes", Query: []string{"since", "limit"}, Doc: "Changes of events, leagues and seasons after `since`, in Sportarr's names; `since` 0 or expired answers `resync`.", Answer: answer{changes, changesSchema}},

	// Lists users publish on Sportarr's own service: sportsdb has none to give.
	{Path: "api/public/v1/lists/{id}", Doc: "Lists users publish on Sportarr's own service: sportsdb has none, so always 404.", Answer: answer{func(*call, []string) ([]byte, error) { return nil, respond.ErrNotFound }, nil}},
}

// envelope is what surrounds an answer's objects: the members they are under.
type envelope []string

var (
	flat = envelope{"data"}
	list = envelope{"list"}
)

// in is {"data":{"name":[...]}}.
func in(name string) envelope { return envelope{"data", name} }

func (env envelope) open(b []byte) []byte {
	for _, m := range env {
		b = append(b, '{')
		b = record.AppendString(b, m)
		b = append(b, ':')
	}
	return append(b, '[')
}

func (env envelope) close(b []byte) []byte {
	b = append(b, ']')
	for range env {
		b = append(b, '}')
	}
	return b
}

// schema is the envelope's schema around items.
func (env envelope) schema(items map[string]any) map[string]any {
	s := arrayOf(items)
	for i := len(env) - 1; i >= 0; i-- {
		s = object(map[string]any{env[i]: s}, env[i])
	}
	return s
}

// source gives the records of a call.
type source func(c *call, args []string) ([]record.Record, error)

// write answers a source's records as the model, in the envelope; none is an empty list.
func write(env envelope, m model, src source) answer {
	fn := func(c *call, args []string) ([]byte, error) {
		recs, err := src(c, args)
		if err != nil {
			return nil, err
		}
		b := env.open(make([]byte, 0, 64+512*len(recs)))
		for i, rec := range recs {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = m.appendObject(b, rec); err != nil {
				return nil, fmt.Errorf("sportarr: %w", err)
			}
		}
		return env.close(b), nil
	}
	return answer{fn, env.schema(m.Schema())}
}

// fromV2 is the records of a v2 path, {n} standing for the call's parameter n.
func fromV2(path string) source {
	tmpl := strings.Split(path, "/")
	return func(c *call, args []string) ([]record.Record, error) {
		segs := make([]string, len(tmpl))
		for i, s := range tmpl {
			segs[i] = s
			if n, ok := strings.CutPrefix(s, "{"); ok {
				j, _ := strconv.Atoi(strings.TrimSuffix(n, "}"))
				segs[i] = args[j]
			}
		}
		recs, ok, err := c.s.v2.Records(c.ctx, c.tier, segs...)
		if !ok {
			return nil, fmt.Errorf("sportarr: no v2 row answers %s", path)
		}
		return recs, err
	}
}

// fromV1 is the records of a v1 file, the call's one parameter as param.
func fromV1(file, param string) source {
	return func(c *call, args []string) ([]record.Record, error) {
		recs, ok, err := c.s.v1.Records(c.ctx, c.tier, file, url.Values{param: {args[0]}})
		if !ok {
			return nil, fmt.Errorf("sportarr: no v1 row answers %s", file)
		}
		return recs, err
	}
}

// The v2 rows the hand-written answers read.
var (
	fullSchedule = fromV2("schedule/full/team/{0}")
	leagueSeason = fromV2("schedule/league/{0}/{1}")
)

// maxPlayerEvents is as many events as Sportarr's hub gives a player (its client says 500).
const maxPlayerEvents = 500

// playerEvents are the events a player took part in (their results and lineups), oldest
// first: Sportarr follows an athlete by them.
func playerEvents(c *call, args []string) ([]record.Record, error) {
	id, ok := api.ParseID(args[0])
	if !ok {
		return nil, nil
	}
	var ids []string
	seen := map[string]bool{}
	for _, k := range []*record.Kind{record.Result, record.Lineup} {
		recs, err := c.s.st.Find(c.ctx, store.Query{Kind: k, Where: []store.Cond{api.Eq("idPlayer", id)}, Limit: maxPlayerEvents})
		if err != nil {
			return nil, fmt.Errorf("sportarr: %s of player: %w", k.Name, err)
		}
		for _, r := range recs {
			if ev := r.Str("idEvent"); ev != "" && !seen[ev] {
				seen[ev] = true
				ids = append(ids, ev)
			}
		}
	}
	var evs []record.Record
	for _, ev := range ids[:min(len(ids), maxPlayerEvents)] {
		rec, err := c.s.st.Get(c.ctx, record.Event, ev)
		switch {
		case err == nil:
			evs = append(evs, rec)
		case !errors.Is(err, store.ErrNotFound):
			return nil, fmt.Errorf("sportarr: event %s: %w", ev, err)
		}
	}
	slices.SortStableFunc(evs, func(a, b record.Record) int {
		return strings.Compare(a.Str("strTimestamp")+a.Str("dateEvent"), b.Str("strTimestamp")+b.Str("dateEvent"))
	})
	return evs, nil
}

// teamsOfSports are the teams of the sports named in ?sport= (comma separated; none: every
// team), up to the server's ceiling.
func teamsOfSports(c *call, _ []string) ([]record.Record, error) {
	q := store.Query{Kind: record.Team, OrderBy: []store.Order{api.ByID("idTeam")}, Limit: caps.Ceiling}
	var sports []store.Cond
	for _, s := range strings.Split(c.query.Get("sport"), ",") {
		if s = strings.TrimSpace(s); s != "" && api.Printable(s) && len(s) <= api.MaxSegment {
			sports = append(sports, api.EqName("strSport", s))
		}
	}
	if len(sports) > 0 {
		q.Where = []store.Cond{api.Or(sports...)}
	}
	recs, err := c.s.st.Find(c.ctx, q)
	if err != nil {
		return nil, fmt.Errorf("sportarr: teams of sports: %w", err)
	}
	return recs, nil
}

// teamLeagues are the leagues a team played in, counted over its full schedule (v2's
// schedule/full/team, its latest 250 events): {"data":{"leagues":[{"id","name","sport",
// "eventCount"}],"_stats":{"totalLeagues","eventsAnalyzed"}}}, most events first.
func teamLeagues(c *call, args []string) ([]byte, error) {
	evs, err := fullSchedule(c, args)
	if err != nil {
		return nil, err
	}
	type league struct {
		id, name, sport string
		events          int
	}
	var leagues []*league
	byID := map[string]*league{}
	for _, ev := range evs {
		id := ev.Str("idLeague")
		if id == "" {
			continue
		}
		l := byID[id]
		if l == nil {
			l = &league{id: id, name: ev.Str("strLeague"), sport: ev.Str("strSport")}
			byID[id] = l
			leagues = append(leagues, l)
		}
		l.events++
	}
	slices.SortStableFunc(leagues, func(a, b *league) int { return b.events - a.events })
	b := []byte(`{"data":{"leagues":[`)
	for i, l := range leagues {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMembers(b, member{"id", str(l.id)}, member{"name", str(l.name)}, member{"sport", str(l.sport)},
			member{"eventCount", num(int64(l.events))})
	}
	b = fmt.Appendf(b, `],"_stats":{"totalLeagues":%d,"eventsAnalyzed":%d}}}`, len(leagues), len(evs))
	return b, nil
}

// textMembers are members of text or null.
func textMembers(names ...string) map[string]any {
	props := map[string]any{}
	for _, n := range names {
		props[n] = map[string]any{"type": []string{"string", "null"}}
	}
	return props
}

// withMember is props with one more member.
func withMember(props map[string]any, name string, schema map[string]any) map[string]any {
	props[name] = schema
	return props
}

var (
	episodesSchema = object(map[string]any{"episodes": arrayOf(object(
		withMember(withMember(textMembers("id", "tsdb_id", "title", "air_date", "home_team", "away_team"),
			"episode_number", map[string]any{"type": "integer"}), "season_number", map[string]any{"type": []string{"integer", "null"}}),
		"id", "tsdb_id", "title", "episode_number", "season_number", "air_date", "home_team", "away_team"))}, "episodes")
)

var teamLeaguesSchema = object(map[string]any{"data": object(map[string]any{
	"leagues": arrayOf(object(map[string]any{
		"id": map[string]any{"type": "string"}, "name": map[string]any{"type": "string"},
		"sport": map[string]any{"type": "string"}, "eventCount": map[string]any{"type": "integer"},
	}, "id", "name", "sport", "eventCount")),
	"_stats": object(map[string]any{"totalLeagues": map[string]any{"type": "integer"}, "eventsAnalyzed": map[string]any{"type": "integer"}},
		"totalLeagues", "eventsAnalyzed"),
}, "leagues", "_stats")}, "data")

// episodes numbers the events of a league's season as Sportarr's media server agents number
// episodes: every event of the season (v2's schedule/league), soonest first, from 1.
// {"episodes":[{"id","tsdb_id","title","episode_number","season_number","air_date",
// "home_team","away_team"}]}; season_number is the season's first year.
func episodes(c *call, args []string) ([]byte, error) {
	evs, err := leagueSeason(c, args)
	if err != nil {
		return nil, err
	}
	season := null
	if y := args[1]; len(y) >= 4 {
		if n, err := strconv.Atoi(y[:4]); err == nil {
			season = strconv.AppendInt(nil, int64(n), 10)
		}
	}
	b := []byte(`{"episodes":[`)
	for i, ev := range evs {
		if ev, err = ev.Decoded(); err != nil {
			return nil, fmt.Errorf("sportarr: %w", err)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMembers(b, member{"id", val(ev.Get("idEvent"))}, member{"tsdb_id", val(ev.Get("idEvent"))},
			member{"title", val(ev.Get("strEvent"))}, member{"episode_number", num(int64(i + 1))},
			member{"season_number", season}, member{"air_date", val(ev.Get("dateEvent"))},
			member{"home_team", val(ev.Get("strHomeTeam"))}, member{"away_team", val(ev.Get("strAwayTeam"))})
	}
	return append(b, "]}"...), nil
}

// castModel is a lineup entry as Sportarr's cast member: side "home" or "away".
var castModel = model{
	textOf("name", "strPlayer"), textOf("team", "strTeam"), computed("side", side),
	textOf("position", "strPosition"), textOf("number", "intSquadNumber"),
}

func side(r record.Record) (string, bool) {
	switch strings.ToLower(r.Str("strHome")) {
	case "yes":
		return "home", true
	case "no":
		return "away", true
	}
	return "", false
}

// member is a member of an object and its value, written.
type member struct {
	name  string
	value []byte
}

// appendMembers writes an object of the members.
func appendMembers(b []byte, ms ...member) []byte {
	for i, m := range ms {
		b = append(b, "{,"[min(i, 1)])
		b = record.AppendString(b, m.name)
		b = append(b, ':')
		b = append(b, m.value...)
	}
	return append(b, '}')
}

func str(s string) []byte       { return record.AppendString(nil, s) }
func num(n int64) []byte        { return strconv.AppendInt(nil, n, 10) }
func val(v record.Value) []byte { return appendValue(nil, v) }
