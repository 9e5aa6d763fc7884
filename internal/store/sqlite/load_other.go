//go:build !linux

package sqlite

import "context"

// syncAhead does nothing where SQLite's descriptors cannot be found (see load_linux.go): a
// load leaves all its pages to the sync of its commit.
func (s *Store) syncAhead(context.Context) (stop func()) { return func() {} }
