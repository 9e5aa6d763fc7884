package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// An expired clock-dependent answer is served while one background recomputation runs; the
// next request gets the new answer; an entry twice the TTL old is recomputed inline.
func TestCacheRefreshesClockDependentAnswersAhead(t *testing.T) {
	c := newResponseCache(func(context.Context) (int64, error) { return 1, nil }, defaultCacheBytes)
	c.ttl = 50 * time.Millisecond
	var computed atomic.Int64
	next := func(w http.ResponseWriter, r *http.Request) {
		n := computed.Add(1)
		w.Write([]byte(`{"events":"answer ` + strconv.FormatInt(n, 10) + `"}`))
	}
	tg, _ := parseTarget("/api/v1/json/k/eventsnext.php")
	get := func() string {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/json/k/eventsnext.php?id=1", nil)
		rec := httptest.NewRecorder()
		c.serve(rec, req, tg, store.Premium, next)
		return rec.Body.String()
	}
	if got := get(); got != `{"events":"answer 1"}` {
		t.Fatalf("first: %s", got)
	}
	if got := get(); got != `{"events":"answer 1"}` || computed.Load() != 1 {
		t.Fatalf("within the TTL: %s (computed %d times)", got, computed.Load())
	}
	time.Sleep(60 * time.Millisecond)
	if got := get(); got != `{"events":"answer 1"}` {
		t.Fatalf("expired: the old answer is served while refreshing, got %s", got)
	}
	deadline := time.Now().Add(2 * time.Second)
	for computed.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("no background refresh")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(5 * time.Millisecond)
	if got := get(); got != `{"events":"answer 2"}` {
		t.Fatalf("after the refresh: %s", got)
	}
	time.Sleep(110 * time.Millisecond) // more than twice the TTL
	if got := get(); got != `{"events":"answer 3"}` {
		t.Fatalf("too old to serve: want an inline recomputation, got %s", got)
	}
}
