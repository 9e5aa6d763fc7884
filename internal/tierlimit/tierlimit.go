// Package tierlimit holds the per-tier counts an operator may set (requests per rolling
// minute, open event streams) and their flag syntax, below both the configuration that
// parses them and the server that applies them.
package tierlimit

import (
	"fmt"
	"strconv"
	"strings"

	"sportsdb/internal/live"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/store"
)

// DefaultLimits are the public service's requests per rolling minute of each tier.
var DefaultLimits = map[store.Tier]int{
	store.Free: ratelimit.FreeLimit, store.Premium: ratelimit.PremiumLimit, store.Business: ratelimit.BusinessLimit,
}

// ParseLimits reads "free:30,premium:100,business:120"; tiers not named keep their default.
func ParseLimits(s string) (map[store.Tier]int, error) {
	out, ok := parseTierCounts(s, DefaultLimits)
	if !ok {
		return nil, fmt.Errorf("limits %q: want tier:requests-per-minute pairs, like free:30,premium:100", s)
	}
	return out, nil
}

// ParseOpenStreams reads "premium:5,business:10", the event streams a key of each paying tier
// may hold open at once; a tier not named keeps its live.OpenStreams default.
func ParseOpenStreams(s string) (map[store.Tier]int, error) {
	out, ok := parseTierCounts(s, live.OpenStreams)
	if !ok {
		return nil, fmt.Errorf("open streams %q: want tier:streams pairs of premium and business, like premium:5,business:10", s)
	}
	return out, nil
}

// parseTierCounts reads "tier:n,tier:n" (each n at least 1) over a copy of defaults; only
// tiers that defaults holds may be named.
func parseTierCounts(s string, defaults map[store.Tier]int) (map[store.Tier]int, bool) {
	out := map[store.Tier]int{}
	for t, n := range defaults {
		out[t] = n
	}
	if strings.TrimSpace(s) == "" {
		return out, true
	}
	for _, part := range strings.Split(s, ",") {
		name, num, ok := strings.Cut(strings.TrimSpace(part), ":")
		tier, known := store.ParseTier(strings.TrimSpace(name))
		_, has := defaults[tier]
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || !known || !has || err != nil || n < 1 {
			return nil, false
		}
		out[tier] = n
	}
	return out, true
}
