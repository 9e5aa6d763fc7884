package server_test

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"sportsdb/internal/record"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// Answers are written from the stored docs' bytes. A doc damaged on disk is not written out
// as it is, and does not stop the server: an answer that holds it is the documented 503,
// logged with the record's kind and without its content; other answers are unaffected.
func TestDamagedStoredDoc(t *testing.T) {
	var logs bytes.Buffer
	c := newConfigured(t, func(cfg *server.Config) {
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	ctx := context.Background()
	err := c.store.Write(ctx, func(tx store.Tx) error {
		for _, id := range []string{"1", "2", "3"} {
			r := record.Team.NewRecord()
			r.Set("idTeam", record.Str(id))
			r.Set("strTeam", record.Str("Team/"+id))
			r.Set("idLeague", record.Str("4328"))
			if err := tx.Upsert(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const remote = "192.0.2.1:1"
	good := c.get("/api/v1/json/123/lookupteam.php?id=1", remote)
	if good.Code != http.StatusOK || !strings.Contains(good.Body.String(), `"strTeam":"Team\/1","strTeamAlternate":null,`) {
		t.Fatalf("before: %d %s", good.Code, good.Body)
	}

	db, err := sql.Open("sqlite", c.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE team SET doc = '{"idTeam":"2","strTeam":"secret' WHERE id = '2'`); err != nil {
		t.Fatal(err)
	}
	if err := c.store.Write(ctx, func(tx store.Tx) error { return nil }); err != nil {
		t.Fatal(err) // a new data version: no answer from before the damage is reused
	}
	for _, path := range []string{
		"/api/v1/json/123/lookup_all_teams.php?id=4328",
		"/api/v1/json/123/lookupteam.php?id=2",
		"/api/v2/json/list/teams/4328",
	} {
		w := c.get(path, remote, "X-API-KEY", c.premiumKey)
		if w.Code != http.StatusServiceUnavailable || w.Body.String() != `{"Message":"Service unavailable"}` {
			t.Errorf("%s: %d %s, want 503 and the documented body", path, w.Code, w.Body)
		}
	}
	if l := logs.String(); !strings.Contains(l, "decode team doc") || strings.Contains(l, "secret") || strings.Contains(l, "panic") {
		t.Errorf("log: %s", l)
	}
	if w := c.get("/api/v1/json/123/lookupteam.php?id=3", remote); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"strTeam":"Team\/3"`) {
		t.Errorf("undamaged record: %d %s", w.Code, w.Body)
	}
}
