package v2

import (
	"strings"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
)

// param is the type of a path parameter, written {type} in a route's path.
type param string

const (
	pName          param = "name"          // a name: `_`, `+` and %20 are spaces; folded
	pID            param = "id"            // an integer id
	pDate          param = "date"          // YYYY-MM-DD
	pSeason        param = "season"        // a season name as stored (2026-2027, 2026)
	pSportOrLeague param = "sportOrLeague" // a sport name, or a league id when all digits
)

// maxParamLen bounds a path parameter: no stored name comes near it, and a longer one can
// only cost the database work for nothing.
const maxParamLen = 200

// args are the parsed path parameters of one request. A parameter that cannot match any
// record (a non-numeric id, an impossible date, an empty name) makes the answer "No data
// found", never an error.
type args struct {
	name   string // folded
	id     string // canonical decimal
	date   string
	season string
	// query is the value of the row's one query parameter (Params), as sent.
	query string
}

func (a *args) set(p param, raw string) bool {
	if len(raw) > maxParamLen || !api.Printable(raw) {
		return false
	}
	switch p {
	case pName:
		a.name = record.Fold(raw)
		return a.name != ""
	case pID:
		id, ok := api.ParseID(raw)
		a.id = id
		return ok
	case pDate:
		t, err := time.Parse(time.DateOnly, raw)
		if err != nil || len(raw) != len(time.DateOnly) {
			return false
		}
		a.date = t.Format(time.DateOnly)
		return true
	case pSeason:
		a.season = strings.TrimSpace(raw)
		return a.season != ""
	case pSportOrLeague:
		if id, ok := api.ParseID(raw); ok {
			a.id = id
			return true
		}
		a.name = record.Fold(raw)
		return a.name != ""
	}
	return false
}
