package v2

import (
	"strings"

	"sportsdb/internal/record"
)

// RecordView is the view in which v2 writes one record of a kind: the view of its lookup
// route, else of the first route that answers that kind, else every field. The live
// streams send changed records in it.
func RecordView(k *record.Kind) *record.View {
	name := ""
	for _, r := range routes {
		if r.Kind != k {
			continue
		}
		if strings.HasPrefix(r.Path, "lookup/") {
			name = r.View
			break
		}
		if name == "" {
			name = r.View
		}
	}
	if name == "" {
		name = "full"
	}
	return k.View(name)
}
