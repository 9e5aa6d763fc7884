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
		delivered(t, st, w, t0)
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

// delivered checks DeliveredWebhooks on wh_1, disabled with its lease held by "a" at cursor
// 9: nothing is written while it is disabled or by another holder; active, its state and
// cursor are written together; one delivery refused leaves the others of its batch written.
// It leaves the webhook disabled, as it found it.
func delivered(t *testing.T, st store.Store, w store.Webhook, t0 time.Time) {
	ctx := context.Background()
	ws, p := st.(store.Webhooks), st.(store.Pushes)
	cursorIs := func(what string, want int64) {
		t.Helper()
		if c, err := p.PushCursor(ctx, store.WebhookPush(w.ID)); err != nil || c != want {
			t.Errorf("%s: cursor %d, %v; want %d", what, c, err, want)
		}
	}
	stateIs := func(what string, want store.WebhookState) {
		t.Helper()
		if got, err := ws.Webhook(ctx, w.ID); err != nil || !reflect.DeepEqual(got.WebhookState, want) {
			t.Errorf("%s: state %+v, %v; want %+v", what, got.WebhookState, err, want)
		}
	}
	ok := store.WebhookState{Status: store.WebhookActive, LastStatus: 204, LastDelivery: t0.Add(time.Second)}
	one := func(holder string) error {
		t.Helper()
		errs, err := ws.DeliveredWebhooks(ctx, holder, []store.Delivery{{ID: w.ID, State: ok, From: 9, Next: 10}})
		if err != nil || len(errs) != 1 {
			t.Fatalf("DeliveredWebhooks: %v, %v; want one answer", errs, err)
		}
		return errs[0]
	}
	if err := one("a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a delivery recorded on a disabled webhook: %v, want ErrNotFound", err)
	}
	cursorIs("after a delivery on a disabled webhook", 9)
	stateIs("after a delivery on a disabled webhook", w.WebhookState)

	active := store.WebhookState{Status: store.WebhookActive, LastStatus: 503, LastError: "HTTP 503", Failures: 1, FailingSince: t0}
	if err := ws.SetWebhookState(ctx, w.ID, active); err != nil {
		t.Fatal(err)
	}
	if err := one("b"); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("a delivery recorded by a holder without the lease: %v, want ErrLeaseLost", err)
	}
	cursorIs("after a delivery by another holder", 9)
	stateIs("after a delivery by another holder (its state is not kept either)", active)

	// A batch: wh_2's lease is another holder's, and its refusal leaves wh_1's written.
	w2 := w
	w2.ID, w2.WebhookState = "wh_2", active
	if err := ws.AddWebhook(ctx, w2); err != nil {
		t.Fatal(err)
	}
	if _, err := p.TakePushLease(ctx, store.WebhookPush(w2.ID), "b", t0, time.Minute); err != nil {
		t.Fatal(err)
	}
	errs, err := ws.DeliveredWebhooks(ctx, "a", []store.Delivery{{ID: w2.ID, State: ok, From: store.NoCursor, Next: 3},
		{ID: w.ID, State: ok, From: 9, Next: 10}})
	if err != nil || len(errs) != 2 || !errors.Is(errs[0], store.ErrLeaseLost) || errs[1] != nil {
		t.Fatalf("a batch of another holder's delivery and one's own: %v, %v; want [ErrLeaseLost, nil]", errs, err)
	}
	cursorIs("after a delivery", 10)
	stateIs("after a delivery", ok)
	if got, err := ws.Webhook(ctx, w2.ID); err != nil || !reflect.DeepEqual(got.WebhookState, active) {
		t.Errorf("another holder's webhook: state %+v, %v; want it unchanged", got.WebhookState, err)
	}
	if err := ws.DeleteWebhook(ctx, w2.ID); err != nil {
		t.Fatal(err)
	}
	if err := ws.SetWebhookState(ctx, w.ID, w.WebhookState); err != nil {
		t.Fatal(err)
	}
}
