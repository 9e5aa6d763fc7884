package mirror

import (
	"context"
	"sync"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// sportFormats tells, from the stored sports, which are played team against team. The
// sports are among the first answers of a crawl; one not stored (yet) counts as not a team
// sport, which costs a request at most.
type sportFormats struct {
	st store.Records
	mu sync.Mutex
	// known caches the answers found; a sport not found is asked again.
	known map[string]bool
}

func (s *sportFormats) teamSport(sport string) bool {
	if sport == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.known[sport]; ok {
		return v
	}
	recs, err := s.st.Find(context.Background(), store.Query{Kind: record.Sport, Limit: 1,
		Where: []store.Cond{{Field: "strSport", Norm: record.Name, Op: store.Eq, Value: sport}}})
	if err != nil || len(recs) == 0 {
		return false
	}
	v := recs[0].Str("strFormat") == "TeamvsTeam"
	s.known[sport] = v
	return v
}
