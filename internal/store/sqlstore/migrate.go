package sqlstore

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"sportsdb/internal/record"
)

// Migration is one embedded SQL file. Version is its file name without ".sql"; files run in
// name order and each runs once.
type Migration struct {
	Version string
	SQL     string
}

// Migrations lists the .sql files of dir in fsys, in the order they run.
func Migrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var out []Migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", e.Name(), err)
		}
		out = append(out, Migration{Version: strings.TrimSuffix(e.Name(), ".sql"), SQL: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	if len(out) == 0 {
		return nil, fmt.Errorf("no migrations in %s", dir)
	}
	return out, nil
}

// SchemaProblems compares the columns of a migrated database (table -> column set) with what
// record.Kinds and the store need, and describes every table or column that is missing. A
// kind that gains an indexed field without a migration shows up here.
func SchemaProblems(have map[string]map[string]bool) []string {
	var problems []string
	need := map[string][]string{
		"keys":              {"hash", "tier", "label", "created", "revoked"},
		"meta":              {"name", "value"},
		"schema_migrations": {"version"},
		"changes":           {"seq", "kind", "id", "op", "time"},
		"push_progress":     {"name", "last_cursor", "holder", "until_ms"},
		"webhooks":          {"id", "owner", "url", "secret", "status", "next_attempt_ms"},
	}
	for _, k := range record.Kinds {
		need[k.Name] = Columns(k)
	}
	tables := make([]string, 0, len(need))
	for t := range need {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, t := range tables {
		cols, ok := have[t]
		if !ok {
			problems = append(problems, "missing table "+t)
			continue
		}
		for _, c := range need[t] {
			if !cols[c] {
				problems = append(problems, "missing column "+t+"."+c)
			}
		}
	}
	return problems
}
