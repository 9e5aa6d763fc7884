package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

func testKeys(t *testing.T, s store.Store) {
	ctx := context.Background()
	// Microseconds: the finest time both databases keep.
	base := time.Date(2026, 10, 5, 12, 0, 0, 123456000, time.UTC)
	newer := store.Key{Hash: "bbbb", Tier: store.Premium, Role: store.Editor, Label: "newer", Created: base.Add(time.Hour)}
	older := store.Key{Hash: "aaaa", Tier: store.Free, Label: "", Created: base}
	for _, k := range []store.Key{newer, older} {
		if err := s.AddKey(ctx, k); err != nil {
			t.Fatalf("add key: %v", err)
		}
	}
	if err := s.AddKey(ctx, store.Key{Hash: "aaaa", Tier: store.Business, Created: base}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("add existing hash: got %v, want ErrConflict", err)
	}
	got, err := s.KeyByHash(ctx, "bbbb")
	if err != nil {
		t.Fatal(err)
	}
	if !sameKey(got, newer) {
		t.Errorf("key by hash: got %+v, want %+v", got, newer)
	}
	if _, err := s.KeyByHash(ctx, "cccc"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown hash: got %v, want ErrNotFound", err)
	}
	list, err := s.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || !sameKey(list[0], older) || !sameKey(list[1], newer) {
		t.Errorf("list keys, oldest first: %+v", list)
	}
	at := base.Add(2 * time.Hour)
	if err := s.RevokeKey(ctx, "aaaa", at); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeKey(ctx, "cccc", at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("revoke unknown: got %v, want ErrNotFound", err)
	}
	got, err = s.KeyByHash(ctx, "aaaa")
	if err != nil {
		t.Fatalf("revoked key must still be found: %v", err)
	}
	if got.Revoked == nil || !got.Revoked.Equal(at) {
		t.Errorf("revoked at: got %v, want %v", got.Revoked, at)
	}
	if err := s.AddKey(ctx, store.Key{Hash: "dddd", Tier: "gold", Created: base}); err == nil {
		t.Error("unknown tier accepted")
	}
	if err := s.AddKey(ctx, store.Key{Hash: "dddd", Tier: store.Free, Role: "owner", Created: base}); err == nil {
		t.Error("unknown role accepted")
	}
	admin := store.Key{Hash: "eeee", Tier: store.Business, Role: store.Admin, Created: base.Add(3 * time.Hour)}
	if err := s.AddKey(ctx, admin); err != nil {
		t.Fatal(err)
	}
	if got, err := s.KeyByHash(ctx, "eeee"); err != nil || !sameKey(got, admin) {
		t.Errorf("admin key: got %+v, %v", got, err)
	}
	testKeysSameInstant(t, s, base.Add(-time.Hour))
}

// Keys created in the same instant are listed by hash, whatever order they were added in, on
// both databases.
func testKeysSameInstant(t *testing.T, s store.Store, at time.Time) {
	ctx := context.Background()
	for _, h := range []string{"zz02", "zz01", "zz03"} {
		if err := s.AddKey(ctx, store.Key{Hash: h, Tier: store.Free, Created: at}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range list {
		if k.Created.Equal(at) {
			got = append(got, k.Hash)
		}
	}
	if fmt.Sprint(got) != "[zz01 zz02 zz03]" {
		t.Errorf("keys created in one instant, listed: %v, want them by hash [zz01 zz02 zz03]", got)
	}
	if len(list) == 0 || !list[0].Created.Equal(at) {
		t.Errorf("the oldest keys must come first: %+v", list)
	}
}

func sameKey(a, b store.Key) bool {
	if a.Hash != b.Hash || a.Tier != b.Tier || a.Role != b.Role || a.Label != b.Label || !a.Created.Equal(b.Created) {
		return false
	}
	if (a.Revoked == nil) != (b.Revoked == nil) {
		return false
	}
	return a.Revoked == nil || a.Revoked.Equal(*b.Revoked)
}

// Reads go on while a write is open, see only committed records, and see the write once it
// commits.
func testConcurrentReads(t *testing.T, s store.Store) {
	put(t, s, teams()...)
	inWrite, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Write(context.Background(), func(tx store.Tx) error {
			for i := range 500 {
				r := Rec(record.Team, "idTeam", fmt.Sprint(100+i), "strTeam", fmt.Sprint("Pending ", i))
				if err := tx.Upsert(context.Background(), r); err != nil {
					return err
				}
			}
			close(inWrite)
			<-release
			return nil
		})
	}()
	select {
	case <-inWrite:
	case err := <-done:
		t.Fatalf("write ended early: %v", err)
	}
	// A deadline turns a read blocked by the writer into a failure instead of a hung test.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 20 {
				recs, err := s.Find(ctx, store.Query{Kind: record.Team, Where: []store.Cond{op("strTeam", record.Name, store.Prefix, "pending")}})
				if err != nil {
					errs <- err
					return
				}
				if len(recs) != 0 {
					errs <- fmt.Errorf("read saw %d uncommitted records", len(recs))
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, record.Team); n != 506 {
		t.Errorf("count after commit: %d, want 506", n)
	}
}
