package main

import (
	"testing"
	"time"
)

func TestParseSighting(t *testing.T) {
	cases := []struct {
		event, data string
		want        sighting
		ok          bool
	}{
		{"livescore", `{"idLiveScore":"7","idEvent":"7","intHomeScore":"42","intAwayScore":"0"}`, sighting{kind: "event", id: "7", seq: 42}, true},
		{"team", `{"idTeam":"140041","strTeam":"Chicago","strKeywords":"bench-write 43"}`, sighting{kind: "team", id: "140041", seq: 43}, true},
		{"team", `{"idTeam":"140041","strKeywords":"lions"}`, sighting{}, false},
		{"team", `{"idTeam":"140041","strKeywords":null}`, sighting{}, false},
		{"livescore", `{"idEvent":"7","intHomeScore":null}`, sighting{}, false},
		{"livescore", `{"idEvent":"7\"x","intHomeScore":"1"}`, sighting{}, false},
		{"event", `{"idEvent":"7","intHomeScore":"42"}`, sighting{}, false},
		{"delete", `{"kind":"team","id":"7"}`, sighting{}, false},
	}
	for _, c := range cases {
		got, ok := parseSighting(c.event, []byte(c.data))
		if ok != c.ok || got != c.want {
			t.Errorf("parseSighting(%s, %s) = %+v, %v; want %+v, %v", c.event, c.data, got, ok, c.want, c.ok)
		}
	}
}

func TestArrivals(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	writes := []*writeRec{
		{kind: "event", id: "1", seq: 1},
		{kind: "team", id: "9", seq: 2},
		{kind: "event", id: "1", seq: 3},
		{kind: "event", id: "2", seq: 4},
	}
	seen := [][]sighting{
		{ // each write seen on its own
			{kind: "event", id: "1", seq: 1, at: at(10)},
			{kind: "team", id: "9", seq: 2, at: at(20)},
			{kind: "event", id: "1", seq: 3, at: at(30)},
			{kind: "event", id: "2", seq: 4, at: at(40)},
		},
		{ // event 1 sent once, as it was after its second write: both arrive then; a
			// marker of another record's write does not count
			{kind: "event", id: "1", seq: 2, at: at(5)},
			{kind: "team", id: "9", seq: 2, at: at(15)},
			{kind: "event", id: "1", seq: 3, at: at(50)},
			{kind: "event", id: "2", seq: 4, at: at(35)},
			{kind: "event", id: "2", seq: 4, at: at(60)}, // sent again: the first counts
		},
		{ // write 4 never arrives here
			{kind: "event", id: "1", seq: 3, at: at(25)},
			{kind: "team", id: "9", seq: 2, at: at(25)},
		},
	}
	last, missed := arrivals(writes, seen)
	want := []time.Time{at(25), at(25), at(50), {}}
	for i := range want {
		if !last[i].Equal(want[i]) {
			t.Errorf("write %d arrived everywhere at %v, want %v", i, last[i].Sub(t0), want[i].Sub(t0))
		}
	}
	if missed != 1 {
		t.Errorf("missed %d, want 1", missed)
	}
}

func TestWriteTargets(t *testing.T) {
	list := []line{
		{target: "/api/v1/json/{key}/lookupevent.php?id=11"},
		{target: "/api/v2/json/lookup/team/21"},
		{target: "/api/v1/json/{key}/lookupteam.php?id=22&x=1"},
		{target: "/api/v2/json/lookup/event/11"},
		{target: "/api/v2/json/lookup/event/12"},
		{target: "/api/v2/json/lookup/event/x13"},
		{target: "/api/v2/json/lookup/team/23"},
	}
	events, teams := writeTargets(list, 5, 2)
	if len(events) != 2 || events[0] != "11" || events[1] != "12" {
		t.Errorf("events %v, want [11 12]", events)
	}
	if len(teams) != 2 || teams[0] != "21" || teams[1] != "22" {
		t.Errorf("teams %v, want [21 22]", teams)
	}
}

