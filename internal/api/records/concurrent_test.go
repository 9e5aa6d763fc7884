package records_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
)

// Editors on two replicas of one database add one to a count each, as a scorekeeper's page
// does: read the record and its ETag, PATCH with If-Match, read again on a 412. No increment
// is lost: the check and the write are one transaction, held against every other writer of
// the record (on PostgreSQL, two servers with connections of their own).
func TestConcurrentEditorsLoseNoUpdate(t *testing.T) {
	e := newEnv(t)
	replicas := []*apitest.Env{e.Env, e.Replica(t)}
	want(t, "create", e.send(t, "PUT", teamPath, e.editor, `{"strTeam":"Riverside FC","intLoved":"0"}`), 201, "")
	const writers, each = 4, 6
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; {
				srv := replicas[(w+i)%2]
				g := srv.Get(t, teamPath, "X-API-KEY", e.editor)
				var got struct{ Record struct{ IntLoved string } }
				if err := json.Unmarshal(g.Body, &got); err != nil || g.Status != 200 {
					errs <- fmt.Errorf("get: %d %s", g.Status, g.Body)
					return
				}
				n, _ := strconv.Atoi(got.Record.IntLoved)
				body := fmt.Sprintf(`{"intLoved":"%d"}`, n+1)
				r := srv.Send(t, "PATCH", teamPath, strings.NewReader(body), "X-API-KEY", e.editor,
					"Content-Type", "application/json", "If-Match", g.Header.Get("ETag"))
				switch r.Status {
				case 200:
					i++
				case 412:
				default:
					errs <- fmt.Errorf("patch: %d %s", r.Status, r.Body)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	g := e.Get(t, teamPath, "X-API-KEY", e.editor)
	if !strings.Contains(string(g.Body), fmt.Sprintf(`"intLoved":"%d"`, writers*each)) {
		t.Fatalf("after %d increments: %s", writers*each, g.Body)
	}
}

// Writes count against the key's rate limit, refused ones too.
func TestWritesCountAgainstTheLimit(t *testing.T) {
	e := apitest.New(t, apitest.Options{Limiter: ratelimit.NewMemory(clock.System{}),
		Limits: map[store.Tier]int{store.Free: 2, store.Premium: 2, store.Business: 2}})
	editor := e.AddKey(t, store.Business, store.Editor)
	for i, status := range []int{201, 200, 429} {
		r := e.Send(t, "PUT", teamPath, strings.NewReader(`{"strTeam":"A"}`), "X-API-KEY", editor, "Content-Type", "application/json")
		if r.Status != status {
			t.Fatalf("write %d: %d %s, want %d", i+1, r.Status, r.Body, status)
		}
		if r.Header.Get("X-RateLimit-Limit") != "2" {
			t.Fatalf("write %d: no rate limit headers: %v", i+1, r.Header)
		}
	}
}
