package store

import (
	"context"
	"time"
)

// FrontierEntry is one request of a mirror's crawl (see internal/mirror): what to ask the
// upstream, and when it was last answered. URL is the version and the path with its query,
// like "v1/lookupteam.php?id=133604" or "v2/list/seasonposters/4328": never the key; or an
// image's, "img/" and its address (mirror --media).
type FrontierEntry struct {
	URL string
	// Priority orders due entries: higher first, then in the order they were added.
	Priority int
	// Due is when the entry is to be fetched (again); the zero time means at once.
	Due time.Time
	// Fetched is when it was last answered; zero when never.
	Fetched time.Time
	// Status is the last outcome: "" (never fetched), "ok", "message" (a body holding a
	// message instead of records), "refused" (an HTTP error answer that retrying cannot
	// change) or "failed" (retries ran out).
	Status string
	// Fails counts the failed attempts since the last answer.
	Fails int
	// Note says what went wrong last, for reports.
	Note string
}

// FrontierStats counts a frontier's entries.
type FrontierStats struct {
	Total int64
	// Due are the entries due at the time asked about.
	Due int64
	// Failed are the entries whose last attempt failed.
	Failed int64
	// Next is the earliest due time after the time asked about; zero when none.
	Next time.Time
}

// Frontier is a store that keeps a mirror's crawl frontier. It is optional: the mirror
// type-asserts it on the Store, and FrontierTx on the Tx of Write, so the frontier changes
// commit in the same transaction as the records a response stored.
type Frontier interface {
	// FrontierDue returns up to limit entries due at or before t, highest priority first,
	// then in the order they were added.
	FrontierDue(ctx context.Context, t time.Time, limit int) ([]FrontierEntry, error)
	// FrontierGet returns one entry, or ErrNotFound.
	FrontierGet(ctx context.Context, url string) (FrontierEntry, error)
	// FrontierStats counts the entries, those due at or before t among them.
	FrontierStats(ctx context.Context, t time.Time) (FrontierStats, error)
}

// FrontierTx changes a frontier inside Write.
type FrontierTx interface {
	// FrontierAdd queues entries whose URL is not in the frontier yet; known URLs are left
	// as they are.
	FrontierAdd(ctx context.Context, entries []FrontierEntry) error
	// FrontierSet stores an entry as given (its outcome), adding it when it is new; a known
	// entry keeps its priority.
	FrontierSet(ctx context.Context, e FrontierEntry) error
}
