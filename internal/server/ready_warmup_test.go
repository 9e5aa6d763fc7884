package server_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	"sportsdb/internal/app"
	"sportsdb/internal/record"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// heldWarming is a store that says when its in-memory build has ended (warmed closes), and
// holds every Find and Get until release closes, telling when the first one came (entered).
type heldWarming struct {
	store.Store
	warmed, entered, release chan struct{}
	once                     sync.Once
}

func (h *heldWarming) Warmed() <-chan struct{} { return h.warmed }

func (h *heldWarming) hold(ctx context.Context) error {
	h.once.Do(func() { close(h.entered) })
	select {
	case <-h.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *heldWarming) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	if err := h.hold(ctx); err != nil {
		return nil, err
	}
	return h.Store.Find(ctx, q)
}

func (h *heldWarming) Get(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	if err := h.hold(ctx); err != nil {
		return record.Record{}, err
	}
	return h.Store.Get(ctx, k, id)
}

// A server with a warm-up is not ready while its store builds, nor while its warm-up answers
// are under way (held here in the store): /readyz says 503 "starting". Once they are done it
// says ready.
func TestReadyWaitsForTheWarmUp(t *testing.T) {
	h := &heldWarming{warmed: make(chan struct{}), entered: make(chan struct{}), release: make(chan struct{})}
	c := newConfigured(t, func(cfg *server.Config) {
		h.Store, cfg.Store, cfg.WarmUp = cfg.Store, h, true
		cfg.Mounts = app.Mounts(api.Deps{Store: h, Clock: cfg.Clock, Caps: caps.New()})
	})
	ready := func(when string, want int) {
		t.Helper()
		r := c.get("/readyz", "192.0.2.1:1")
		status := `"status":"ready"`
		if want != 200 {
			status = `"status":"starting"`
		}
		if r.Code != want || !strings.Contains(r.Body.String(), status) {
			t.Fatalf("/readyz %s: %d %s, want %d %s", when, r.Code, r.Body, want, status)
		}
	}
	ready("while the store builds", 503)
	close(h.warmed)
	select {
	case <-h.entered:
	case <-time.After(wait):
		t.Fatal("no warm-up reached the store once it had warmed")
	}
	ready("while the warm-up is under way", 503)
	close(h.release)
	select {
	case <-c.srv.WarmedUp():
	case <-time.After(wait):
		t.Fatal("the warm-up did not end")
	}
	ready("after the warm-up", 200)
}

// seenStore records the ids a store was asked for and the values its queries compared.
type seenStore struct {
	store.Store
	mu   sync.Mutex
	seen []string
}

func (s *seenStore) note(v string) {
	s.mu.Lock()
	s.seen = append(s.seen, v)
	s.mu.Unlock()
}

func (s *seenStore) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	var note func([]store.Cond)
	note = func(cs []store.Cond) {
		for _, c := range cs {
			s.note(q.Kind.Name + " " + c.Field + " " + c.Value)
			note(c.Or)
		}
	}
	note(q.Where)
	return s.Store.Find(ctx, q)
}

func (s *seenStore) Get(ctx context.Context, k *record.Kind, id string) (record.Record, error) {
	s.note(k.Name + " id " + id)
	return s.Store.Get(ctx, k, id)
}

func (s *seenStore) asked() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.seen, "\n")
}

// The warm-up asks for the store's own records, not the demo's: on a league's own data it
// looks its team up by id and searches its team's and player's names.
func TestWarmUpAsksForTheStoresOwnRecords(t *testing.T) {
	seen := &seenStore{}
	c := newConfigured(t, func(cfg *server.Config) {
		ctx := context.Background()
		docs := []struct {
			k   *record.Kind
			doc string
		}{
			{record.League, `{"idLeague":"990001","strLeague":"Valley Sunday League","strSport":"Soccer","strCurrentSeason":"2026"}`},
			{record.Team, `{"idTeam":"990101","strTeam":"Riverside Rovers","idLeague":"990001"}`},
			{record.Player, `{"idPlayer":"990201","strPlayer":"Ada Quill","idTeam":"990101"}`},
		}
		err := cfg.Store.Write(ctx, func(tx store.Tx) error {
			for _, d := range docs {
				r, err := record.DecodeDocString(d.k, d.doc)
				if err != nil {
					return err
				}
				if err := tx.Upsert(ctx, r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		seen.Store, cfg.Store, cfg.WarmUp = cfg.Store, seen, true
		cfg.Mounts = app.Mounts(api.Deps{Store: seen, Clock: cfg.Clock, Caps: caps.New()})
	})
	select {
	case <-c.srv.WarmedUp():
	case <-time.After(wait):
		t.Fatal("the warm-up did not end")
	}
	asked := seen.asked()
	for _, want := range []string{"team id 990101", "riverside rovers", "ada quill", "990001"} {
		if !strings.Contains(strings.ToLower(asked), want) {
			t.Errorf("the warm-up never asked the store for %q; it asked:\n%s", want, asked)
		}
	}
	if strings.Contains(asked, "133604") {
		t.Errorf("the warm-up asked for the demo's team 133604 on a store without it")
	}
}
