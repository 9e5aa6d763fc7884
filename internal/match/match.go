// Package match finds the event a media file's name records: it reads the league, teams,
// date, round and session words a file name holds, ignores release words, asks the store
// for the leagues and teams those words name (name searches the in-memory name index
// answers) and for their events near the date (indexed equalities), and ranks the events
// by how well teams, date, league and round fit, forgiving a typo or two and a date up to
// two days off. A name that fits no event well enough gives nothing, not a guess.
package match

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Max is the most events an answer holds.
const Max = 5

// Result is one event a file name may record.
type Result struct {
	Event record.Record
	// Score is how well the event fits the name, from 0 to 1.
	Score float64
	// Why says what fitted, for a person reading the answer.
	Why string
}

// ScoreText is the score as the answer writes it.
func (r Result) ScoreText() string { return strconv.FormatFloat(r.Score, 'f', 2, 64) }

// minTeamFit is the fit of names below which an event is not the name's game.
const minTeamFit = 0.5

// Bounds of the searches: a file name holds a few names, each of which names a few records.
const (
	maxSpan        = 4   // words of one name
	maxLeagues     = 20  // leagues named
	maxTeams       = 200 // teams a name search may give
	maxEventTeams  = 40  // teams whose events are read
	maxEvents      = 300 // events read for one name
	maxPairs       = 10  // pairs of teams whose games are read, for a name without a day
	maxPairGames   = Max // games read of one such pair, the latest first
	dateWindowDays = 2
)

// Find returns the events the file name most likely records, best first, at most Max.
func Find(ctx context.Context, st store.Records, name string) ([]Result, error) {
	m := &matcher{ctx: ctx, st: st, p: parse(name, tables), teams: map[string]*team{}, leagues: map[string]*league{}}
	if len(m.p.words) == 0 {
		return nil, nil
	}
	m.spans = spansOf(m.p)
	if err := m.findLeagues(); err != nil {
		return nil, err
	}
	if err := m.findTeams(); err != nil {
		return nil, err
	}
	events, err := m.findEvents()
	if err != nil {
		return nil, err
	}
	return m.rank(events), nil
}

type matcher struct {
	ctx     context.Context
	st      store.Records
	p       parsed
	spans   []span
	leagues map[string]*league
	// leagueWords are the indexes of words a league name took.
	leagueWords map[int]bool
	teams       map[string]*team
}

// span is a run of words that may be one name, not across the separator.
type span struct {
	from, to int // words[from:to]
	text     string
}

func spansOf(p parsed) []span {
	var out []span
	for i := range p.words {
		for j := i + 1; j <= len(p.words) && j-i <= maxSpan; j++ {
			if p.sep > i && p.sep < j {
				break
			}
			out = append(out, span{i, j, strings.Join(p.words[i:j], " ")})
		}
	}
	return out
}

type league struct {
	id, name string
}

type team struct {
	id, league string
	aliases    [][]string // the words of its name, alternates and short name
	how        string     // how the name was found: name, alternate, short, part, typo
}

func nameEq(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.Name, Op: store.Eq, Value: v}
}

func listHas(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.List, Op: store.ListHas, Value: v}
}

func eq(field, v string) store.Cond { return store.Cond{Field: field, Op: store.Eq, Value: v} }

