package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"sportsdb/internal/store"
)

// Times are kept as fixed-width UTC text, so they sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// AddKey stores a key; store.ErrConflict when its hash is stored already.
func (s *Store) AddKey(ctx context.Context, k store.Key) error {
	if k.Hash == "" {
		return errors.New("sqlite: add key: empty hash")
	}
	if _, ok := store.ParseTier(string(k.Tier)); !ok {
		return fmt.Errorf("sqlite: add key: unknown tier %q", k.Tier)
	}
	var revoked any
	if k.Revoked != nil {
		revoked = formatTime(*k.Revoked)
	}
	_, err := s.write.ExecContext(ctx, `INSERT INTO keys (hash, tier, label, created, revoked) VALUES (?, ?, ?, ?, ?)`,
		k.Hash, string(k.Tier), k.Label, formatTime(k.Created), revoked)
	if err != nil {
		return fmt.Errorf("sqlite: add key: %w", mapErr(err))
	}
	return nil
}

// KeyByHash returns the key with that hash, revoked or not, or store.ErrNotFound.
func (s *Store) KeyByHash(ctx context.Context, hash string) (store.Key, error) {
	row := s.read.QueryRowContext(ctx, `SELECT hash, tier, label, created, revoked FROM keys WHERE hash = ?`, hash)
	k, err := scanKey(row.Scan)
	if err != nil {
		return store.Key{}, fmt.Errorf("sqlite: key by hash: %w", err)
	}
	return k, nil
}

// ListKeys returns every key, oldest first.
func (s *Store) ListKeys(ctx context.Context) ([]store.Key, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT hash, tier, label, created, revoked FROM keys ORDER BY created, rowid`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list keys: %w", mapErr(err))
	}
	defer rows.Close()
	var out []store.Key
	for rows.Next() {
		k, err := scanKey(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("sqlite: list keys: %w", err)
		}
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list keys: %w", mapErr(err))
	}
	return out, nil
}

func scanKey(scan func(...any) error) (store.Key, error) {
	var (
		k       store.Key
		tier    string
		created string
		revoked sql.NullString
	)
	if err := scan(&k.Hash, &tier, &k.Label, &created, &revoked); err != nil {
		return store.Key{}, mapErr(err)
	}
	k.Tier = store.Tier(tier)
	var err error
	if k.Created, err = time.Parse(timeLayout, created); err != nil {
		return store.Key{}, fmt.Errorf("key created time %q: %w", created, err)
	}
	if revoked.Valid {
		t, err := time.Parse(timeLayout, revoked.String)
		if err != nil {
			return store.Key{}, fmt.Errorf("key revoked time %q: %w", revoked.String, err)
		}
		k.Revoked = &t
	}
	return k, nil
}

// RevokeKey marks a key revoked; store.ErrNotFound when there is no such key. Revoking a
// revoked key again keeps the first time.
func (s *Store) RevokeKey(ctx context.Context, hash string, at time.Time) error {
	res, err := s.write.ExecContext(ctx, `UPDATE keys SET revoked = coalesce(revoked, ?) WHERE hash = ?`, formatTime(at), hash)
	if err != nil {
		return fmt.Errorf("sqlite: revoke key: %w", mapErr(err))
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite: revoke key: %w", mapErr(err))
	} else if n == 0 {
		return fmt.Errorf("sqlite: revoke key: %w", store.ErrNotFound)
	}
	return nil
}
