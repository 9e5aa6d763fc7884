package gen

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// The properties the API relies on, checked through the same queries it runs.

func teamSportTeams(t *testing.T, st store.Records) []record.Record {
	t.Helper()
	var out []record.Record
	for _, l := range find(t, st, record.League) {
		if l.Str("strSport") == "Motorsport" || l.Str("strSport") == "Fighting" || l.Str("strSport") == "Golf" {
			continue
		}
		out = append(out, find(t, st, record.Team, eq("idLeague", l.Str("idLeague")))...)
	}
	return out
}

func TestEveryTeamHasNextAndPreviousEvents(t *testing.T) {
	st, _ := demo(t)
	now := testNow.Format(layoutStamp)
	teams := teamSportTeams(t, st)
	if len(teams) < 50 {
		t.Fatalf("only %d team-sport teams", len(teams))
	}
	for _, tm := range teams {
		id := tm.Str("idTeam")
		either := store.Cond{Or: []store.Cond{eq("idHomeTeam", id), eq("idAwayTeam", id)}}
		next := find(t, st, record.Event, either, store.Cond{Field: "strTimestamp", Op: store.Gt, Value: now})
		prev := find(t, st, record.Event, either, store.Cond{Field: "strTimestamp", Op: store.Lt, Value: now})
		if len(next) == 0 || len(prev) == 0 {
			t.Errorf("%s (%s): %d next and %d previous events", tm.Str("strTeam"), id, len(next), len(prev))
		}
		home := find(t, st, record.Event, eq("idHomeTeam", id), store.Cond{Field: "strTimestamp", Op: store.Gt, Value: now})
		if len(home) == 0 {
			t.Errorf("%s has no home game after Now (free keys only see home games)", tm.Str("strTeam"))
		}
	}
}

func TestLiveScoresAreInPlayAndRecent(t *testing.T) {
	st, _ := demo(t)
	live := find(t, st, record.LiveScore)
	sports := map[string]bool{}
	for _, ls := range live {
		sports[ls.Str("strSport")] = true
		up, err := time.Parse(layoutSpace, ls.Str("updated"))
		if err != nil || up.After(testNow) || testNow.Sub(up) > 5*time.Minute {
			t.Errorf("live score %s updated %q, want within 5 minutes before Now", ls.Str("idLiveScore"), ls.Str("updated"))
		}
		ev, err := st.Get(context.Background(), record.Event, ls.Str("idEvent"))
		if err != nil {
			t.Fatalf("live score %s: event %s: %v", ls.Str("idLiveScore"), ls.Str("idEvent"), err)
		}
		if ev.Str("strStatus") != ls.Str("strStatus") || ev.Str("intHomeScore") != ls.Str("intHomeScore") || ev.Str("idHomeTeam") != ls.Str("idHomeTeam") {
			t.Errorf("live score %s disagrees with its event: %v / %v", ls.Str("idLiveScore"), ls, ev)
		}
	}
	inPlay := 0
	for _, ls := range live {
		switch p := ls.Str("strProgress"); {
		case p == "Final":
			if ls.Str("strStatus") != "FT" {
				t.Errorf("live score %s is Final with status %q", ls.Str("idLiveScore"), ls.Str("strStatus"))
			}
		case atoi(p) > 0 && strconv.Itoa(atoi(p)) == p:
			inPlay++
		default:
			t.Errorf("live score %s: strProgress %q, want a minute or Final", ls.Str("idLiveScore"), p)
		}
	}
	if inPlay == 0 {
		t.Error("no game in play")
	}
	for _, s := range []string{"Soccer", "Basketball", "Ice Hockey", "American Football"} {
		if !sports[s] || len(find(t, st, record.LiveScore, named("strSport", s))) == 0 {
			t.Errorf("no live %s game", s)
		}
	}
	if n := len(find(t, st, record.LiveScore, eq("idLeague", "4328"))); n == 0 {
		t.Error("no live game in league 4328")
	}
}

