package live

import (
	"testing"

	"sportsdb/internal/record"
)

// The hub keeps the last windowSize events; a stream at a cursor before them is behind and
// reads the store, one inside gets exactly the events after its cursor.
func TestHubWindow(t *testing.T) {
	h := NewHub(Renderer{}, nil, nil)
	h.gen = 1
	var evs []Event
	for c := int64(1); c <= windowSize+100; c++ {
		evs = append(evs, Event{Cursor: c, Kind: record.Team, ID: "1"})
	}
	wait := h.after(0).wait
	h.publish(1, evs, windowSize+100)
	select {
	case <-wait:
	default:
		t.Fatal("publish did not wake the waiting streams")
	}
	if v := h.after(50); !v.behind {
		t.Errorf("a cursor before the window (50) is not behind")
	}
	v := h.after(windowSize + 90)
	if v.behind || len(v.events) != 10 || v.events[0].Cursor != windowSize+91 || v.head != windowSize+100 {
		t.Errorf("after %d: behind %v, %d events from %d, head %d; want 10 from %d", windowSize+90,
			v.behind, len(v.events), v.events[0].Cursor, v.head, windowSize+91)
	}
	if v := h.after(100); v.behind || len(v.events) != windowSize {
		t.Errorf("at the window's start: behind %v, %d events; want all %d", v.behind, len(v.events), windowSize)
	}
	h.publish(2, []Event{{Cursor: windowSize + 101}}, windowSize+101) // a stopped watcher
	if h.cursor() != windowSize+100 {
		t.Errorf("a stopped watcher moved the head to %d", h.cursor())
	}
}

// Filters keep the kinds asked for, and the sport asked for except on deletes.
func TestFilter(t *testing.T) {
	f := Filter{Kinds: []*record.Kind{record.LiveScore}, Sport: "soccer", Name: "livescore"}
	cases := []struct {
		ev   Event
		keep bool
		name string
	}{
		{Event{Kind: record.LiveScore, Op: "upsert", Sport: "soccer"}, true, "livescore"},
		{Event{Kind: record.LiveScore, Op: "upsert", Sport: "basketball"}, false, ""},
		{Event{Kind: record.LiveScore, Op: "delete"}, true, "delete"},
		{Event{Kind: record.Event, Op: "upsert", Sport: "soccer"}, false, ""},
	}
	for i, tc := range cases {
		if got := f.keep(tc.ev); got != tc.keep || (got && f.name(tc.ev) != tc.name) {
			t.Errorf("case %d: keep %v name %q; want %v %q", i, got, f.name(tc.ev), tc.keep, tc.name)
		}
	}
	if got := (Filter{}).name(Event{Kind: record.Team, Op: "upsert"}); got != "team" {
		t.Errorf("changes stream names a team upsert %q, want team", got)
	}
}
