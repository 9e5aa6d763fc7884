package app

import (
	"context"
	"net/http"
	"runtime/debug"
	"time"

	"sportsdb/internal/admin"
	"sportsdb/internal/api"
	"sportsdb/internal/api/records"
	"sportsdb/internal/api/sportarr"
	v1 "sportsdb/internal/api/v1"
	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/calendar"
	"sportsdb/internal/clock"
	"sportsdb/internal/openapi"
	"sportsdb/internal/record"
	"sportsdb/internal/respcache"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/xmltv"
)

// Mounts builds what the server mounts, each once: the API versions (v2's table asked
// first: a v2 group as the first segment wins over reading that segment as a key, so
// /api/v2/json/search/x.php is v2's), the calendars, TV guides and Sportarr's dialect (over
// the APIs' rows, and the change feed when deps.Store has one), the API's document from the same API
// values, and the surfaces others hand over (extra), after the calendars. The APIs and
// calendars read deps.Store through respcache.Tracking, which the response cache needs, on
// deps.Clock. Building the APIs registers their default caps in deps.Caps, where overrides
// already loaded stay. The records API writes through deps.Store itself: it reads what
// it writes, in its own transactions, and nothing of it is cached.
func Mounts(deps api.Deps, extra ...server.Surface) server.Mounts {
	writes := records.New(deps.Store, deps.Clock)
	tracked := respcache.Tracking(deps.Store)
	var feed store.Feed
	if f, ok := deps.Store.(store.Feed); ok {
		feed = respcache.TrackingFeed(f)
	}
	clk, table := deps.Clock, deps.Caps
	deps.Store = tracked
	a1, a2 := v1.New(deps), v2.New(deps)
	surfaces := []server.Surface{calendar.NewSurface(tracked, clk), xmltv.NewSurface(tracked, clk), sportarr.NewSurface(a1, a2, tracked, feed)}
	return server.Mounts{
		APIs:     []server.API{{Name: "v2", Mount: a2}, {Name: "v1", Mount: a1}},
		Surfaces: append(surfaces, extra...),
		Writes:   writes,
		LiveView: v2.RecordView,
		Docs: pages{docs{openapi.NewHandler(func() openapi.Source { return openapi.For(a1, a2, table, version()) })},
			admin.Handler{}},
	}
}

// docs is the document handler with the route names it can give.
type docs struct{ *openapi.Handler }

func (docs) Routes() []string { return openapi.Routes }

// pages are the keyless pages the server serves (the API's document, the scorekeeper's
// page), each asked in turn whether a path is its own.
type pages []server.Docs

func (ps pages) Route(path string) (string, bool) {
	for _, p := range ps {
		if name, ok := p.Route(path); ok {
			return name, true
		}
	}
	return "", false
}

func (ps pages) Serve(w http.ResponseWriter, r *http.Request, notFound func(), fail func(error)) {
	for _, p := range ps {
		if _, ok := p.Route(r.URL.EscapedPath()); ok {
			p.Serve(w, r, notFound, fail)
			return
		}
	}
	notFound()
}

func (ps pages) Routes() []string {
	var names []string
	for _, p := range ps {
		names = append(names, p.Routes()...)
	}
	return names
}

// version is the module version the binary was built as, the document's version.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "dev"
}

// boundRecords is the store the mounts of a Prepared read: they are built when the
// configuration is checked, before the store is open, and read the store Server binds.
type boundRecords struct{ store.Records }

// FindNames is the name index's search when the bound store has one.
func (b *boundRecords) FindNames(ctx context.Context, q store.Query, field string) (store.Names, bool, error) {
	if nf, ok := b.Records.(store.NameFinder); ok {
		return nf.FindNames(ctx, q, field)
	}
	return store.Names{}, false, nil
}

// RecordsBySeqs reads the records FindNames found, when the bound store has a name index.
func (b *boundRecords) RecordsBySeqs(ctx context.Context, k *record.Kind, seqs []int64, version int64) ([]record.Record, bool, error) {
	if nf, ok := b.Records.(store.NameFinder); ok {
		return nf.RecordsBySeqs(ctx, k, seqs, version)
	}
	return nil, false, nil
}

// Changes reads the change feed of the bound store (a store.Store is one).
func (b *boundRecords) Changes(ctx context.Context, since int64, kinds []*record.Kind, limit int) ([]store.Change, int64, error) {
	f, ok := b.Records.(store.Feed)
	if !ok {
		return nil, 0, nil
	}
	return f.Changes(ctx, since, kinds, limit)
}

// LatestCursor is the bound store's latest change (0 when it keeps no feed).
func (b *boundRecords) LatestCursor(ctx context.Context) (int64, error) {
	if f, ok := b.Records.(store.Feed); ok {
		return f.LatestCursor(ctx)
	}
	return 0, nil
}

// History reads a record's history from the bound store (a store.Store keeps one).
func (b *boundRecords) History(ctx context.Context, k *record.Kind, id string) ([]store.Version, error) {
	if h, ok := b.Records.(store.History); ok {
		return h.History(ctx, k, id)
	}
	return nil, nil
}

// boundClock is the data clock of the mounts of a Prepared, bound with the store.
type boundClock struct{ clock.Clock }

func (b *boundClock) Now() time.Time { return b.Clock.Now() }
