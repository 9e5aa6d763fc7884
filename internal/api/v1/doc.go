package v1

import (
	"strings"

	"sportsdb/internal/api"
)

// docForms are the forms of v1 paths in the order a description lists them.
var docForms = []form{v1Path, v2Path, v2Head}

// Docs lists every path that reaches a row of the table, form by form, in the order of the
// spec's tables: what the API description is generated from.
func (a *API) Docs() []api.Doc {
	var out []api.Doc
	for _, f := range docForms {
		byRow := make([]string, len(a.rows.list))
		for file, i := range a.rows.files[f] {
			byRow[i] = file
		}
		for i, file := range byRow {
			if file == "" {
				continue
			}
			ep := a.rows.list[i]
			out = append(out, api.Doc{Path: f.path(file), HeaderKey: !f.keyInPath, Route: ep.Route,
				Cap: ep.CapName(), Params: ep.Params, Key: ep.Key, Kind: ep.Kind, View: ep.View,
				PremiumOnly: ep.PremiumOnly, V1: true})
		}
	}
	return out
}

// path is the template of a file's path in the form.
func (f form) path(file string) string {
	parts := []string{"", "api", f.version, "json"}
	if f.keyInPath {
		parts = append(parts, "{key}")
	}
	return strings.Join(append(parts, file), "/")
}
