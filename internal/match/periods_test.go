package match

import (
	"slices"
	"testing"
)

func TestPeriods(t *testing.T) {
	tests := []struct {
		name string
		want []period
	}{
		{"Chiefs vs Bengals 2024-09-15.mkv", []period{{"2024-09-12", "2024-09-19"}}},
		// Both readings of the day are days, a month apart: a span each, in time order.
		{"Chiefs v Bengals 03-04-2024.mkv", []period{{"2024-03-01", "2024-03-08"}, {"2024-03-31", "2024-04-07"}}},
		// Days whose spans meet (5 and 7 June) make one span.
		{"Chiefs v Bengals 05-06-2024 2024-06-07.mkv", []period{{"2024-05-03", "2024-05-10"}, {"2024-06-02", "2024-06-11"}}},
		{"Chiefs vs Bengals.mkv", nil},
	}
	for _, tt := range tests {
		m := &matcher{p: parse(tt.name, tables)}
		if got := m.periods(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: periods %v, want %v", tt.name, got, tt.want)
		}
	}
}
