package v1

import (
	"strconv"
	"testing"
)

// TestRelevance: whole words beat word beginnings, which beat word middles; more of the
// name matched scores more; accents and case do not matter; no match is 0.
func TestRelevance(t *testing.T) {
	cases := []struct {
		query, name string
		want        float64
	}{
		{"mario balotelli", "Mario Balotelli", 30},
		{"MARIO_BALOTELLI", "Mário Balotelli", 30},
		{"mario", "Mario", 20},
		{"mario", "Mario Balotelli", 10 + 10*5.0/15},
		{"balo", "Mario Balotelli", 10*0.75*4/9 + 10*4.0/15},
		{"otel", "Mario Balotelli", 10*0.5*4/9 + 10*4.0/15},
		{"welbeck", "Mario Balotelli", 0},
		{"", "Mario", 0},
	}
	for _, c := range cases {
		if got := relevance(c.query, c.name); strconv.FormatFloat(got, 'f', 9, 64) != strconv.FormatFloat(c.want, 'f', 9, 64) {
			t.Errorf("relevance(%q, %q) = %v, want %v", c.query, c.name, got, c.want)
		}
	}
	order := []string{"Mario", "Mario Balotelli", "Mario Gómez García"}
	for i := 1; i < len(order); i++ {
		if relevance("mario", order[i-1]) <= relevance("mario", order[i]) {
			t.Errorf("%q should rank above %q", order[i-1], order[i])
		}
	}
}
