package webhooks

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// countingRecords answers Get with one live score entry, counting the reads; fail makes the
// next read fail.
type countingRecords struct {
	store.Records
	gets atomic.Int64
	fail atomic.Bool
}

func (c *countingRecords) Get(_ context.Context, k *record.Kind, id string) (record.Record, error) {
	c.gets.Add(1)
	if c.fail.CompareAndSwap(true, false) {
		return record.Record{}, errors.New("the database is away")
	}
	r := k.NewRecord()
	r.Set("idLiveScore", record.Str(id))
	r.Set("intHomeScore", record.Str("2"))
	return r, nil
}

// Every webhook that delivers a change gets the same message from one read of its record;
// a read that failed is not kept, and the next asks the store again.
func TestChangeReadsShareOneRead(t *testing.T) {
	st := &countingRecords{}
	reads := newChangeReads(st, nil)
	c := store.Change{Cursor: 42, Kind: record.LiveScore, ID: "7", Op: store.OpUpsert}
	bodies := make([][]byte, 50)
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Go(func() {
			_, body, err := reads.read(context.Background(), c, false)
			if err != nil {
				t.Error(err)
			}
			bodies[i] = body
		})
	}
	wg.Wait()
	if n := st.gets.Load(); n != 1 {
		t.Errorf("50 webhooks read the record %d times, want once", n)
	}
	for i, b := range bodies {
		if string(b) != string(bodies[0]) || len(b) == 0 {
			t.Fatalf("webhook %d got %q, the first %q", i, b, bodies[0])
		}
	}

	st.fail.Store(true)
	c2 := store.Change{Cursor: 43, Kind: record.LiveScore, ID: "8", Op: store.OpUpsert}
	if _, _, err := reads.read(context.Background(), c2, false); err == nil {
		t.Fatal("a failed read gave no error")
	}
	if _, body, err := reads.read(context.Background(), c2, false); err != nil || len(body) == 0 {
		t.Fatalf("the read after a failure: %q, %v; want the message", body, err)
	}
	if n := st.gets.Load(); n != 3 {
		t.Errorf("%d reads after a failed one, want the store asked again (3 in all)", n)
	}
}
