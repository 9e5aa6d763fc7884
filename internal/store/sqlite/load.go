package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/sqlstore"
)

// Load runs fn in one transaction, as Write does. It is meant for a large write, such as an
// import into a new file: when the database holds no records and no other connection has
// the file open, the transaction goes through a rollback journal instead of the WAL, and the
// file returns to WAL mode after it. Pages that did not exist before the transaction need no
// journal, so a fresh file is written once, where the WAL writes every page twice (into the
// log, then into the file at the checkpoint). Commit and rollback mean what they do in Write:
// the journal undoes a failed or interrupted load, and the commit is on disk when Load
// returns. While it runs, other connections cannot read the file: they wait for it up to
// their busy timeout. Anywhere else, and whenever SQLite does not switch journals, Load is
// Write.
func (s *Store) Load(ctx context.Context, fn func(store.Tx) error) error {
	s.loading.Lock()
	defer s.loading.Unlock()
	empty, err := s.empty(ctx)
	if err != nil {
		return fmt.Errorf("sqlite: load: %w", err)
	}
	if !empty {
		return s.Write(ctx, fn)
	}
	// This store's own idle connections hold the file open too: close them. A reader in the
	// middle of a query keeps it open, and so does another process: SQLite then refuses to
	// leave WAL mode, and the load is a Write.
	s.read.SetMaxIdleConns(0)
	defer s.read.SetMaxIdleConns(s.readConns)
	s.changes.SetMaxIdleConns(0)
	defer s.changes.SetMaxIdleConns(changesConns)
	if err := s.version.unmap(); err != nil {
		return fmt.Errorf("sqlite: load: %w", err)
	}
	if mode, err := s.journalMode(ctx, "DELETE"); err != nil || mode != "delete" {
		return s.Write(ctx, fn)
	}
	werr := s.writeJournaled(ctx, fn)
	// Back to WAL whatever the outcome, so that readers do not block a later writer. Should
	// that fail, the next connection to open the file switches it (see pragmas).
	bg := context.WithoutCancel(ctx)
	err = s.exec(bg, `PRAGMA locking_mode = NORMAL`)
	if err == nil {
		_, err = s.journalMode(bg, "WAL")
	}
	err = errors.Join(err, s.exec(bg, `PRAGMA synchronous = NORMAL`), s.version.unmap())
	switch {
	case werr != nil:
		return werr
	case err != nil:
		return fmt.Errorf("sqlite: load: %w", err)
	}
	return nil
}

// writeJournaled is Write in rollback journal mode. The writer keeps its lock from its first
// write to the end of the load, so that a connection opening the file meanwhile waits for
// the load rather than holding it up; FULL syncs the journal as it commits.
func (s *Store) writeJournaled(ctx context.Context, fn func(store.Tx) error) error {
	if err := s.exec(ctx, `PRAGMA locking_mode = EXCLUSIVE`); err != nil {
		return fmt.Errorf("sqlite: load: %w", err)
	}
	if err := s.exec(ctx, `PRAGMA synchronous = FULL`); err != nil {
		return fmt.Errorf("sqlite: load: %w", err)
	}
	return s.Write(ctx, fn)
}

func (s *Store) exec(ctx context.Context, query string) error {
	if _, err := s.write.ExecContext(ctx, query); err != nil {
		return fmt.Errorf("%s: %w", query, mapErr(err))
	}
	return nil
}

// journalMode asks the writer connection for a journal mode and returns the one in effect.
func (s *Store) journalMode(ctx context.Context, mode string) (string, error) {
	var got string
	if err := s.write.QueryRowContext(ctx, `PRAGMA journal_mode = `+mode).Scan(&got); err != nil {
		return "", fmt.Errorf("journal mode %s: %w", mode, mapErr(err))
	}
	return strings.ToLower(got), nil
}

// empty says whether no table of a record kind holds a row.
func (s *Store) empty(ctx context.Context) (bool, error) {
	var q []string
	for _, k := range record.Kinds {
		q = append(q, `SELECT 1 FROM `+sqlstore.Table(k))
	}
	var found int
	err := s.write.QueryRowContext(ctx, `SELECT EXISTS (`+strings.Join(q, ` UNION ALL `)+`)`).Scan(&found)
	if err != nil {
		return false, fmt.Errorf("is the database empty: %w", mapErr(err))
	}
	return found == 0, nil
}