func TestWritesSummary(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	writes := []*writeRec{
		{kind: "event", id: "1", seq: 1, due: ms(0), sent: ms(0), answd: ms(10), status: 200},
		{kind: "team", id: "9", seq: 2, due: ms(10), sent: ms(12), answd: ms(30), status: 200},
		{kind: "team", id: "9", seq: 3, due: ms(20), sent: ms(30), answd: ms(40), status: 423},
	}
	seen := [][]sighting{{{kind: "event", id: "1", seq: 1, at: ms(5)}, {kind: "team", id: "9", seq: 2, at: ms(130)}}}
	var r writesRun
	r.summarise(writes, seen, time.Second, ms(2000))
	if r.Writes != 3 || r.WriteErrors != 1 || r.WritesPerSec != 2 || r.Missed != 0 {
		t.Errorf("writes %d, errors %d, %v/s, missed %d; want 3, 1, 2/s, 0", r.Writes, r.WriteErrors, r.WritesPerSec, r.Missed)
	}
	// The first arrived before its answer came: 0 from the answer, 5 ms from when it was sent.
	if r.ArrivalP50 != 0 || r.ArrivalMax != 100 || r.ArrivalSentP99 != 118 || r.WriteP99 != 20 {
		t.Errorf("arrival p50 %v, max %v, from sent p99 %v, write p99 %v; want 0, 100, 118, 20", r.ArrivalP50, r.ArrivalMax, r.ArrivalSentP99, r.WriteP99)
	}
	// Writes that fell behind count over the time to the last answer.
	late := []*writeRec{
		{kind: "event", id: "1", seq: 5, due: ms(0), sent: ms(0), answd: ms(1000), status: 200},
		{kind: "event", id: "1", seq: 6, due: ms(500), sent: ms(1000), answd: ms(2000), status: 200},
	}
	var lr writesRun
	lr.summarise(late, nil, time.Second, ms(3000))
	if lr.WritesPerSec != 1 || lr.WriteP99 != 1500 {
		t.Errorf("late writes: %v/s, p99 %v ms; want 1/s, 1500 ms", lr.WritesPerSec, lr.WriteP99)
	}
	// A write not seen on every stream counts as arriving when the streams stopped being read.
	var mr writesRun
	mr.summarise(writes[:1], [][]sighting{nil}, time.Second, ms(510))
	if mr.Missed != 1 || mr.ArrivalMax != 500 {
		t.Errorf("missed write: missed %d, arrival max %v ms; want 1, 500", mr.Missed, mr.ArrivalMax)
	}
	off := []writesRun{{res: result{RPS: 1000}}}
	on := []writesRun{{res: result{RPS: 850}, ArrivalP99: 1200}}
	ts := writesTargets(off, on)
	if ts[0].measured != "0.85" || ts[0].met != "yes" || ts[1].met != "no" || ts[6].met != "yes" {
		t.Errorf("targets %+v", ts)
	}
	// Without the server's CPU, the writes' cost is not measured.
	if ts[4].measured != "not measured" || ts[5].measured != "not measured" {
		t.Errorf("writes' cost without CPU figures: %+v", ts[4:6])
	}
}

func TestAloneProfileIsNamedBesideTheOneWithWrites(t *testing.T) {
	for file, want := range map[string]string{
		"/data/results/writes-demo-20261130T042521Z-sqlite.cpu.pprof": "/data/results/writes-demo-20261130T042521Z-sqlite-alone.cpu.pprof",
		"run.d/profile": "run.d/profile-alone",
	} {
		if got := aloneProfile(file); got != want {
			t.Errorf("aloneProfile(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestWritesCost(t *testing.T) {
	// Alone, 20,000 reads/s at 50 µs each: one core. With 100 writes/s, 12,000 reads/s and
	// 1.5 cores: the reads take 0.6 of it at their cost alone, the writes 0.9, 9 ms each.
	off := []writesRun{{res: result{RPS: 20000}, CPUPerAnswer: 50, ServerCores: 1}, {res: result{RPS: 10000}, CPUPerAnswer: 100, ServerCores: 1}}
	on := []writesRun{{res: result{RPS: 12000}, ServerCores: 1.5, WritesPerSec: 100}, {res: result{RPS: 5000}, ServerCores: 1.2, WritesPerSec: 100}}
	cores, perWrite, ok := writesCost(off, on)
	// The second pair: 1.2 - 5000 × 100 µs = 0.7 cores, 7 ms a write; the mean of both.
	if !ok || cores != 0.8 || perWrite != 8 {
		t.Errorf("writesCost = %v cores, %v ms a write, %v; want 0.8, 8, true", cores, perWrite, ok)
	}
	ts := writesTargets(off, on)
	if ts[4].measured != "0.80" || ts[5].measured != "8.0" {
		t.Errorf("writes' cost in the targets: %+v", ts[4:6])
	}
	// A pair without the server's CPU counts for nothing.
	if _, _, ok := writesCost(off[:1], []writesRun{{res: result{RPS: 12000}, WritesPerSec: 100}}); ok {
		t.Error("writesCost measured a pair without the server's CPU")
	}
}
