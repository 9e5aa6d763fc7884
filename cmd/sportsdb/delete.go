package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// deleteCmd removes records of one kind by id in one write: every one of them, or, when the
// kind is unknown or an id names no record, none.
func deleteCmd(ctx context.Context, inv *invocation) error {
	k, ok := record.ByName(inv.args[0])
	if !ok { // before the database is opened
		names := make([]string, len(record.Kinds))
		for i, k := range record.Kinds {
			names[i] = k.Name
		}
		return fmt.Errorf("delete: unknown kind %q (want one of %s)", inv.args[0], strings.Join(names, ", "))
	}
	// An id named twice is one record, deleted once.
	var ids []string
	seen := map[string]bool{}
	for _, id := range inv.args[1:] {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	st, err := openDB(ctx, inv.cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	st.SetFeedOptions(inv.cfg.FeedOptions())
	err = st.Write(ctx, func(tx store.Tx) error {
		d, ok := tx.(store.DeleteTx)
		if !ok {
			return errors.New("this database cannot delete single records")
		}
		for _, id := range ids {
			err := d.Delete(ctx, k, id)
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("no %s with id %q", k.Name, id)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete: %w; nothing was deleted", err)
	}
	fmt.Fprintf(inv.stdout, "deleted %d %s record(s)\n", len(ids), k.Name)
	return nil
}
