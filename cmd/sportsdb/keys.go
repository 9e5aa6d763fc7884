package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/store"
)

func keysCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("keys: want add, list or revoke")
	}
	sub, rest := args[0], args[1:]
	fs, v := flags("keys "+sub, stderr, "db", "tier", "label")
	if err := fs.Parse(rest); err != nil {
		return err
	}
	clk, err := clock.FromEnv()
	if err != nil {
		return err
	}
	st, err := openDB(ctx, *v["db"])
	if err != nil {
		return err
	}
	defer st.Close()
	switch sub {
	case "add":
		tier, ok := store.ParseTier(*v["tier"])
		if !ok {
			return fmt.Errorf("keys add: --tier %q: want free, premium or business", *v["tier"])
		}
		key := auth.NewKey()
		if err := st.AddKey(ctx, store.Key{Hash: auth.Hash(key), Tier: tier, Label: *v["label"], Created: clk.Now()}); err != nil {
			return fmt.Errorf("keys add: %w", err)
		}
		fmt.Fprintln(stdout, key)
		return nil
	case "list":
		keys, err := st.ListKeys(ctx)
		if err != nil {
			return fmt.Errorf("keys list: %w", err)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "HASH\tTIER\tCREATED\tREVOKED\tLABEL")
		for _, k := range keys {
			revoked := "-"
			if k.Revoked != nil {
				revoked = k.Revoked.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.Hash[:12], k.Tier, k.Created.UTC().Format(time.RFC3339), revoked, k.Label)
		}
		return tw.Flush()
	case "revoke":
		if fs.NArg() != 1 {
			return errors.New("keys revoke: name the key to revoke")
		}
		err := st.RevokeKey(ctx, auth.Hash(fs.Arg(0)), clk.Now())
		if errors.Is(err, store.ErrNotFound) {
			return errors.New("keys revoke: no such key")
		}
		if err != nil {
			return fmt.Errorf("keys revoke: %w", err)
		}
		fmt.Fprintln(stdout, "revoked; every replica refuses it within 5 seconds")
		return nil
	}
	return fmt.Errorf("keys: unknown subcommand %q (want add, list or revoke)", sub)
}
