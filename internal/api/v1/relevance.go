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
	return newSearchQuery(query).score(record.Fold(name))
}

// searchQuery is a search folded and split into words once, to score many names against.
type searchQuery struct {
	folded string
	words  []string
	runes  int
}

func newSearchQuery(query string) searchQuery {
	q := record.Fold(query)
	return searchQuery{folded: q, words: strings.Fields(q), runes: utf8.RuneCountInString(q)}
}

// score is relevance of a name already folded (record.Fold): the name index keeps names so.
func (q searchQuery) score(n string) float64 {
	if q.folded == "" || n == "" {
		return 0
	}
	nameWords := strings.Fields(n)
	score := 0.0
	for _, w := range q.words {
		score += 10 * bestWordMatch(w, nameWords)
	}
	if strings.Contains(n, q.folded) {
		score += 10 * float64(q.runes) / float64(utf8.RuneCountInString(n))
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
