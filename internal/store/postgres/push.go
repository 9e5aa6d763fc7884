package postgres

import "sportsdb/internal/store"

// The progress of pushes (store.Pushes) is sqlstore.DB's.
var _ store.Pushes = (*Store)(nil)

// Registered webhooks (store.Webhooks) are sqlstore.DB's.
var _ store.Webhooks = (*Store)(nil)

var _ store.Images = (*Store)(nil)
