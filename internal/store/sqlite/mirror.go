package sqlite

import "sportsdb/internal/store"

// The mirror's crawl frontier (store.Frontier, store.FrontierTx) is sqlstore.DB's and
// sqlstore.Tx's.
var (
	_ store.Frontier   = (*Store)(nil)
	_ store.FrontierTx = (*tx)(nil)
)