func TestStandingsCoverEachLeaguesCurrentSeason(t *testing.T) {
	st, _ := demo(t)
	tables := 0
	for _, l := range find(t, st, record.League) {
		teams := find(t, st, record.Team, eq("idLeague", l.Str("idLeague")))
		rows := find(t, st, record.Standing, eq("idLeague", l.Str("idLeague")), eq("strSeason", l.Str("strCurrentSeason")))
		if isIndividual(l.Str("strSport")) {
			continue
		}
		tables++
		if len(rows) != len(teams) {
			t.Errorf("%s %s: %d table rows for %d teams", l.Str("strLeague"), l.Str("strCurrentSeason"), len(rows), len(teams))
		}
		played := 0
		for i, r := range rows {
			w, d, lo, p := atoi(r.Str("intWin")), atoi(r.Str("intDraw")), atoi(r.Str("intLoss")), atoi(r.Str("intPlayed"))
			if w+d+lo != p || atoi(r.Str("intPoints")) != 3*w+d || atoi(r.Str("intRank")) != i+1 {
				t.Errorf("%s row %d inconsistent: %v", l.Str("strLeague"), i, r)
			}
			played += p
		}
		if played == 0 {
			t.Errorf("%s: no games played in the current season", l.Str("strLeague"))
		}
	}
	if tables < 8 {
		t.Errorf("only %d leagues with tables", tables)
	}
}

