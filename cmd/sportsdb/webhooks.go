package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/config"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/webhooks"
)

func webhooksAddCmd(ctx context.Context, inv *invocation) error {
	c := inv.cfg
	st, ws, err := openAs[webhooks.Store](ctx, inv, "webhooks: the database keeps no webhooks")
	if err != nil {
		return err
	}
	defer st.Close()
	owner := ""
	if c.WebhookOwner != "" {
		k, err := st.KeyByHash(ctx, auth.Hash(c.WebhookOwner))
		if err != nil || k.Revoked != nil {
			return errors.New("webhooks add: --owner is no key of this database (keys list shows them)")
		}
		owner = k.Hash
	}
	url, kinds := inv.args[0], c.WebhookKinds
	d := webhooks.Definition{URL: &url, Kinds: &kinds, League: &c.WebhookLeague, Team: &c.WebhookTeam}
	hook, err := webhooks.NewAPI(webhooks.Guard{AllowPrivate: c.WebhookAllowPrivate}, clock.System{}).Register(ctx, ws, owner, d)
	if err != nil {
		return fmt.Errorf("webhooks add: %w", err)
	}
	fmt.Fprintf(inv.stdout, "%s\n%s\n", hook.ID, hook.Secret)
	return nil
}

func webhooksListCmd(ctx context.Context, inv *invocation) error {
	st, ws, err := openAs[webhooks.Store](ctx, inv, "webhooks: the database keeps no webhooks")
	if err != nil {
		return err
	}
	defer st.Close()
	hooks, err := ws.ListWebhooks(ctx)
	if err != nil {
		return fmt.Errorf("webhooks list: %w", err)
	}
	tw := tabwriter.NewWriter(inv.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tURL\tFILTERS\tFAILURES\tNEXT ATTEMPT\tLAST ERROR")
	for _, h := range hooks {
		filters := ""
		for _, f := range []struct{ name, v string }{{"kinds=", strings.Join(h.Kinds, ",")}, {"league=", h.League}, {"team=", h.Team}} {
			if f.v != "" {
				filters += f.name + f.v + " "
			}
		}
		next, last := "-", h.LastError
		if !h.NextAttempt.IsZero() {
			next = h.NextAttempt.UTC().Format(time.RFC3339)
		}
		if h.Status == store.WebhookDisabled {
			last = h.Reason
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", h.ID, h.Status, h.URL, orDash(filters), h.Failures, next, orDash(last))
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func webhooksRemoveCmd(ctx context.Context, inv *invocation) error {
	st, ws, err := openAs[webhooks.Store](ctx, inv, "webhooks: the database keeps no webhooks")
	if err != nil {
		return err
	}
	defer st.Close()
	err = ws.DeleteWebhook(ctx, inv.args[0])
	if errors.Is(err, store.ErrNotFound) {
		return errors.New("webhooks remove: no such webhook")
	}
	if err != nil {
		return fmt.Errorf("webhooks remove: %w", err)
	}
	fmt.Fprintln(inv.stdout, "removed")
	return nil
}

// startWebhooks starts delivering the change feed to the registered webhooks, in the
// background; stop ends it, releasing the leases so another replica takes over at once.
func startWebhooks(c *config.Config, st store.Store, srv *server.Server, logger *slog.Logger) (stop func(), err error) {
	src, ok := st.(webhooks.Source)
	if !ok {
		return func() {}, nil
	}
	metrics := webhooks.NewMetrics()
	if err := srv.RegisterCollectors(metrics.Collectors()...); err != nil {
		return nil, err
	}
	// The owners' keys are looked up as requests' keys are, through auth's cache: a revoked
	// owner's webhooks stop within the same few seconds, and the store is not read each poll.
	owners := auth.New(src, clock.System{}, auth.Options{})
	revoked := func(ctx context.Context, hash string) bool {
		_, err := owners.ResolveHash(ctx, hash)
		return errors.Is(err, auth.ErrUnknownKey)
	}
	// Retries and leases run on the wall clock even when SPORTSDB_NOW pins the data clock.
	d := webhooks.New(src, webhooks.Options{Guard: webhooks.Guard{AllowPrivate: c.WebhookAllowPrivate}, Clock: clock.System{},
		Log: logger, Metrics: metrics, Revoked: revoked})
	return inBackground(d.Run), nil
}
