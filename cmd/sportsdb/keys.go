package main

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/store"
)

func keysAddCmd(ctx context.Context, inv *invocation) error {
	c := inv.cfg
	st, err := openDB(ctx, c.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	key := c.KeyValue
	if key == "" {
		key = auth.NewKey()
	}
	err = st.AddKey(ctx, store.Key{Hash: auth.Hash(key), Tier: c.Tier, Role: c.Role, Label: c.Label, Created: c.Clock().Now()})
	if errors.Is(err, store.ErrConflict) {
		return errors.New("keys add: that key is stored already (keys list shows it; a revoked key stays refused)")
	}
	if err != nil {
		return fmt.Errorf("keys add: %w", err)
	}
	fmt.Fprintln(inv.stdout, key)
	return nil
}

func keysListCmd(ctx context.Context, inv *invocation) error {
	st, err := openDB(ctx, inv.cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	keys, err := st.ListKeys(ctx)
	if err != nil {
		return fmt.Errorf("keys list: %w", err)
	}
	tw := tabwriter.NewWriter(inv.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HASH\tTIER\tROLE\tCREATED\tREVOKED\tLABEL")
	for _, k := range keys {
		revoked := "-"
		if k.Revoked != nil {
			revoked = k.Revoked.UTC().Format(time.RFC3339)
		}
		role := string(k.Role)
		if role == "" {
			role = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.Hash[:12], k.Tier, role, k.Created.UTC().Format(time.RFC3339), revoked, k.Label)
	}
	return tw.Flush()
}

func keysRevokeCmd(ctx context.Context, inv *invocation) error {
	st, err := openDB(ctx, inv.cfg.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	err = st.RevokeKey(ctx, auth.Hash(inv.args[0]), inv.cfg.Clock().Now())
	if errors.Is(err, store.ErrNotFound) {
		return errors.New("keys revoke: no such key")
	}
	if err != nil {
		return fmt.Errorf("keys revoke: %w", err)
	}
	fmt.Fprintln(inv.stdout, "revoked; every replica refuses it within 5 seconds")
	return nil
}
