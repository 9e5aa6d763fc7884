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
