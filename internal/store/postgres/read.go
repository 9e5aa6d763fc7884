package postgres

import (
	"context"
	"fmt"
)

// Find, Get, Scan, Count and the key store are sqlstore's.

// DataVersion changes whenever a Write succeeds, on any replica.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := s.QueryRow(ctx, `SELECT value FROM meta WHERE name = 'data_version'`, nil, &v); err != nil {
		return 0, fmt.Errorf("postgres: data version: %w", err)
	}
	return v, nil
}
