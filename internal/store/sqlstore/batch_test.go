package sqlstore

import (
	"testing"

	"sportsdb/internal/record"
)

func team(kv ...string) record.Record {
	r := record.Team.NewRecord()
	for i := 0; i+1 < len(kv); i += 2 {
		r.Set(kv[i], record.Str(kv[i+1]))
	}
	return r
}

func TestBatchMergesReplacesAndDrops(t *testing.T) {
	b := NewBatch()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.Add(team("idTeam", "1", "strTeam", "A", "strCountry", "Spain"), false))
	must(b.Add(team("idTeam", "2", "strTeam", "B"), false))
	must(b.Add(team("idTeam", "1", "strTeam", "A2"), true))
	must(b.Add(team("idTeam", "1", "strSport", "Soccer"), false))
	must(b.Add(team("idTeam", "2", "strSport", "Rugby"), false))
	if b.Len() != 2 {
		t.Fatalf("len %d, want 2", b.Len())
	}
	kbs := b.Take()
	if len(kbs) != 1 || len(kbs[0].Entries) != 2 || b.Len() != 0 {
		t.Fatalf("take: %+v", kbs)
	}
	one, two := kbs[0].Entries[0], kbs[0].Entries[1]
	if one.ID != "1" || !one.Replace || one.R.Str("strTeam") != "A2" || one.R.Get("strCountry").Valid || one.R.Str("strSport") != "Soccer" {
		t.Errorf("replace then upsert: %+v", one)
	}
	if two.ID != "2" || two.Replace || two.R.Str("strTeam") != "B" || two.R.Str("strSport") != "Rugby" {
		t.Errorf("upsert twice: %+v", two)
	}
	if ids := kbs[0].StoredIDs(); len(ids) != 1 || ids[0] != "2" {
		t.Errorf("merge ids: %v", ids)
	}
	stored := map[string]string{"2": string(record.EncodeDoc(team("idTeam", "2", "strTeam", "Old", "strCountry", "Wales")))}
	rows, err := kbs[0].Rows(stored)
	must(err)
	merged, err := record.DecodeDoc(record.Team, []byte(rows[1].Doc))
	must(err)
	if merged.Str("strCountry") != "Wales" || merged.Str("strTeam") != "B" {
		t.Errorf("merged into stored: %v", merged)
	}

	must(b.Add(team("idTeam", "3"), false))
	b.Drop(record.Team)
	if b.Len() != 0 || len(b.Take()) != 0 {
		t.Error("drop kept records")
	}
}