func isIndividual(sport string) bool {
	return sport == "Motorsport" || sport == "Fighting" || sport == "Golf"
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestIndividualSportsHaveResults(t *testing.T) {
	st, _ := demo(t)
	for _, sport := range []string{"Motorsport", "Fighting", "Golf"} {
		events := find(t, st, record.Event, named("strSport", sport), store.Cond{Field: "strTimestamp", Op: store.Lt, Value: testNow.Add(-12 * time.Hour).Format(layoutStamp)})
		if len(events) == 0 {
			t.Errorf("no past %s events", sport)
			continue
		}
		for _, ev := range events {
			if ev.Str("strStatus") != "FT" && ev.Get("strStatus").Valid {
				continue
			}
			res := find(t, st, record.Result, eq("idEvent", ev.Str("idEvent")))
			if len(res) < 2 {
				t.Errorf("%s event %s has %d results", sport, ev.Str("strEvent"), len(res))
				continue
			}
			pl, err := st.Get(context.Background(), record.Player, res[0].Str("idPlayer"))
			if err != nil || pl.Str("strSport") != sport || pl.Str("strPlayer") != res[0].Str("strPlayer") {
				t.Errorf("result %s names player %s: %v %v", res[0].Str("idResult"), res[0].Str("idPlayer"), pl, err)
			}
			if len(find(t, st, record.Result, eq("idPlayer", res[0].Str("idPlayer")))) == 0 {
				t.Errorf("player %s has no results by idPlayer", res[0].Str("idPlayer"))
			}
		}
	}
}

func TestAccentedNamesMatchWithoutAccents(t *testing.T) {
	st, _ := demo(t)
	for query, want := range map[string]string{"Atletico Madrid": "Atlético Madrid", "bayern munchen": "Bayern München", "BC Siauliai": "BC Šiauliai"} {
		got := find(t, st, record.Team, named("strTeam", query))
		if len(got) != 1 || got[0].Str("strTeam") != want {
			t.Errorf("team search %q: got %d records, want %q", query, len(got), want)
		}
	}
	if got := find(t, st, record.Team, store.Cond{Field: "strTeamAlternate", Norm: record.List, Op: store.ListHas, Value: "Atleti"}); len(got) != 1 {
		t.Errorf("alternate name Atleti found %d teams, want 1", len(got))
	}
}

func TestHighlightsListedTodayAndYesterday(t *testing.T) {
	st, _ := demo(t)
	for _, d := range []time.Time{testNow, testNow.AddDate(0, 0, -1)} {
		hs := find(t, st, record.Highlight, eq("dateEvent", d.Format(layoutDate)))
		if len(hs) == 0 {
			t.Errorf("no highlights listed on %s", d.Format(layoutDate))
		}
		for _, h := range hs {
			ev, err := st.Get(context.Background(), record.Event, h.Str("idEvent"))
			if err != nil || ev.Str("strVideo") == "" || ev.Str("strVideo") != h.Str("strVideo") || ev.Str("strEvent") != h.Str("strEvent") {
				t.Errorf("highlight %s does not match its event (%v)", h.Str("idEvent"), err)
			}
		}
	}
	if n := len(find(t, st, record.Highlight, eq("dateEvent", testNow.Format(layoutDate)), eq("idLeague", "4328"), named("strSport", "Soccer"))); n == 0 {
		t.Error("no Premier League highlight listed today")
	}
}

func TestFixedNames(t *testing.T) {
	st, _ := demo(t)
	ctx := context.Background()
	for kind, want := range map[*record.Kind][2]string{
		record.League: {"4328", "English Premier League"},
		record.Team:   {"133604", "Arsenal"},
		record.Venue:  {"15528", "Emirates Stadium"},
		record.Player: {"34161934", "Bukayo Saka"},
	} {
		r, err := st.Get(ctx, kind, want[0])
		if err != nil || !containsValue(r, want[1]) {
			t.Errorf("%s %s: %v, want %q", kind.Name, want[0], err, want[1])
		}
	}
	if liv, err := st.Get(ctx, record.Team, "133602"); err != nil || liv.Str("strTeam") != "Liverpool" || liv.Str("idLeague") != "4328" {
		t.Errorf("Liverpool: %v %v", liv, err)
	}
	saka := find(t, st, record.Player, named("strPlayer", "bukayo saka"))
	if len(saka) != 1 || saka[0].Str("idTeam") != "133604" {
		t.Fatalf("player search for Bukayo Saka found %d", len(saka))
	}
	for _, k := range []*record.Kind{record.Honour, record.FormerTeam, record.Milestone, record.Contract, record.PlayerStat} {
		if len(find(t, st, k, eq("idPlayer", "34161934"))) == 0 {
			t.Errorf("Bukayo Saka has no %s records", k.Name)
		}
	}
	if len(find(t, st, record.Venue, named("strVenue", "emirates stadium"))) != 1 {
		t.Error("venue search for Emirates Stadium")
	}
	if len(find(t, st, record.Equipment, eq("idTeam", "133604"))) == 0 {
		t.Error("Arsenal has no kits")
	}
}

func containsValue(r record.Record, s string) bool {
	for _, f := range r.Kind.Fields {
		if r.Str(f) == s {
			return true
		}
	}
	return false
}

var (
	stampRe = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`)
	spaceRe = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`)
)

