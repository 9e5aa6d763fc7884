package window

import (
	"fmt"
	"hash/maphash"
	"testing"
	"time"
)

const sec = int64(time.Second)

// A ring takes memory for the events in its window, not for its limit.
func TestRingGrowsWithUse(t *testing.T) {
	l := New(Options{Window: time.Minute})
	for range 100 {
		if c := l.Add("k", 1_000_000, 0, false); !c.Added {
			t.Fatal("refused under the limit")
		}
	}
	sh := &l.shards[maphash.String(l.seed, "k")%shards]
	if n := len(sh.rings["k"].times); n < 100 || n > 256 {
		t.Fatalf("100 events under a limit of a million hold %d slots", n)
	}
}

// Add refuses an event past the limit until the oldest leaves the window; forced, the event
// counts and the oldest drops out.
func TestAddAndForce(t *testing.T) {
	l := New(Options{Window: time.Minute})
	for i := range int64(3) {
		if c := l.Add("k", 3, i*sec, false); !c.Added || c.N != int(i)+1 || c.Oldest != 0 {
			t.Fatalf("event %d: %+v", i, c)
		}
	}
	if c := l.Add("k", 3, 10*sec, false); c.Added || c.N != 3 || c.Oldest != 0 {
		t.Fatalf("over the limit: %+v", c)
	}
	if c := l.Add("k", 3, 10*sec, true); !c.Added || c.N != 3 || c.Oldest != sec {
		t.Fatalf("forced: %+v, want the oldest at 1s", c)
	}
	if c := l.Peek("k", 61*sec); c.N != 2 || c.Oldest != 2*sec {
		t.Fatalf("at 61s: %+v, want the events of 2s and 10s", c)
	}
	if c := l.Add("k", 3, 62*sec, false); !c.Added || c.N != 2 || c.Oldest != 10*sec {
		t.Fatalf("at 62s: %+v", c)
	}
	if c := l.Peek("other", 0); c != (Count{}) {
		t.Fatalf("an unknown id: %+v", c)
	}
}

// Each gives the events still in the window, oldest first.
func TestEach(t *testing.T) {
	l := New(Options{Window: time.Minute})
	l.Add("a", 5, 0, false)
	l.Add("a", 5, 30*sec, false)
	l.Add("a", 5, 40*sec, false)
	l.Add("b", 5, 0, false)
	got := map[string][]int64{}
	l.Each(70*sec, func(id string, times []int64) { got[id] = append([]int64(nil), times...) })
	if len(got) != 1 || fmt.Sprint(got["a"]) != fmt.Sprint([]int64{30 * sec, 40 * sec}) {
		t.Fatalf("Each at 70s: %v", got)
	}
}

// A bounded Log forgets ids beyond its bound; an unbounded one forgets only idle ids.
func TestBoundAndIdle(t *testing.T) {
	bounded := New(Options{Window: time.Minute, MaxIDs: 640})
	for i := range 10000 {
		bounded.Add(fmt.Sprint(i), 5, 0, true)
	}
	if n := bounded.Len(); n > 640 {
		t.Fatalf("remembers %d ids, bound 640", n)
	}
	free := New(Options{Window: time.Minute})
	for i := range 1000 {
		free.Add(fmt.Sprint("old", i), 5, 0, false)
	}
	for i := range 1000 {
		free.Add(fmt.Sprint("new", i), 5, 2*60*sec, false)
	}
	if n := free.Len(); n != 1000 {
		t.Fatalf("after an idle window remembers %d ids, want the 1000 active ones", n)
	}
}
