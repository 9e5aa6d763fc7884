package storetest

import (
	"context"
	"testing"

	"sportsdb/internal/store/sqlstore"
)

// CheckSchema fails t unless the migrated schema holds every table and column record.Kinds
// asks for. query lists the schema's columns as (table, column) rows.
func CheckSchema(t *testing.T, q sqlstore.Querier, query string) {
	t.Helper()
	rows, err := q.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	have := map[string]map[string]bool{}
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			t.Fatal(err)
		}
		if have[table] == nil {
			have[table] = map[string]bool{}
		}
		have[table][col] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(have) == 0 {
		t.Fatal("no tables in the schema")
	}
	for _, p := range sqlstore.SchemaProblems(have) {
		t.Error(p)
	}
}
