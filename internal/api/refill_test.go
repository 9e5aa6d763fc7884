package api

import (
	"context"
	"testing"

	"sportsdb/internal/record"
)

// An answer of no records is offered to the request's Refill before it is rendered, and
// computed again, once, in the context the Refill gives when it filled the store; any other
// answer, and one whose Refill added nothing, is computed once.
func TestComputeRefillsEmptyAnswers(t *testing.T) {
	type marker struct{}
	team := record.Team.NewRecord()
	for _, tc := range []struct {
		name          string
		first         Answer
		filled        bool
		wantRefills   int
		wantComputed  int
		wantAgainRecs int
	}{
		{"records", Records([]record.Record{team}), true, 0, 1, 1},
		{"rejected", Reject("bad"), true, 0, 1, 0},
		{"empty body", EmptyBody, true, 0, 1, 0},
		{"no result, filled", None, true, 1, 2, 1},
		{"no result, nothing added", None, false, 1, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refills, computed := 0, 0
			ctx := WithRefill(context.Background(), func(ctx context.Context) context.Context {
				refills++
				if !tc.filled {
					return nil
				}
				return context.WithValue(ctx, marker{}, true)
			})
			ans, err := Compute(ctx, func(ctx context.Context) *Request { return &Request{Ctx: ctx} },
				func(r *Request) (Answer, error) {
					computed++
					if r.Ctx.Value(marker{}) != nil {
						return Records([]record.Record{team}), nil
					}
					return tc.first, nil
				})
			if err != nil || refills != tc.wantRefills || computed != tc.wantComputed || len(ans.Recs) != tc.wantAgainRecs {
				t.Fatalf("refills %d, computed %d, %d records, %v; want %d, %d, %d", refills, computed, len(ans.Recs), err,
					tc.wantRefills, tc.wantComputed, tc.wantAgainRecs)
			}
		})
	}
}
