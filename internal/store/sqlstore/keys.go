package sqlstore

import (
	"context"
	"fmt"
	"time"

	"sportsdb/internal/store"
)

// keySQL are the key store's statements in a dialect.
type keySQL struct {
	add, byHash, list, revoke string
}

const keyColumns = `hash, tier, label, created, revoked, role`

func newKeySQL(d Dialect) keySQL {
	return keySQL{
		add:    `INSERT INTO keys (` + keyColumns + `) VALUES (` + Params(d, 1, 6) + `)`,
		byHash: `SELECT ` + keyColumns + ` FROM keys WHERE hash = ` + d.Param(1),
		// Keys created in the same instant come in the order of their hashes, on both
		// databases: neither keeps the order of insertion of a table without a sequence.
		list:   `SELECT ` + keyColumns + ` FROM keys ORDER BY created, hash`,
		revoke: `UPDATE keys SET revoked = coalesce(revoked, ` + d.Param(1) + `) WHERE hash = ` + d.Param(2),
	}
}

// AddKey stores a key; store.ErrConflict when its hash is stored already.
func (db *DB) AddKey(ctx context.Context, k store.Key) error {
	if k.Hash == "" {
		return fmt.Errorf("%s: add key: empty hash", db.c.Name)
	}
	if _, ok := store.ParseTier(string(k.Tier)); !ok {
		return fmt.Errorf("%s: add key: unknown tier %q", db.c.Name, k.Tier)
	}
	if _, ok := store.ParseRole(string(k.Role)); !ok {
		return fmt.Errorf("%s: add key: unknown role %q", db.c.Name, k.Role)
	}
	var revoked any // NULL
	if k.Revoked != nil {
		revoked = db.c.Dialect.Time(*k.Revoked)
	}
	ctx, cancel := db.bounded(ctx)
	defer cancel()
	_, err := db.c.Write.Exec(ctx, db.keys.add, k.Hash, string(k.Tier), k.Label, db.c.Dialect.Time(k.Created), revoked, string(k.Role))
	if err != nil {
		return fmt.Errorf("%s: add key: %w", db.c.Name, db.MapErr(err))
	}
	return nil
}

// KeyByHash returns the key with that hash, revoked or not, or store.ErrNotFound.
func (db *DB) KeyByHash(ctx context.Context, hash string) (store.Key, error) {
	var ks keyScan
	if err := db.QueryRow(ctx, db.keys.byHash, []any{hash}, ks.dest()...); err != nil {
		return store.Key{}, fmt.Errorf("%s: key by hash: %w", db.c.Name, err)
	}
	return ks.key(), nil
}

// ListKeys returns every key, oldest first; keys created in the same instant by hash.
func (db *DB) ListKeys(ctx context.Context) ([]store.Key, error) {
	ctx, cancel := db.bounded(ctx)
	defer cancel()
	rows, err := db.c.Read.Query(ctx, db.keys.list)
	if err != nil {
		return nil, fmt.Errorf("%s: list keys: %w", db.c.Name, db.MapErr(err))
	}
	defer rows.Close()
	var out []store.Key
	for rows.Next() {
		var ks keyScan
		if err := rows.Scan(ks.dest()...); err != nil {
			return nil, fmt.Errorf("%s: list keys: %w", db.c.Name, db.MapErr(err))
		}
		out = append(out, ks.key())
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: list keys: %w", db.c.Name, db.MapErr(err))
	}
	return out, nil
}

// RevokeKey marks a key revoked; store.ErrNotFound when there is no such key. Revoking a
// revoked key again keeps the first time.
func (db *DB) RevokeKey(ctx context.Context, hash string, at time.Time) error {
	ctx, cancel := db.bounded(ctx)
	defer cancel()
	n, err := db.c.Write.Exec(ctx, db.keys.revoke, db.c.Dialect.Time(at), hash)
	if err != nil {
		return fmt.Errorf("%s: revoke key: %w", db.c.Name, db.MapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("%s: revoke key: %w", db.c.Name, store.ErrNotFound)
	}
	return nil
}

// keyScan receives a row of keyColumns.
type keyScan struct {
	k                store.Key
	tier, role       string
	created, revoked keyTime
}

func (s *keyScan) dest() []any {
	return []any{&s.k.Hash, &s.tier, &s.k.Label, &s.created, &s.revoked, &s.role}
}

func (s *keyScan) key() store.Key {
	k := s.k
	k.Tier = store.Tier(s.tier)
	k.Role = store.Role(s.role)
	k.Created = s.created.t
	if s.revoked.valid {
		t := s.revoked.t
		k.Revoked = &t
	}
	return k
}

// keyTime reads a time column as either database stores it: a timestamp (PostgreSQL) or
// RFC 3339 text (SQLite, see Dialect.Time). NULL leaves it invalid.
type keyTime struct {
	t     time.Time
	valid bool
}

func (kt *keyTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*kt = keyTime{}
		return nil
	case time.Time:
		*kt = keyTime{t: v.UTC(), valid: true}
		return nil
	case string:
		return kt.parse(v)
	case []byte:
		return kt.parse(string(v))
	}
	return fmt.Errorf("key time: unexpected %T", src)
}

func (kt *keyTime) parse(s string) error {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("key time %q: %w", s, err)
	}
	*kt = keyTime{t: t.UTC(), valid: true}
	return nil
}
