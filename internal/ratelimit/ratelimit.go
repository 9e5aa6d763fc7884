// Package ratelimit holds every API key to at most N requests in any rolling 60-second
// window. The count is exact: it is a sliding log of the admitted requests, not a fixed
// window or a token bucket, so no burst at a window edge can ever exceed N.
//
// Memory limits one process; Redis shares one limit per key between every replica that uses
// the same Redis, and falls back to Memory (per replica) while Redis cannot be reached.
// Callers pass the key's hash as id, never the key itself: ids reach Redis and memory dumps.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Window is the rolling window every limit counts over.
const Window = 60 * time.Second

// Requests per Window for each tier, as the public service allows them (the defaults of
// tierlimit.DefaultLimits).
const (
	FreeLimit     = 30
	PremiumLimit  = 100
	BusinessLimit = 120
)

// ErrBadLimit reports a limit below 1; a programming error, not a client's.
var ErrBadLimit = errors.New("rate limit must be at least 1")

// Decision is the answer for one request.
type Decision struct {
	Allowed bool
	// Limit is the N the request was counted against.
	Limit int
	// Remaining is how many more requests the window admits right now.
	Remaining int
	// Reset is the time until the oldest counted request leaves the window.
	Reset time.Duration
	// RetryAfter is the time until a slot frees; set only when the request was refused.
	RetryAfter time.Duration
}

// Limiter counts requests per id.
type Limiter interface {
	// Allow counts one request of id against limit and says whether it may go on. Refused
	// requests are not counted.
	Allow(ctx context.Context, id string, limit int) (Decision, error)
}

// Health is what both limiters report for the server's health details: whether limits are
// in force as configured, and a line saying how.
type Health interface {
	Healthy() (ok bool, detail string)
}

var (
	_ Limiter = (*Memory)(nil)
	_ Limiter = (*Redis)(nil)
	_ Health  = (*Memory)(nil)
	_ Health  = (*Redis)(nil)
)

func checkLimit(limit int) error {
	if limit < 1 {
		return fmt.Errorf("ratelimit: limit %d: %w", limit, ErrBadLimit)
	}
	return nil
}

// ceilSeconds rounds up so a client that waits the advertised seconds is never early.
func ceilSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

// SetHeaders writes the rate limit fields every answer to a known key carries: the
// X-RateLimit-* trio and the IETF RateLimit-Policy and RateLimit fields.
func SetHeaders(h http.Header, d Decision) {
	// The five values are cut from one string and the five one-value lists from one array:
	// these headers go with every answer, and each value on its own was two allocations.
	var buf [128]byte
	b := strconv.AppendInt(buf[:0], int64(d.Limit), 10)
	limit := len(b)
	b = strconv.AppendInt(b, int64(max(d.Remaining, 0)), 10)
	remaining := len(b)
	b = strconv.AppendInt(b, int64(ceilSeconds(d.Reset)), 10)
	reset := len(b)
	b = append(b, `"default";q=`...)
	b = append(b, b[:limit]...)
	b = append(b, ";w="...)
	b = strconv.AppendInt(b, int64(Window/time.Second), 10)
	policy := len(b)
	b = append(b, `"default";r=`...)
	b = append(b, b[limit:remaining]...)
	b = append(b, ";t="...)
	b = append(b, b[remaining:reset]...)
	all := string(b)
	v := []string{all[:limit], all[limit:remaining], all[remaining:reset], all[reset:policy], all[policy:]}
	// The keys are written in canonical form directly: Header.Set would canonicalise them on
	// every request.
	h["X-Ratelimit-Limit"] = v[0:1:1]
	h["X-Ratelimit-Remaining"] = v[1:2:2]
	h["X-Ratelimit-Reset"] = v[2:3:3]
	h["Ratelimit-Policy"] = v[3:4:4]
	h["Ratelimit"] = v[4:5:5]
}
