package openapi

import (
	"sportsdb/internal/api"
	"sportsdb/internal/api/caps"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/calendar"
)

// For is the source of the document of a server that routes with these APIs and caps.
func For(a1 *v1.API, a2 *v2.API, table *caps.Table, version string) Source {
	return Source{V1: a1.Docs(), V2: a2.Docs(), Caps: table, Calendars: calendar.Scopes, Version: version}
}

// Default is the document of a server with the default caps.
func Default() ([]byte, error) {
	table := caps.New()
	d := api.Deps{Caps: table}
	return Build(For(v1.New(d), v2.New(d), table, "dev"))
}
