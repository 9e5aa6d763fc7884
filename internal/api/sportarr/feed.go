package sportarr

import (
	"errors"
	"fmt"
	"time"

	"sportsdb/internal/live"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// defaultChanges is the change feed's page size: Sportarr asks for 500 changes a poll.
const defaultChanges = 500

// feedKinds are the kinds whose changes Sportarr acts on: it refreshes a league's seasons
// when one of its events or seasons changes, and the whole league when the league does.
var feedKinds = []*record.Kind{record.Event, record.League, record.Season}

// changes answers changes?since=&limit= in the names of Sportarr's feed:
// {"changes":[{"seq","entity","id","league","season","change","ts"}],"next","more","resync"}.
// since 0 (a new consumer) and a cursor the feed no longer covers answer "resync" with the
// latest cursor, as Sportarr expects: it then refreshes its leagues in full and polls on from
// there. A change whose league cannot be told (a write that did not record its index values,
// a delete) asks for a resync too. The parameters follow the change feed's rule (docs/CONTRACT.md section 9):
// digits only, each given once, correctly escaped; anything else is HTTP 400.
func changes(c *call, _ []string) ([]byte, error) {
	q, err := live.Query(c.r)
	if err != nil {
		return nil, err
	}
	since, err := live.ParseSince(q)
	if err != nil {
		return nil, err
	}
	limit, err := live.ParseLimit(q, defaultChanges)
	if err != nil {
		return nil, err
	}
	f := feedPage{}
	if c.s.feed != nil {
		if f, err = c.readFeed(since, limit); err != nil {
			return nil, fmt.Errorf("sportarr: changes: %w", err)
		}
	}
	return f.body(), nil
}

var changesSchema = object(map[string]any{
	"changes": arrayOf(object(withMember(withMember(textMembers("entity", "id", "league", "season", "change"),
		"seq", map[string]any{"type": "integer"}), "ts", map[string]any{"type": "string"}),
		"seq", "entity", "id", "league", "season", "change", "ts")),
	"next": map[string]any{"type": "integer"}, "more": map[string]any{"type": "boolean"}, "resync": map[string]any{"type": "boolean"},
}, "changes", "next", "more", "resync")

// feedPage is one answer of the feed.
type feedPage struct {
	entries      []entry
	next         int64
	more, resync bool
}

// entry is one change as Sportarr reads it.
type entry struct {
	seq                        int64
	entity, id, league, season string
	change                     string
	ts                         time.Time
}

func (c *call) readFeed(since int64, limit int) (feedPage, error) {
	if since <= 0 {
		latest, err := c.s.feed.LatestCursor(c.ctx)
		return feedPage{next: latest, resync: latest > 0}, err
	}
	cs, next, err := c.s.feed.Changes(c.ctx, since, feedKinds, limit)
	if errors.Is(err, store.ErrCursorExpired) {
		latest, err := c.s.feed.LatestCursor(c.ctx)
		return feedPage{next: latest, resync: true}, err
	}
	if err != nil {
		return feedPage{}, err
	}
	f := feedPage{next: next, more: len(cs) == limit}
	for _, ch := range cs {
		es, ok, err := c.entries(ch)
		if err != nil {
			return feedPage{}, err
		}
		f.entries = append(f.entries, es...)
		f.resync = f.resync || !ok
	}
	return f, nil
}

// entries are a change as Sportarr reads it: one per league it names (an event moved from
// one league to another names both). ok is false when the change's league cannot be told.
func (c *call) entries(ch store.Change) ([]entry, bool, error) {
	e := entry{seq: ch.Cursor, entity: ch.Kind.Name, id: ch.ID, change: "updated", ts: ch.Time}
	if ch.Op == store.OpDelete {
		e.change = "deleted"
	}
	leagues, seasons := keyValues(ch, "c_idleague"), keyValues(ch, "c_strseason")
	switch {
	case ch.Kind == record.League:
		leagues = []string{ch.ID}
	case len(leagues) == 0 && ch.Op == store.OpUpsert:
		rec, err := c.s.st.Get(c.ctx, ch.Kind, ch.ID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		leagues, seasons = []string{rec.Str("idLeague")}, []string{rec.Str("strSeason")}
	}
	var out []entry
	for _, l := range leagues {
		if l == "" {
			continue
		}
		e.league = l
		if len(seasons) > 0 {
			e.season = seasons[len(seasons)-1] // the season after the change
		}
		out = append(out, e)
	}
	return out, len(out) > 0, nil
}

// keyValues are the values a change names in an index column.
func keyValues(ch store.Change, column string) []string {
	var out []string
	for _, k := range ch.Keys {
		if k.Column == column {
			out = append(out, k.Value)
		}
	}
	return out
}

func (f feedPage) body() []byte {
	b := []byte(`{"changes":[`)
	for i, e := range f.entries {
		if i > 0 {
			b = append(b, ',')
		}
		season := str(e.season)
		if e.season == "" || e.entity == record.League.Name {
			season = null
		}
		b = appendMembers(b, member{"seq", num(e.seq)}, member{"entity", str(e.entity)}, member{"id", str(e.id)},
			member{"league", str(e.league)}, member{"season", season}, member{"change", str(e.change)},
			member{"ts", str(e.ts.UTC().Format(time.RFC3339))})
	}
	return fmt.Appendf(b, `],"next":%d,"more":%t,"resync":%t}`, f.next, f.more, f.resync)
}
