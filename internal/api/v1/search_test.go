package v1_test

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"sportsdb/internal/api"
	v1 "sportsdb/internal/api/v1"
	"sportsdb/internal/apitest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/nameindex"
)

// namesCounted counts the searches ranked from the index's names.
type namesCounted struct {
	*nameindex.Store
	ranked int
}

func (n *namesCounted) RecordsBySeqs(ctx context.Context, k *record.Kind, seqs []int64, version int64) ([]record.Record, bool, error) {
	recs, ok, err := n.Store.RecordsBySeqs(ctx, k, seqs, version)
	if ok {
		n.ranked++
	}
	return recs, ok, err
}

// TestPlayersRankedFromNames: the player search ranked from the index's folded names, reading
// only the records it keeps, answers as the search ranking the records read from the
// database, record for record and score for score, for many needles and caps, ties
// included (equal names, equal scores: name order, then the window's order).
func TestPlayersRankedFromNames(t *testing.T) {
	e := apitest.New(t, apitest.Options{Demo: true})
	ctx := context.Background()
	var ties []row
	for i, n := range []string{"Tie Same", "tie same", "Tié Same", "Tie Samé", "Same Tie", "Tie Sames", "Ties Same", "Xtie Same"} {
		ties = append(ties, r(record.Player, "idPlayer", fmt.Sprint(99000+i), "strPlayer", n))
	}
	put(t, e.Store, ties...)
	ix := &namesCounted{Store: nameindex.Wrap(e.Store, nameindex.Options{Sync: true}).(*nameindex.Store)}
	viaDB := api.Deps{Store: e.Store}
	viaIndex := api.Deps{Store: ix}

	var names []string
	err := e.Store.Scan(ctx, record.Player, func(rec record.Record) error {
		if len(names) < 400 {
			names = append(names, rec.Str("strPlayer"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	needles := []string{"tie same", "TIE", "same", "tie_same", "tié", "ie", "a", "an", "zzzz", "mario"}
	for i, n := range names {
		if i%7 != 0 {
			continue
		}
		words := strings.Fields(n)
		needles = append(needles, n, strings.ToUpper(n), words[0], words[len(words)-1])
		if len(n) > 5 {
			needles = append(needles, n[1:4], n[2:4])
		}
	}
	compared := 0
	for _, needle := range needles {
		for _, limit := range []int{1, 3, 10, 50} {
			q := url.Values{"p": {needle}}
			want, err := v1.SearchPlayers(ctx, viaDB, store.Premium, limit, q)
			if err != nil {
				t.Fatal(err)
			}
			before := ix.ranked
			got, err := v1.SearchPlayers(ctx, viaIndex, store.Premium, limit, q)
			if err != nil {
				t.Fatal(err)
			}
			if ix.ranked > before {
				compared++
			}
			if len(got.Recs) != len(want.Recs) || len(got.Recs) > 0 && !reflect.DeepEqual(got.Recs, want.Recs) || scoresOf(got) != scoresOf(want) {
				t.Fatalf("p=%q cap %d: from names %v, from records %v", needle, limit, idsScores(got), idsScores(want))
			}
		}
	}
	if compared < len(needles)*4*9/10 {
		t.Fatalf("only %d of %d searches were ranked from the index's names", compared, len(needles)*4)
	}
	// The ties: equal scores keep the window's order (exact names first, then by name).
	got, err := v1.SearchPlayers(ctx, viaIndex, store.Premium, 10, url.Values{"p": {"tie same"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := idsScores(got); !strings.HasPrefix(s, "99000:30 99001:30 99002:30 99003:30 ") {
		t.Fatalf("ties: %s", s)
	}
}

func scoresOf(a api.Answer) string {
	var b strings.Builder
	for _, rec := range a.Recs {
		b.WriteString(a.Relevance(rec) + " ")
	}
	return b.String()
}

func idsScores(a api.Answer) string {
	var b strings.Builder
	for _, rec := range a.Recs {
		id, _ := rec.ID()
		b.WriteString(id + ":" + a.Relevance(rec) + " ")
	}
	return b.String()
}

// movedOnce is a name index whose data moves once between finding the seqs and reading them.
type movedOnce struct {
	*nameindex.Store
	moved bool
}

func (m *movedOnce) RecordsBySeqs(ctx context.Context, k *record.Kind, seqs []int64, version int64) ([]record.Record, bool, error) {
	if !m.moved {
		m.moved = true
		return nil, false, nil
	}
	return m.Store.RecordsBySeqs(ctx, k, seqs, version)
}

// TestFirstFoundFromSeqs: the team and venue searches (exact names first, then names
// containing the query, each record once, up to the cap) answered from the name index's seqs,
// with the records kept read at once, give the records the database gives query by query, in
// the same order, for many needles, caps and both tiers; and data that moved between the seqs
// and the records is read again from the database.
func TestFirstFoundFromSeqs(t *testing.T) {
	e := apitest.New(t, apitest.Options{Demo: true})
	ctx := context.Background()
	// A team whose name is another's alternate, and names that contain each other.
	put(t, e.Store,
		r(record.Team, "idTeam", "99100", "strTeam", "Same Name FC", "strTeamAlternate", "Other Side"),
		r(record.Team, "idTeam", "99101", "strTeam", "Other Side", "strTeamAlternate", "Same Name FC"),
		r(record.Team, "idTeam", "99102", "strTeam", "Other Side United"),
		r(record.Venue, "idVenue", "99200", "strVenue", "Same Ground", "strVenueAlternate", "Old Same Ground"),
		r(record.Venue, "idVenue", "99201", "strVenue", "Old Same Ground"))
	ix := &namesCounted{Store: nameindex.Wrap(e.Store, nameindex.Options{Sync: true}).(*nameindex.Store)}
	viaDB := api.Deps{Store: e.Store}
	viaIndex := api.Deps{Store: ix}

	type search struct {
		kind  *record.Kind
		param string
		field string
		run   func(context.Context, api.Deps, store.Tier, int, url.Values) (api.Answer, error)
	}
	searches := []search{
		{record.Team, "t", "strTeam", v1.SearchTeams},
		{record.Venue, "v", "strVenue", v1.SearchVenues},
	}
	compared, total := 0, 0
	for _, s := range searches {
		needles := []string{"other side", "SAME NAME FC", "same", "Same Ground", "old same ground", "fc", "a", "zzzz"}
		n := 0
		err := e.Store.Scan(ctx, s.kind, func(rec record.Record) error {
			if n++; n%5 == 0 {
				name := rec.Str(s.field)
				words := strings.Fields(name)
				needles = append(needles, name, strings.ToUpper(name), words[0], words[len(words)-1])
				if len(name) > 5 {
					needles = append(needles, name[1:4])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, needle := range needles {
			for _, tier := range []store.Tier{store.Free, store.Premium} {
				for _, limit := range []int{1, 3, 10, 50} {
					q := url.Values{s.param: {needle}}
					want, err := s.run(ctx, viaDB, tier, limit, q)
					if err != nil {
						t.Fatal(err)
					}
					before := ix.ranked
					got, err := s.run(ctx, viaIndex, tier, limit, q)
					if err != nil {
						t.Fatal(err)
					}
					total++
					if ix.ranked > before {
						compared++
					}
					if len(got.Recs) != len(want.Recs) || len(got.Recs) > 0 && !reflect.DeepEqual(got.Recs, want.Recs) {
						t.Fatalf("%s=%q %v cap %d: from seqs %v, from the database %v", s.param, needle, tier, limit, recIDs(got.Recs), recIDs(want.Recs))
					}
				}
			}
		}
	}
	if compared < total*9/10 {
		t.Fatalf("only %d of %d searches were answered from the index's seqs", compared, total)
	}

	moved := &movedOnce{Store: ix.Store}
	q := url.Values{"t": {"other side"}}
	got, err := v1.SearchTeams(ctx, api.Deps{Store: moved}, store.Premium, 10, q)
	if err != nil {
		t.Fatal(err)
	}
	if !moved.moved || strings.Join(recIDs(got.Recs), " ") != "99101 99100 99102" {
		t.Fatalf("after the data moved: %v (moved %v), want 99101 99100 99102", recIDs(got.Recs), moved.moved)
	}
}

func recIDs(recs []record.Record) []string {
	out := make([]string, len(recs))
	for i, rec := range recs {
		out[i], _ = rec.ID()
	}
	return out
}
