package mirror

import (
	"strings"

	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
)

// TimeDependent says whether an answer depends on the time (live scores, next and previous
// events): the route row that answers it says so (api.Endpoint.Clock). A mirror follows
// such answers hourly. pathAndQuery is as Fetcher.Ensure takes it.
func TimeDependent(version, pathAndQuery string) bool {
	p, _, _ := strings.Cut(pathAndQuery, "?")
	if version == "v1" {
		return v1.ClockBound(p)
	}
	return v2.ClockBound(p)
}
