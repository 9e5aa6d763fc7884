package store

import (
	"context"
	"time"
)

// Webhook states.
const (
	WebhookActive   = "active"
	WebhookDisabled = "disabled"
)

// Webhook is a registered receiver of the change feed (docs/WEBHOOKS.md). Its definition
// (URL, filters, secret, owner) is written by the API and the command line; its state by
// the deliverer, and by an enable or a disable.
type Webhook struct {
	ID string
	// Owner is the hash of the key that registered it; "" for one added on the command
	// line, which only admin keys see.
	Owner  string
	URL    string
	Kinds  []string
	League string
	Team   string
	// Secret signs the deliveries (whsec_...). It is stored as is: signing needs it.
	Secret  string
	Created time.Time
	// StartCursor is the latest cursor when it was registered: delivery starts after it.
	StartCursor int64
	WebhookState
}

// WebhookState is what delivering a webhook has come to.
type WebhookState struct {
	Status string
	// Reason says why a disabled webhook is.
	Reason string
	// Failures counts the failed attempts since the last delivery; FailingSince is the
	// first of them (zero when none).
	Failures     int
	FailingSince time.Time
	// LastStatus is the HTTP status of the last attempt (0: none, or no answer); LastError
	// what went wrong with it ("" when it was delivered).
	LastStatus int
	LastError  string
	// LastDelivery is the time of the last delivered message; NextAttempt when the next
	// retry is due (zero: at once).
	LastDelivery time.Time
	NextAttempt  time.Time
}

// WebhookPush is a webhook's row in the push progress (Pushes): its cursor and lease, which
// go with it when it is deleted.
func WebhookPush(id string) string { return "webhook/" + id }

// Delivery is a webhook's state after a delivery, and the cursor of its push before and
// after it (Webhooks.DeliveredWebhooks).
type Delivery struct {
	ID         string
	State      WebhookState
	From, Next int64
}

// Webhooks stores registered webhooks. It is optional: the webhooks API and the deliverer
// type-assert it.
type Webhooks interface {
	// AddWebhook stores a new webhook; ErrConflict when its id is taken.
	AddWebhook(ctx context.Context, w Webhook) error
	// Webhook reads one; ErrNotFound when there is none.
	Webhook(ctx context.Context, id string) (Webhook, error)
	// ListWebhooks returns every webhook, oldest first.
	ListWebhooks(ctx context.Context) ([]Webhook, error)
	// UpdateWebhook writes a webhook's URL and filters; ErrNotFound when there is none.
	UpdateWebhook(ctx context.Context, w Webhook) error
	// SetWebhookState writes a webhook's state; ErrNotFound when there is none.
	SetWebhookState(ctx context.Context, id string, s WebhookState) error
	// SetActiveWebhookState writes a webhook's state only while it is active, as its
	// deliverer does: ErrNotFound when there is none or it was disabled meanwhile, so a
	// disable that came during a delivery is never written over.
	SetActiveWebhookState(ctx context.Context, id string, s WebhookState) error
	// DeliveredWebhooks writes deliveries in one transaction: of each, the webhook's state,
	// as SetActiveWebhookState does, and the cursor of its push, as Pushes.SavePushCursor
	// does for holder. A delivery whose webhook is no longer active, or whose lease holder
	// no longer holds, writes nothing of itself and gets ErrNotFound or ErrLeaseLost in its
	// place of the first result; the others are written. The second result is the
	// transaction's failure, when nothing was written.
	DeliveredWebhooks(ctx context.Context, holder string, ds []Delivery) ([]error, error)
	// DeleteWebhook removes one; ErrNotFound when there is none.
	DeleteWebhook(ctx context.Context, id string) error
}
