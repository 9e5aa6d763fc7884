package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sportsdb/internal/store"
)

// Registered webhooks (store.Webhooks, migrations *_webhooks). Times are stored as Unix
// milliseconds, 0 for none.

const webhookColumns = `id, owner, url, kinds, league, team, secret, created_ms, start_cursor,
status, reason, failures, failing_since_ms, last_status, last_error, last_delivery_ms, next_attempt_ms`

type webhookSQL struct{ add, one, list, update, state, activeState, del string }

func newWebhookSQL(d Dialect) webhookSQL {
	ph := numbered(d)
	params := make([]string, 17)
	for i := range params {
		params[i] = ph(i + 1)
	}
	q := webhookSQL{
		add:  `INSERT INTO webhooks (` + webhookColumns + `) VALUES (` + strings.Join(params, ", ") + `)`,
		one:  `SELECT ` + webhookColumns + ` FROM webhooks WHERE id = ` + ph(1),
		list: `SELECT ` + webhookColumns + ` FROM webhooks ORDER BY created_ms, id`,
		update: `UPDATE webhooks SET url = ` + ph(2) + `, kinds = ` + ph(3) + `, league = ` + ph(4) +
			`, team = ` + ph(5) + ` WHERE id = ` + ph(1),
		state: `UPDATE webhooks SET status = ` + ph(2) + `, reason = ` + ph(3) + `, failures = ` + ph(4) +
			`, failing_since_ms = ` + ph(5) + `, last_status = ` + ph(6) + `, last_error = ` + ph(7) +
			`, last_delivery_ms = ` + ph(8) + `, next_attempt_ms = ` + ph(9) + ` WHERE id = ` + ph(1),
		del: `DELETE FROM webhooks WHERE id = ` + ph(1),
	}
	q.activeState = q.state + ` AND status = '` + store.WebhookActive + `'`
	return q
}

func stateArgs(s store.WebhookState) []any {
	return []any{s.Status, s.Reason, int64(s.Failures), millis(s.FailingSince), int64(s.LastStatus), s.LastError,
		millis(s.LastDelivery), millis(s.NextAttempt)}
}

type webhookScan struct {
	w                                                store.Webhook
	kinds                                            string
	created, failures, since, status, delivery, next int64
}

func (s *webhookScan) dest() []any {
	w := &s.w
	return []any{&w.ID, &w.Owner, &w.URL, &s.kinds, &w.League, &w.Team, &w.Secret, &s.created, &w.StartCursor,
		&w.Status, &w.Reason, &s.failures, &s.since, &s.status, &w.LastError, &s.delivery, &s.next}
}

func (s *webhookScan) webhook() store.Webhook {
	w := s.w
	if s.kinds != "" {
		w.Kinds = strings.Split(s.kinds, ",")
	}
	w.Created, w.FailingSince = fromMillis(s.created), fromMillis(s.since)
	w.LastDelivery, w.NextAttempt = fromMillis(s.delivery), fromMillis(s.next)
	w.Failures, w.LastStatus = int(s.failures), int(s.status)
	return w
}

// AddWebhook stores a new webhook (store.Webhooks).
func (db *DB) AddWebhook(ctx context.Context, w store.Webhook) error {
	args := append([]any{w.ID, w.Owner, w.URL, strings.Join(w.Kinds, ","), w.League, w.Team, w.Secret,
		millis(w.Created), w.StartCursor}, stateArgs(w.WebhookState)...)
	if _, err := db.c.Write.Exec(ctx, newWebhookSQL(db.c.Dialect).add, args...); err != nil {
		return fmt.Errorf("%s: add webhook: %w", db.c.Name, db.MapErr(err))
	}
	return nil
}

// Webhook reads one webhook (store.Webhooks).
func (db *DB) Webhook(ctx context.Context, id string) (store.Webhook, error) {
	var s webhookScan
	err := queryRow(ctx, db.c.Read, newWebhookSQL(db.c.Dialect).one, []any{id}, s.dest()...)
	if errors.Is(err, store.ErrNotFound) {
		return store.Webhook{}, store.ErrNotFound
	}
	if err != nil {
		return store.Webhook{}, fmt.Errorf("%s: webhook: %w", db.c.Name, db.MapErr(err))
	}
	return s.webhook(), nil
}

