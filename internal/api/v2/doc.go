package v2

import "sportsdb/internal/api"

// Docs lists every path of the table, with the key in X-API-KEY and then as the segment
// before the group: what the API description is generated from.
func (a *API) Docs() []api.Doc {
	var out []api.Doc
	for _, prefix := range []string{"/api/v2/json/", "/api/v2/json/{key}/"} {
		for i := range a.routes {
			rt := &a.routes[i]
			out = append(out, api.Doc{Path: prefix + rt.Path, HeaderKey: prefix == "/api/v2/json/",
				Route: rt.Route, Cap: rt.CapName(), Params: rt.Params, Key: rt.Key, Kind: rt.Kind, View: rt.View,
				PremiumOnly: rt.PremiumOnly, NumericIDs: rt.numericIDs()})
		}
	}
	return out
}

// numericIDs says the route sends id* fields holding integers as JSON numbers.
func (c *compiled) numericIDs() bool { return c.group == "search" }
