package records_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

type historyAnswer struct {
	History []struct {
		Cursor, Op, Time, By string
		Record               map[string]any
	}
}

func (e *env) history(t *testing.T, path, key string) historyAnswer {
	t.Helper()
	r := e.Get(t, path+"/history", "X-API-KEY", key)
	want(t, "history", r, 200, "")
	var h historyAnswer
	if err := json.Unmarshal(r.Body, &h); err != nil {
		t.Fatalf("history: %v %s", err, r.Body)
	}
	return h
}

// A record's history lists its changes newest first, each with who wrote it and the record
// as it left it (null for a delete), whichever write made it: PUT, PATCH, DELETE, a batch.
// It never shows a key.
func TestHistory(t *testing.T) {
	e := newEnv(t)
	want(t, "create", e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"Riverside FC","strCountry":"England"}`), 201, "")
	want(t, "patch", e.send(t, "PATCH", teamPath, e.editor, `{"strCountry":"Wales"}`), 200, "")
	want(t, "delete", e.send(t, "DELETE", teamPath, e.admin, ``), 204, "")
	want(t, "batch", e.send(t, "POST", batchPath, e.editor, `{"idTeam":"9000001","strTeam":"Riverside AFC"}`, "Content-Type", "application/x-ndjson"), 200, "")
	r := e.Get(t, teamPath+"/history", "X-API-KEY", e.PremiumKey)
	want(t, "history", r, 200, "")
	if strings.Contains(string(r.Body), e.editor) || strings.Contains(string(r.Body), e.admin) {
		t.Fatalf("the history shows a key: %s", r.Body)
	}
	if !strings.HasPrefix(string(r.Body), `{"history":[{"cursor":"`) {
		t.Fatalf("history: %s", r.Body)
	}
	h := e.history(t, teamPath, e.PremiumKey)
	type step struct{ op, team, country string }
	wantSteps := []step{{"upsert", "Riverside AFC", ""}, {"delete", "", ""}, {"upsert", "Riverside FC", "Wales"}, {"upsert", "Riverside FC", "England"}}
	if len(h.History) != len(wantSteps) {
		t.Fatalf("%d changes, want %d: %+v", len(h.History), len(wantSteps), h)
	}
	for i, w := range wantSteps {
		c := h.History[i]
		if c.Op != w.op || c.By != "test" || len(c.Time) != len("2026-10-05 20:06:00") {
			t.Errorf("change %d: %+v, want %s by test", i, c, w.op)
		}
		if i > 0 && c.Cursor >= h.History[i-1].Cursor && len(c.Cursor) == len(h.History[i-1].Cursor) {
			t.Errorf("change %d: cursor %s not older than %s", i, c.Cursor, h.History[i-1].Cursor)
		}
		switch {
		case w.op == "delete" && c.Record != nil:
			t.Errorf("change %d, a delete, shows a record: %v", i, c.Record)
		case w.op == "upsert" && (c.Record["strTeam"] != w.team || c.Record["idTeam"] != "9000001" ||
			w.country != "" && c.Record["strCountry"] != w.country || w.country == "" && c.Record["strCountry"] != nil):
			t.Errorf("change %d: record %v, want %+v", i, c.Record, w)
		}
	}
	if feed := string(e.V2(t, "changes?kinds=team").Body); strings.Count(feed, `"op":`) != 4 {
		t.Fatalf("the feed and the history disagree: %s", feed)
	}
}

// Keys as GET: a free key without a role is refused, an editor's free key reads it; a record
// that has neither a change nor a value is 404; a path of another form is no history.
func TestHistoryKeysAndPaths(t *testing.T) {
	e := newEnv(t)
	want(t, "create", e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"A"}`), 201, "")
	want(t, "free key", e.Get(t, teamPath+"/history", "X-API-KEY", e.FreeKey), 400, `{"Message":"Premium API key required"}`)
	want(t, "no key", e.Get(t, teamPath+"/history"), 400, "")
	if h := e.history(t, "/api/v2/json/"+e.admin+"/records/team/9000001", e.admin); len(h.History) != 1 {
		t.Fatalf("admin's free key, key in the path: %+v", h)
	}
	want(t, "nothing", e.Get(t, "/api/v2/json/records/team/9000009/history", "X-API-KEY", e.editor), 404, `{"Message":"Not found"}`)
	want(t, "bad id", e.Get(t, "/api/v2/json/records/team/%00/history", "X-API-KEY", e.editor), 404, `{"Message":"Not found"}`)
	want(t, "unknown kind", e.Get(t, "/api/v2/json/records/teams/1/history", "X-API-KEY", e.editor), 404, `{"Message":"Not found"}`)
	want(t, "write", e.send(t, "PUT", teamPath+"/history", e.editor, `{}`), 405, `{"Message":"Method not allowed"}`)
	want(t, "other segment", e.Get(t, teamPath+"/versions", "X-API-KEY", e.editor), 404, "")
}

// An import's changes keep no copy of the record: its newest change shows the stored record,
// an older one null. Changes past the feed's retention leave the history with it.
func TestHistoryOfImportsAndRetention(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	now := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
	e.Store.SetFeedOptions(store.FeedOptions{Retention: time.Hour, Now: func() time.Time { return now }})
	importTeam := func(body string) {
		t.Helper()
		err := e.Store.Write(ctx, func(tx store.Tx) error {
			store.SetBy(tx, ingest.By)
			_, err := ingest.ReadBody(ctx, tx, strings.NewReader(body), true, ingest.Handlers{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	importTeam(`{"idTeam":"9000001","strTeam":"Imported"}`)
	h := e.history(t, teamPath, e.editor)
	if len(h.History) != 1 || h.History[0].By != "import" || h.History[0].Record["strTeam"] != "Imported" {
		t.Fatalf("after an import: %+v", h)
	}
	want(t, "patch", e.send(t, "PATCH", teamPath, e.editor, `{"strTeam":"Edited"}`), 200, "")
	h = e.history(t, teamPath, e.editor)
	if len(h.History) != 2 || h.History[0].Record["strTeam"] != "Edited" || h.History[1].By != "import" || h.History[1].Record != nil {
		t.Fatalf("after an edit of an imported record: %+v", h)
	}
	now = now.Add(2 * time.Hour) // the next write prunes both changes
	want(t, "another record", e.send(t, "PUT", "/api/v2/json/records/team/9000002", e.editor, `{"strTeam":"B"}`), 201, "")
	if h = e.history(t, teamPath, e.editor); len(h.History) != 0 {
		t.Fatalf("past the retention: %+v", h)
	}
	if _, err := e.Store.Get(ctx, record.Team, "9000001"); err != nil {
		t.Fatal(err)
	}
}
