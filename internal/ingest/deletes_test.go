package ingest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// An NDJSON import deletes the records its delete lines name, where they stand: a record
// written earlier in the same run too.
func TestImportDeleteLines(t *testing.T) {
	st := openStore(t)
	dir := t.TempDir()
	mustImport(t, st, []string{writeFile(t, dir, "a.ndjson",
		`{"idTeam":"133604","strTeam":"Arsenal"}`+"\n"+`{"idTeam":"133612","strTeam":"Chelsea"}`+"\n")}, Options{})
	sum := mustImport(t, st, []string{writeFile(t, dir, "b.ndjson",
		`{"idTeam":"133615","strTeam":"Fulham"}`+"\n"+
			` { "delete" : {"kind":"team","id":"133604"}}`+"\n"+
			`{"delete":{"kind":"team","id":"133615"}}`+"\n"+
			`{"idTeam":"133616","strTeam":"Brentford"}`)}, Options{})
	if sum.Records != 2 || sum.Deleted != 2 {
		t.Errorf("summary %+v, want 2 records and 2 deletes", sum)
	}
	if !strings.Contains(sum.String(), "deleted 2 records") {
		t.Errorf("summary line %q does not say what was deleted", sum.String())
	}
	for id, want := range map[string]bool{"133604": false, "133612": true, "133615": false, "133616": true} {
		_, err := st.Get(context.Background(), record.Team, id)
		if got := err == nil; got != want {
			t.Errorf("team %s stored: %v, want %v (err %v)", id, got, want, err)
		}
	}
	changes, _, err := st.Changes(context.Background(), store.FromOldest, nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	var deletes int
	for _, c := range changes {
		if c.Op == store.OpDelete {
			deletes++
			if c.By != By {
				t.Errorf("delete change by %q, want %q", c.By, By)
			}
		}
	}
	if deletes != 2 {
		t.Errorf("%d delete changes, want 2: %+v", deletes, changes)
	}
}

// A delete line whose record is not stored, or that is not one, fails the run, naming the
// line, and nothing of the run is kept.
func TestImportDeleteLineErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"delete":{"kind":"team","id":"999"}}`, `line 2: delete team "999": no such record is stored`},
		{`{"delete":{"kind":"nope","id":"1"}}`, `line 2: a delete line names kind "nope"`},
		{`{"delete":{"kind":"team"}}`, `line 2: a delete line must be`},
		{`{"delete":{"kind":"team","id":1}}`, `line 2: a delete line must be`},
		{`{"delete":{"kind":"team","id":"1","x":2}}`, `line 2: a delete line must be`},
		{`{"delete":{"kind":"team","id":"1"}} {}`, `line 2: invalid JSON`},
		{`{"delete":{"kind":"team",`, `line 2: invalid JSON in a delete line`},
	} {
		t.Run(tc.line, func(t *testing.T) {
			st := openStore(t)
			dir := t.TempDir()
			mustImport(t, st, []string{writeFile(t, dir, "a.ndjson", `{"idTeam":"1","strTeam":"A"}`)}, Options{})
			_, err := Import(context.Background(), st, []string{writeFile(t, dir, "b.ndjson",
				`{"idTeam":"2","strTeam":"B"}`+"\n"+tc.line+"\n")}, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one with %q", err, tc.want)
			}
			if _, err := st.Get(context.Background(), record.Team, "2"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the failed run kept team 2 (err %v)", err)
			}
			if _, err := st.Get(context.Background(), record.Team, "1"); err != nil {
				t.Errorf("team 1: %v", err)
			}
		})
	}
}

// readDeletes reads NDJSON through the real reading path with a buffer of bufSize (0: the
// usual one), fed chunk bytes at a time, and lists the records and deletes in order.
func readDeletes(body string, bufSize, chunk int) ([]string, error) {
	sum := newSummary()
	imp := newImporter(&sum, newProgress(nil, ""))
	if bufSize > 0 {
		imp.r.buf = make([]byte, bufSize)
	}
	var seen []string
	imp.h = Handlers{
		Upsert: func(_ context.Context, _ store.Tx, r record.Record) error {
			id, _ := r.ID()
			seen = append(seen, r.Kind.Name+" "+id)
			return nil
		},
		Delete: func(_ context.Context, _ store.Tx, k *record.Kind, id string) error {
			seen = append(seen, "delete "+k.Name+" "+id)
			return nil
		},
	}
	err := imp.read(context.Background(), &collectTx{}, "f.ndjson", chunkReader{strings.NewReader(body), chunk}, "")
	return seen, err
}

// Delete lines are read where they stand whatever the reads cut them into.
func TestDeleteLinesAcrossReads(t *testing.T) {
	body := `{"idTeam":"1","strTeam":"A"}` + "\n" + `{"delete":{"kind":"team","id":"1"}}` + "\r\n\n" +
		` {"delete" :{"id":"2","kind":"event"}}` + "\n" + `{"idTeam":"3"}` + "\n" + `{"delete":{"kind":"player","id":"4"}}`
	want := "team 1,delete team 1,delete event 2,team 3,delete player 4"
	for _, size := range []struct{ buf, chunk int }{{0, 1 << 20}, {3, 3}, {8, 1}, {16, 7}} {
		seen, err := readDeletes(body, size.buf, size.chunk)
		if err != nil || strings.Join(seen, ",") != want {
			t.Errorf("buffer %d, reads of %d: %q %v, want %q", size.buf, size.chunk, seen, err, want)
		}
	}
}

// Whatever the bytes of an NDJSON body, reading them gives records, deletes or an error,
// never a panic, and the same with reads cut small.
func FuzzDeleteLines(f *testing.F) {
	f.Add(`{"idTeam":"1"}` + "\n" + `{"delete":{"kind":"team","id":"1"}}`)
	f.Add(`{"delete":{"kind":"team","id":"1"},"x":[]}` + "\n{\"del")
	f.Add(`{ "delete":{"kind":"season","id":"1|2026"}}` + "\n" + `{"delete":null}`)
	f.Fuzz(func(t *testing.T, body string) {
		a, errA := readDeletes(body, 0, 1<<20)
		b, errB := readDeletes(body, 5, 3)
		if (errA == nil) != (errB == nil) || strings.Join(a, ",") != strings.Join(b, ",") {
			t.Fatalf("%q: %q %v against reads cut small %q %v", body, a, errA, b, errB)
		}
	})
}