// ListWebhooks returns every webhook, oldest first (store.Webhooks).
func (db *DB) ListWebhooks(ctx context.Context) ([]store.Webhook, error) {
	rows, err := db.c.Read.Query(ctx, newWebhookSQL(db.c.Dialect).list)
	if err != nil {
		return nil, fmt.Errorf("%s: list webhooks: %w", db.c.Name, db.MapErr(err))
	}
	defer rows.Close()
	var out []store.Webhook
	for rows.Next() {
		var s webhookScan
		if err := rows.Scan(s.dest()...); err != nil {
			return nil, fmt.Errorf("%s: list webhooks: %w", db.c.Name, db.MapErr(err))
		}
		out = append(out, s.webhook())
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: list webhooks: %w", db.c.Name, db.MapErr(err))
	}
	return out, nil
}

// UpdateWebhook writes a webhook's URL and filters (store.Webhooks).
func (db *DB) UpdateWebhook(ctx context.Context, w store.Webhook) error {
	return db.changeWebhook(ctx, "update webhook", newWebhookSQL(db.c.Dialect).update,
		w.ID, w.URL, strings.Join(w.Kinds, ","), w.League, w.Team)
}

// SetWebhookState writes a webhook's state (store.Webhooks).
func (db *DB) SetWebhookState(ctx context.Context, id string, s store.WebhookState) error {
	return db.changeWebhook(ctx, "webhook state", newWebhookSQL(db.c.Dialect).state, append([]any{id}, stateArgs(s)...)...)
}

// SetActiveWebhookState writes a webhook's state while it is active (store.Webhooks).
func (db *DB) SetActiveWebhookState(ctx context.Context, id string, s store.WebhookState) error {
	return db.changeWebhook(ctx, "webhook state", newWebhookSQL(db.c.Dialect).activeState, append([]any{id}, stateArgs(s)...)...)
}

// DeliveredWebhooks writes deliveries in one transaction (store.Webhooks). Of each, the
// cursor goes first: on PostgreSQL its row stays locked to the transaction, so the lease
// cannot pass to another holder before the state follows; a webhook disabled meanwhile
// puts the cursor back where it was.
func (db *DB) DeliveredWebhooks(ctx context.Context, holder string, ds []store.Delivery) ([]error, error) {
	errs := make([]error, len(ds))
	activeState, save := newWebhookSQL(db.c.Dialect).activeState, newPushSQL(db.c.Dialect).save
	err := db.c.Atomic(ctx, func(q Querier) error {
		for i, d := range ds {
			name := store.WebhookPush(d.ID)
			n, err := q.Exec(ctx, save, name, holder, d.Next)
			if err != nil {
				return err
			}
			if n != 1 {
				errs[i] = store.ErrLeaseLost
				continue
			}
			if n, err = q.Exec(ctx, activeState, append([]any{d.ID}, stateArgs(d.State)...)...); err != nil {
				return err
			}
			if n != 1 {
				errs[i] = store.ErrNotFound
				if _, err := q.Exec(ctx, save, name, holder, d.From); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: delivered webhooks: %w", db.c.Name, db.MapErr(err))
	}
	return errs, nil
}

// DeleteWebhook removes a webhook and its progress (store.Webhooks).
func (db *DB) DeleteWebhook(ctx context.Context, id string) error {
	if err := db.changeWebhook(ctx, "delete webhook", newWebhookSQL(db.c.Dialect).del, id); err != nil {
		return err
	}
	if _, err := db.c.Write.Exec(ctx, `DELETE FROM push_progress WHERE name = `+numbered(db.c.Dialect)(1), store.WebhookPush(id)); err != nil {
		return fmt.Errorf("%s: delete webhook: %w", db.c.Name, db.MapErr(err))
	}
	return nil
}

func (db *DB) changeWebhook(ctx context.Context, what, q string, args ...any) error {
	n, err := db.c.Write.Exec(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", db.c.Name, what, db.MapErr(err))
	}
	if n != 1 {
		return store.ErrNotFound
	}
	return nil
}