func TestEventsAgreeWithTheirTeamsLeagueAndSeason(t *testing.T) {
	st, _ := demo(t)
	ctx := context.Background()
	teams := map[string]record.Record{}
	for _, tm := range find(t, st, record.Team) {
		teams[tm.Str("idTeam")] = tm
	}
	err := st.Scan(ctx, record.Event, func(ev record.Record) error {
		id := ev.Str("idEvent")
		if !stampRe.MatchString(ev.Str("strTimestamp")) || ev.Str("dateEvent") != ev.Str("strTimestamp")[:10] {
			t.Errorf("event %s: strTimestamp %q dateEvent %q", id, ev.Str("strTimestamp"), ev.Str("dateEvent"))
		}
		if want := ev.Str("strLeague") + " " + ev.Str("dateEvent") + " " + ev.Str("strEvent"); ev.Str("strFilename") != want {
			t.Errorf("event %s: strFilename %q, want %q", id, ev.Str("strFilename"), want)
		}
		if _, err := st.Get(ctx, record.Season, ev.Str("idLeague")+"|"+ev.Str("strSeason")); err != nil {
			t.Errorf("event %s: season %s of league %s: %v", id, ev.Str("strSeason"), ev.Str("idLeague"), err)
		}
		if ev.Get("idHomeTeam").Empty() {
			return nil
		}
		home, away := teams[ev.Str("idHomeTeam")], teams[ev.Str("idAwayTeam")]
		if home.Str("strTeam") != ev.Str("strHomeTeam") || away.Str("strTeam") != ev.Str("strAwayTeam") ||
			home.Str("idLeague") != ev.Str("idLeague") || away.Str("idLeague") != ev.Str("idLeague") {
			t.Errorf("event %s teams disagree with team records", id)
		}
		if ev.Str("strEvent") != home.Str("strTeam")+" vs "+away.Str("strTeam") || ev.Str("strEventAlternate") != away.Str("strTeam")+" @ "+home.Str("strTeam") {
			t.Errorf("event %s: strEvent %q strEventAlternate %q", id, ev.Str("strEvent"), ev.Str("strEventAlternate"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestLineupsAndTimelinesListTheTwoTeamsPlayers(t *testing.T) {
	st, _ := demo(t)
	ctx := context.Background()
	checked := 0
	check := func(kind *record.Kind) {
		err := st.Scan(ctx, kind, func(r record.Record) error {
			ev, err := st.Get(ctx, record.Event, r.Str("idEvent"))
			if err != nil {
				t.Fatalf("%s for missing event %s", kind.Name, r.Str("idEvent"))
			}
			p, err := st.Get(ctx, record.Player, r.Str("idPlayer"))
			side := ev.Str("idAwayTeam")
			if r.Str("strHome") == "Yes" {
				side = ev.Str("idHomeTeam")
			}
			if err != nil || p.Str("idTeam") != r.Str("idTeam") || r.Str("idTeam") != side || p.Str("strPlayer") != r.Str("strPlayer") {
				t.Errorf("%s row %v: player %v (%v), event teams %s/%s", kind.Name, r, p, err, ev.Str("idHomeTeam"), ev.Str("idAwayTeam"))
			}
			checked++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check(record.Lineup)
	check(record.Timeline)
	if checked == 0 {
		t.Fatal("no lineups or timelines")
	}
	either := store.Cond{Or: []store.Cond{eq("idHomeTeam", "133604"), eq("idAwayTeam", "133604")}}
	arsenal := find(t, st, record.Event, either, store.Cond{Field: "strTimestamp", Op: store.Lt, Value: testNow.Format(layoutStamp)})
	if len(arsenal) == 0 || len(find(t, st, record.Lineup, eq("idEvent", arsenal[len(arsenal)-1].Str("idEvent")))) == 0 {
		t.Error("Arsenal's latest game has no lineup")
	}
}

func TestGoalsInTimelineMatchTheScore(t *testing.T) {
	st, _ := demo(t)
	games := 0
	for _, ev := range find(t, st, record.Event, eq("idLeague", "4328"), store.Cond{Field: "strTimestamp", Op: store.Gt, Value: testNow.AddDate(0, 0, -10).Format(layoutStamp)}) {
		if ev.Get("intHomeScore").Empty() {
			continue
		}
		goals := [2]int{}
		for _, tl := range find(t, st, record.Timeline, eq("idEvent", ev.Str("idEvent"))) {
			if tl.Str("strTimeline") == "Goal" {
				if tl.Str("strHome") == "Yes" {
					goals[0]++
				} else {
					goals[1]++
				}
			}
		}
		if itoa(goals[0]) != ev.Str("intHomeScore") || itoa(goals[1]) != ev.Str("intAwayScore") {
			t.Errorf("%s (%s): score %s-%s, timeline goals %d-%d", ev.Str("strEvent"), ev.Str("strStatus"), ev.Str("intHomeScore"), ev.Str("intAwayScore"), goals[0], goals[1])
		}
		games++
	}
	if games == 0 {
		t.Fatal("no recent Premier League game with a score")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestTVListingsAndEventsOfToday(t *testing.T) {
	st, _ := demo(t)
	ctx := context.Background()
	today := testNow.Format(layoutDate)
	if len(find(t, st, record.Event, eq("dateEvent", today))) == 0 {
		t.Error("no events today")
	}
	if len(find(t, st, record.Event, eq("dateEvent", today), named("strSport", "Soccer"), eq("idLeague", "4328"))) == 0 {
		t.Error("no Premier League events today")
	}
	tv := find(t, st, record.TV, eq("dateEvent", today))
	if len(tv) == 0 {
		t.Fatal("no TV listings today")
	}
	for _, row := range tv {
		ev, err := st.Get(ctx, record.Event, row.Str("idEvent"))
		if err != nil || ev.Str("strEvent") != row.Str("strEvent") || ev.Str("strThumb") != row.Str("strEventThumb") ||
			!spaceRe.MatchString(row.Str("strTimeStamp")) || row.Str("strTimeStamp")[:10] != ev.Str("dateEvent") {
			t.Errorf("TV row %s disagrees with event %s (%v)", row.Str("id"), row.Str("idEvent"), err)
		}
	}
	if len(find(t, st, record.TV, store.Cond{Field: "strChannel", Norm: record.Name, Op: store.Contains, Value: "sky sports"})) == 0 {
		t.Error("no listings on a channel named like Sky Sports")
	}
	if len(find(t, st, record.TV, eq("dateEvent", today), named("strCountry", "United Kingdom"))) == 0 {
		t.Error("no listings today for United Kingdom channels")
	}
}

func TestSeasonsAndPostersOfLeagues(t *testing.T) {
	st, _ := demo(t)
	seasons := find(t, st, record.Season, eq("idLeague", "4328"))
	if len(seasons) < 3 {
		t.Fatalf("league 4328 has %d seasons", len(seasons))
	}
	last := seasons[len(seasons)-1]
	if last.Str("strSeason") != "2026-2027" || last.Str("strBadge") == "" || last.Str("strPoster") == "" || last.Str("strDescriptionEN") == "" {
		t.Errorf("latest season: %v", last)
	}
	posters := find(t, st, record.SeasonPoster, eq("idLeague", "4328"))
	if len(posters) == 0 || posters[0].Str("strUsername") == "" {
		t.Errorf("league 4328 posters: %d", len(posters))
	}
	if n := len(find(t, st, record.League, named("strCountry", "England"), named("strSport", "Soccer"))); n != 1 {
		t.Errorf("soccer leagues of England: %d, want 1", n)
	}
	c := find(t, st, record.Country, named("name_en", "Lithuania"))
	if len(c) != 1 || c[0].Str("code") != "LT" || c[0].Str("flag_url_64") == "" || c[0].Str("name_fr") != "Lituanie" {
		t.Errorf("country Lithuania: %v", c)
	}
}

// Names are built from syllables, some of which start with a letter of two bytes (ö, š): a
// name starting with one has it upper-cased whole, not its first byte replaced.
func TestPlaceNamesAreWholeLetters(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	starts := map[rune]bool{}
	for range 2000 {
		name := placeName(r, 2)
		first, _ := utf8.DecodeRuneInString(name)
		if !utf8.ValidString(name) || strings.ContainsRune(name, utf8.RuneError) || !unicode.IsUpper(first) {
			t.Fatalf("placeName gave %q", name)
		}
		starts[first] = true
	}
	for _, want := range []rune{'Ö', 'Š', 'V'} {
		if !starts[want] {
			t.Errorf("no name starts with %c in 2000", want)
		}
	}
}

// No text the demo dataset serves holds a replacement character or invalid UTF-8.
func TestDemoTextIsValidUTF8(t *testing.T) {
	st, _ := demo(t)
	for _, k := range record.Kinds {
		bad := 0
		err := st.Scan(context.Background(), k, func(rec record.Record) error {
			for _, f := range k.Fields {
				if v := rec.Str(f); !utf8.ValidString(v) || strings.ContainsRune(v, utf8.RuneError) {
					if bad++; bad <= 3 {
						t.Errorf("%s %s: %s = %q", k.Name, rec.Str(k.Fields[0]), f, v)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
