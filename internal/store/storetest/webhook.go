package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"sportsdb/internal/store"
)

// Webhooks checks a store's registered webhooks (store.Webhooks): added, read, listed,
// updated, their state written, and deleted with their progress.
func Webhooks(t *testing.T, st store.Store) {
	ctx := context.Background()
	ws, ok := st.(store.Webhooks)
	if !ok {
		t.Fatal("the store keeps no webhooks")
	}
	t0 := time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC)
	w := store.Webhook{ID: "wh_1", Owner: "abc", URL: "https://app.example/hook", Kinds: []string{"event", "livescore"},
		League: "4328", Secret: "whsec_x", Created: t0, StartCursor: 7, WebhookState: store.WebhookState{Status: store.WebhookActive}}
	if err := ws.AddWebhook(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := ws.AddWebhook(ctx, w); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second webhook with the same id: %v, want ErrConflict", err)
	}
	got, err := ws.Webhook(ctx, "wh_1")
	if err != nil || !reflect.DeepEqual(got, w) {
		t.Fatalf("read back %+v, %v; want %+v", got, err, w)
	}
	w.URL, w.Kinds, w.League, w.Team = "https://app.example/other", nil, "", "133604"
	if err := ws.UpdateWebhook(ctx, w); err != nil {
		t.Fatal(err)
	}
	w.WebhookState = store.WebhookState{Status: store.WebhookDisabled, Reason: "failing for 24h", Failures: 3,
		FailingSince: t0, LastStatus: 503, LastError: "HTTP 503", LastDelivery: t0.Add(-time.Hour), NextAttempt: t0.Add(time.Minute)}
	if err := ws.SetWebhookState(ctx, w.ID, w.WebhookState); err != nil {
		t.Fatal(err)
	}
	// The deliverer's write of a disabled webhook's state changes nothing: the disable stands.
	active := w.WebhookState
	active.Status, active.Reason, active.Failures = store.WebhookActive, "", 0
	if err := ws.SetActiveWebhookState(ctx, w.ID, active); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deliverer's state write over a disabled webhook: %v, want ErrNotFound", err)
	}
	list, err := ws.ListWebhooks(ctx)
	if err != nil || len(list) != 1 || !reflect.DeepEqual(list[0], w) {
		t.Fatalf("list %+v, %v; want [%+v]", list, err, w)
	}
	if p, ok := st.(store.Pushes); ok {
		if _, err := p.TakePushLease(ctx, store.WebhookPush("wh_1"), "a", t0, time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := p.SavePushCursor(ctx, store.WebhookPush("wh_1"), "a", 9); err != nil {
			t.Fatal(err)
		}
	}
	if err := ws.DeleteWebhook(ctx, "wh_1"); err != nil {
		t.Fatal(err)
	}
	if p, ok := st.(store.Pushes); ok {
		if c, err := p.PushCursor(ctx, store.WebhookPush("wh_1")); err != nil || c != store.NoCursor {
			t.Fatalf("a deleted webhook's cursor: %d, %v; want none", c, err)
		}
	}
	for name, err := range map[string]error{
		"read":   func() error { _, err := ws.Webhook(ctx, "wh_1"); return err }(),
		"update": ws.UpdateWebhook(ctx, w),
		"state":  ws.SetWebhookState(ctx, "wh_1", w.WebhookState),
		"delete": ws.DeleteWebhook(ctx, "wh_1"),
	} {
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s of a deleted webhook: %v, want ErrNotFound", name, err)
		}
	}
}
