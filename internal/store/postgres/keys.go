package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sportsdb/internal/store"
)

// AddKey stores a key; store.ErrConflict when its hash is stored already.
func (s *Store) AddKey(ctx context.Context, k store.Key) error {
	if k.Hash == "" {
		return errors.New("postgres: add key: empty hash")
	}
	if _, ok := store.ParseTier(string(k.Tier)); !ok {
		return fmt.Errorf("postgres: add key: unknown tier %q", k.Tier)
	}
	ctx, cancel := bounded(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, `INSERT INTO keys (hash, tier, label, created, revoked) VALUES ($1, $2, $3, $4, $5)`,
		k.Hash, string(k.Tier), k.Label, k.Created.UTC(), k.Revoked)
	if err != nil {
		return fmt.Errorf("postgres: add key: %w", mapErr(err))
	}
	return nil
}

// KeyByHash returns the key with that hash, revoked or not, or store.ErrNotFound.
func (s *Store) KeyByHash(ctx context.Context, hash string) (store.Key, error) {
	ctx, cancel := bounded(ctx)
	defer cancel()
	row := s.pool.QueryRow(ctx, `SELECT hash, tier, label, created, revoked FROM keys WHERE hash = $1`, hash)
	k, err := scanKey(row.Scan)
	if err != nil {
		return store.Key{}, fmt.Errorf("postgres: key by hash: %w", err)
	}
	return k, nil
}

// ListKeys returns every key, oldest first.
func (s *Store) ListKeys(ctx context.Context) ([]store.Key, error) {
	ctx, cancel := bounded(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT hash, tier, label, created, revoked FROM keys ORDER BY created, hash`)
	if err != nil {
		return nil, fmt.Errorf("postgres: list keys: %w", mapErr(err))
	}
	defer rows.Close()
	var out []store.Key
	for rows.Next() {
		k, err := scanKey(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("postgres: list keys: %w", err)
		}
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: list keys: %w", mapErr(err))
	}
	return out, nil
}

func scanKey(scan func(...any) error) (store.Key, error) {
	var (
		k       store.Key
		tier    string
		revoked *time.Time
	)
	if err := scan(&k.Hash, &tier, &k.Label, &k.Created, &revoked); err != nil {
		return store.Key{}, mapErr(err)
	}
	k.Tier = store.Tier(tier)
	k.Created = k.Created.UTC()
	if revoked != nil {
		r := revoked.UTC()
		k.Revoked = &r
	}
	return k, nil
}

// RevokeKey marks a key revoked; store.ErrNotFound when there is no such key. Revoking a
// revoked key again keeps the first time.
func (s *Store) RevokeKey(ctx context.Context, hash string, at time.Time) error {
	ctx, cancel := bounded(ctx)
	defer cancel()
	tag, err := s.pool.Exec(ctx, `UPDATE keys SET revoked = coalesce(revoked, $1) WHERE hash = $2`, at.UTC(), hash)
	if err != nil {
		return fmt.Errorf("postgres: revoke key: %w", mapErr(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: revoke key: %w", store.ErrNotFound)
	}
	return nil
}
