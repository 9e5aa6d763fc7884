package v1

import (
	"strings"
	"unicode/utf8"

	"sportsdb/internal/record"
)

// relevance scores how well a player's name matches a search, higher being better, as the
// public service's relevance is (a full-text score written as a float, "30.170034408569336").
// Both are folded (case, accents, `_` as a space) and split into words. Each query word
// scores 10 for a name word it equals, 10 × its share of the name word when it begins one
// (× 0.75) or lies inside one (× 0.5), keeping its best; the name's coverage, the folded
// query's length over the folded name's, adds up to 10 more. "Mario Balotelli" scores 30
// for "mario balotelli", 13.33… for "mario" and 6 for "balo"; a name the query does not
// occur in scores 0.
func relevance(query, name string) float64 {
	q, n := record.Fold(query), record.Fold(name)
	if q == "" || n == "" {
		return 0
	}
	nameWords := strings.Fields(n)
	score := 0.0
	for _, w := range strings.Fields(q) {
		score += 10 * bestWordMatch(w, nameWords)
	}
	if strings.Contains(n, q) {
		score += 10 * float64(utf8.RuneCountInString(q)) / float64(utf8.RuneCountInString(n))
	}
	return score
}

// bestWordMatch is how well one query word matches the best of the name's words, 0 to 1.
func bestWordMatch(w string, words []string) float64 {
	best := 0.0
	for _, nw := range words {
		share := float64(utf8.RuneCountInString(w)) / float64(utf8.RuneCountInString(nw))
		m := 0.0
		switch {
		case nw == w:
			m = 1
		case strings.HasPrefix(nw, w):
			m = 0.75 * share
		case strings.Contains(nw, w):
			m = 0.5 * share
		}
		best = max(best, m)
	}
	return best
}
