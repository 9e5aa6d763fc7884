package api

import "context"

// Refill is asked, before an answer of no records is rendered, whether the store may now
// hold what it lacked (read-through asks an upstream and stores its answer): it returns the
// context to compute the answer again in, or nil to render the answer as it is. The answer
// is rendered once, after.
type Refill func(ctx context.Context) context.Context

type refillKey struct{}

// WithRefill gives the APIs' answers computed in ctx a Refill.
func WithRefill(ctx context.Context, f Refill) context.Context {
	return context.WithValue(ctx, refillKey{}, f)
}

// Empty says whether an answer holds no records where it could hold some: "no result", the
// answer a store that lacks the records gives.
func (a Answer) Empty() bool { return a.Outcome == Found && len(a.Recs) == 0 }

// Compute runs a row's answer function on a request made for ctx, and once more, on a
// request made for the context the Refill of ctx gives, when the answer is empty and the
// Refill filled the store.
func Compute(ctx context.Context, request func(context.Context) *Request, answer func(*Request) (Answer, error)) (Answer, error) {
	ans, err := answer(request(ctx))
	if err != nil || !ans.Empty() {
		return ans, err
	}
	if f, ok := ctx.Value(refillKey{}).(Refill); ok {
		if again := f(ctx); again != nil {
			return answer(request(again))
		}
	}
	return ans, nil
}