// findLeagues reads the leagues the name's words name: by name, alternate or a common
// abbreviation (leagues.txt), in one search of the name index.
func (m *matcher) findLeagues() error {
	var conds []store.Cond
	names := map[string][]span{} // folded name → the spans that name it
	for _, s := range m.spans {
		conds = append(conds, nameEq("strLeague", s.text), listHas("strLeagueAlternate", s.text))
		names[s.text] = append(names[s.text], s)
		for _, full := range tables.leagues[s.text] {
			conds = append(conds, nameEq("strLeague", full))
			names[record.Fold(full)] = append(names[record.Fold(full)], s)
		}
	}
	recs, err := m.st.Find(m.ctx, store.Query{Kind: record.League, Where: []store.Cond{{Or: conds}}, Limit: maxLeagues})
	if err != nil {
		return fmt.Errorf("match: leagues: %w", err)
	}
	m.leagueWords = map[int]bool{}
	for _, rec := range recs {
		l := &league{id: rec.Str("idLeague"), name: rec.Str("strLeague")}
		m.leagues[l.id] = l
		keys := append([]string{record.Fold(l.name)}, splitList(rec.Str("strLeagueAlternate"))...)
		for _, k := range keys {
			for _, s := range names[k] {
				for i := s.from; i < s.to; i++ {
					m.leagueWords[i] = true
				}
			}
		}
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if f := record.Fold(p); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// inLeagues narrows a team search to the leagues named, when some are.
func (m *matcher) inLeagues(conds ...store.Cond) []store.Cond {
	if len(m.leagues) == 0 {
		return conds
	}
	var ids []store.Cond
	for _, id := range sortedKeys(m.leagues) {
		ids = append(ids, eq("idLeague", id))
	}
	return append(conds, store.Cond{Or: ids})
}

func sortedKeys[V any](mp map[string]V) []string {
	out := make([]string, 0, len(mp))
	for k := range mp {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// findTeams reads the teams the words name: whole names and alternates first, then short
// names within the leagues named, then names that hold a word (a nickname), then names
// with a word close to one of the name's (a typo).
func (m *matcher) findTeams() error {
	var exact []store.Cond
	for _, s := range m.spans {
		if !m.allLeague(s) {
			exact = append(exact, nameEq("strTeam", s.text), listHas("strTeamAlternate", s.text))
		}
	}
	if len(exact) > 0 {
		if err := m.readTeams("name", []store.Cond{{Or: exact}}); err != nil {
			return err
		}
	}
	var short, part, typo []store.Cond
	for i, w := range m.p.words {
		if m.leagueWords[i] || allDigits(w) || tables.generic[w] {
			continue
		}
		if len(w) >= 2 && len(w) <= 4 {
			short = append(short, nameEq("strTeamShort", w))
		}
		if len(w) >= 4 && !m.covered(w) {
			part = append(part, store.Cond{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: w})
		}
	}
	// A short name (ARS, CHI) names a team only within a league or near a day: many teams
	// share one.
	if len(short) > 0 && (len(m.leagues) > 0 || len(m.p.dates) > 0) {
		if err := m.readTeams("short", m.inLeagues(store.Cond{Or: short})); err != nil {
			return err
		}
	}
	if len(part) > 0 {
		if err := m.readTeams("part", m.inLeagues(store.Cond{Or: part})); err != nil {
			return err
		}
	}
	for i, w := range m.p.words {
		if len(w) >= 4 && !m.leagueWords[i] && !allDigits(w) && !m.covered(w) {
			for _, chunk := range []string{w[:3], w[len(w)-3:]} {
				typo = append(typo, store.Cond{Field: "strTeam", Norm: record.Name, Op: store.Contains, Value: chunk})
			}
		}
	}
	if len(typo) > 0 {
		return m.readTeams("typo", m.inLeagues(store.Cond{Or: typo}))
	}
	return nil
}

// allLeague says every word of the span is a league's.
func (m *matcher) allLeague(s span) bool {
	for i := s.from; i < s.to; i++ {
		if !m.leagueWords[i] {
			return false
		}
	}
	return true
}

// covered says a team found already has the word in one of its names.
func (m *matcher) covered(w string) bool {
	for _, t := range m.teams {
		for _, a := range t.aliases {
			if slices.Contains(a, w) {
				return true
			}
		}
	}
	return false
}

func (m *matcher) readTeams(how string, where []store.Cond) error {
	recs, err := m.st.Find(m.ctx, store.Query{Kind: record.Team, Where: where, Limit: maxTeams})
	if err != nil {
		return fmt.Errorf("match: teams: %w", err)
	}
	for _, rec := range recs {
		id := rec.Str("idTeam")
		if _, seen := m.teams[id]; seen {
			continue
		}
		t := &team{id: id, league: rec.Str("idLeague"), how: how}
		for _, n := range append([]string{rec.Str("strTeam"), rec.Str("strTeamShort")}, strings.Split(rec.Str("strTeamAlternate"), ",")...) {
			if ws := tokens(record.Fold(n)); len(ws) > 0 {
				t.aliases = append(t.aliases, ws)
			}
		}
		m.teams[id] = t
	}
	return nil
}

// days are the days the events may be on: each day the name may mean, two either side.
func (m *matcher) days() []store.Cond {
	seen := map[string]bool{}
	var out []store.Cond
	for _, d := range m.p.dates {
		for k := -dateWindowDays; k <= dateWindowDays; k++ {
			day := d.AddDate(0, 0, k).Format(time.DateOnly)
			if !seen[day] {
				seen[day] = true
				out = append(out, eq("dateEvent", day))
			}
		}
	}
	return out
}

// latestFirst orders events read without a date: a recording is most often of a recent game.
var latestFirst = []store.Order{{Field: "strTimestamp", Desc: true}, {Field: "idEvent", Numeric: true, Desc: true}}

// findEvents reads the events of the teams found (without a day, the games of the pairs of
// them that fit best: meetings), the events of the leagues named on the days named, and,
// when no league is named, the events whose own name the words hold; each once.
func (m *matcher) findEvents() ([]record.Record, error) {
	var qs [][]store.Cond
	var out []record.Record
	days := m.days()
	if ids := m.bestTeams(); len(ids) > 0 && len(days) > 0 {
		var home, away []store.Cond
		for _, id := range ids {
			home = append(home, eq("idHomeTeam", id))
			away = append(away, eq("idAwayTeam", id))
		}
		qs = append(qs, m.onDays(store.Cond{Or: append(home, away...)})...)
	} else if len(ids) > 0 {
		var err error
		if out, err = m.read(nil, m.meetings(ids)...); err != nil {
			return nil, err
		}
	}
	if len(m.leagues) > 0 && len(days) > 0 {
		qs = append(qs, m.onDays(m.inLeagues()...)...)
	}
	if len(m.leagues) == 0 {
		// No league named: the name may be an event's own (a Grand Prix, a card).
		var names []store.Cond
		for _, s := range m.spans {
			names = append(names, nameEq("strEvent", s.text))
		}
		qs = append(qs, append([]store.Cond{{Or: names}}, orNone(days)...))
	}
	out, err := m.readEvents(out, qs...)
	if err != nil || len(out) > 0 || len(m.leagues) == 0 || len(days) > 0 {
		return out, err
	}
	// A league without a day and no game of the teams named (an event sport): the league's
	// events in the years named. Read last: a league's season is many events, which the
	// teams' games between them hold when there are teams.
	if len(m.p.years) > 0 {
		return m.readEvents(out, m.inLeagues(store.Cond{Or: m.seasons()}))
	}
	return m.readEvents(out, m.inLeagues())
}

// timeSlack is how many days an event's start (strTimestamp, UTC) may lie beyond the days
// its date (dateEvent) may be on, for a date written in the venue's zone.
const timeSlack = 1

// onDays is the queries of the events where selects on the days named. Each is bounded by
// when the events start, one query per run of days: the indexes of a team's or a league's
// events are ordered by strTimestamp after the team or league, so a bounded read takes the
// events of those days alone; with the dates alone SQLite read every event of the team or
// league to keep those days' (at full scale a league's 1,400 documents to keep 40). A last
// query reads the events without a start time, which the bounds leave out.
func (m *matcher) onDays(where ...store.Cond) [][]store.Cond {
	days := store.Cond{Or: m.days()}
	var qs [][]store.Cond
	for _, p := range m.periods() {
		qs = append(qs, slices.Concat(where, []store.Cond{days,
			{Field: "strTimestamp", Op: store.Ge, Value: p.from}, {Field: "strTimestamp", Op: store.Lt, Value: p.to}}))
	}
	return append(qs, slices.Concat(where, []store.Cond{days, eq("strTimestamp", "")}))
}

// period is a span of start times, from the first of its days to the day after its last
// (excluded), as strTimestamp writes them.
type period struct{ from, to string }

// periods are the spans the events of the days named start in, with the slack either side,
// in time order; spans that meet are one.
func (m *matcher) periods() []period {
	dates := slices.SortedFunc(slices.Values(m.p.dates), time.Time.Compare)
	var out []period
	var from, to time.Time
	for i, d := range dates {
		lo, hi := d.AddDate(0, 0, -dateWindowDays-timeSlack), d.AddDate(0, 0, dateWindowDays+timeSlack+1)
		if i > 0 && !lo.After(to) {
			to = hi
			continue
		}
		if i > 0 {
			out = append(out, period{from.Format(time.DateOnly), to.Format(time.DateOnly)})
		}
		from, to = lo, hi
	}
	if len(dates) > 0 {
		out = append(out, period{from.Format(time.DateOnly), to.Format(time.DateOnly)})
	}
	return out
}

// orNone is a condition of alternatives, none when there are none.
func orNone(alts []store.Cond) []store.Cond {
	if len(alts) == 0 {
		return nil
	}
	return []store.Cond{{Or: alts}}
}

// readEvents adds to out the events each query selects, at most maxEvents of each, the
// latest first; each once.
func (m *matcher) readEvents(out []record.Record, qs ...[]store.Cond) ([]record.Record, error) {
	var reads []store.Query
	for _, where := range qs {
		reads = append(reads, store.Query{Where: where, Limit: maxEvents})
	}
	return m.read(out, reads...)
}

// read adds to out the events each query selects (its Where, and Limit), the latest first;
// each once.
func (m *matcher) read(out []record.Record, qs ...store.Query) ([]record.Record, error) {
	seen := map[string]bool{}
	for _, rec := range out {
		seen[rec.Str("idEvent")] = true
	}
	for _, q := range qs {
		q.Kind, q.OrderBy = record.Event, latestFirst
		recs, err := m.st.Find(m.ctx, q)
		if err != nil {
			return nil, fmt.Errorf("match: events: %w", err)
		}
		for _, rec := range recs {
			if id := rec.Str("idEvent"); !seen[id] {
				seen[id] = true
				out = append(out, rec)
			}
		}
	}
	return out, nil
}

// seasons are the season names the years may mean: 2024, 2023-2024 and 2024-2025.
func (m *matcher) seasons() []store.Cond {
	var out []store.Cond
	for _, y := range m.p.years {
		out = append(out, eq("strSeason", strconv.Itoa(y)),
			eq("strSeason", fmt.Sprintf("%d-%d", y-1, y)), eq("strSeason", fmt.Sprintf("%d-%d", y, y+1)))
	}
	return out
}

// bestTeams are the ids of the teams that fit the name best, at most maxEventTeams.
func (m *matcher) bestTeams() []string {
	type scored struct {
		id  string
		fit float64
	}
	var all []scored
	for _, id := range sortedKeys(m.teams) {
		f := m.teamFit(m.p.words, m.teams[id].aliases)
		if f > 0 {
			all = append(all, scored{id, f})
		}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		switch {
		case a.fit > b.fit:
			return -1
		case a.fit < b.fit:
			return 1
		}
		return 0
	})
	var out []string
	for i := 0; i < len(all) && i < maxEventTeams; i++ {
		out = append(out, all[i].id)
	}
	return out
}
