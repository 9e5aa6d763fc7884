package server

import (
	"context"
	"fmt"
	"testing"

	"sportsdb/internal/record"
)

// Up to maxGets records read by id are kept as such; past that, every one of them depends
// on its whole kind.
func TestReadSetPromotesManyGets(t *testing.T) {
	ctx, rs := withReadSet(context.Background())
	noteGet(ctx, record.Team, "1")
	noteRead(ctx, record.LiveScore)
	mask, gets := rs.done()
	if mask != kindBits[record.LiveScore] || len(gets) != 1 || gets[0] != (recordKey{record.Team, "1"}) {
		t.Fatalf("one get: mask %b gets %v", mask, gets)
	}
	for i := range maxGets {
		noteGet(ctx, record.Event, fmt.Sprint(i))
	}
	mask, gets = rs.done()
	if want := kindBits[record.LiveScore] | kindBits[record.Team] | kindBits[record.Event]; mask != want || gets != nil {
		t.Fatalf("many gets: mask %b gets %v, want mask %b and no gets", mask, gets, want)
	}
}

// An answer older than the records the tracker remembers, which read by id, is stale.
func TestFeedTrackerForgetsOldRecords(t *testing.T) {
	f := &feedTracker{synced: true, version: 1, ids: map[recordKey]int64{}}
	for c := int64(1); c <= maxIDs+1; c++ {
		f.noteID(recordKey{record.Event, fmt.Sprint(c)}, c)
	}
	gets := []recordKey{{record.Team, "1"}}
	if f.unchangedAt(0, gets, 1, 1) {
		t.Error("an answer from before the remembered records is taken as unchanged")
	}
	if !f.unchangedAt(0, gets, maxIDs, 1) || f.unchangedAt(0, []recordKey{{record.Event, fmt.Sprint(maxIDs + 1)}}, maxIDs, 1) {
		t.Error("the remembered records are not told apart")
	}
}
