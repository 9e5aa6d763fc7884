package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Message is the body of a delivery: one change of the feed, with the record as the v2
// lookup of its kind writes it (none for a delete; null for an upsert whose record was
// deleted since, whose delete follows).
type Message struct {
	Cursor string          `json:"cursor"`
	Kind   string          `json:"kind"`
	ID     string          `json:"id"`
	Op     string          `json:"op"`
	Time   string          `json:"time"`
	By     string          `json:"by,omitempty"`
	Record json.RawMessage `json:"record,omitempty"`
}

// leagueFields and teamFields are the fields whose values a webhook's league and team
// filters match, in the record, in its event and in the change's index values.
var (
	leagueFields = []string{"idLeague"}
	teamFields   = []string{"idTeam", "idHomeTeam", "idAwayTeam"}
)

// prepared is a change read for delivery: the record it names (when it still exists) and,
// for a league or team filter, the event that record belongs to.
type prepared struct {
	c     store.Change
	rec   record.Record
	has   bool
	event record.Record
	hasEv bool
}

// prepare reads a change for delivery to w, returns its message, and says whether w's filters select it: its
// kind among the kinds, and the league and team among the ids of the record, its event (a
// live score entry's, a lineup's) or the change's index values before and after (a delete,
// a move). A change of a kind w does not take is passed over before anything is read, and
// the event is read only for a league or team filter, the one thing that looks at it.
// The read and the message are shared with the other webhooks that deliver the change
// (changeReads).
func prepare(ctx context.Context, reads *changeReads, w store.Webhook, c store.Change) ([]byte, bool, error) {
	if len(w.Kinds) > 0 && !slices.Contains(w.Kinds, c.Kind.Name) {
		return nil, false, nil
	}
	p, body, err := reads.read(ctx, c, w.League != "" || w.Team != "")
	if err != nil {
		return nil, false, err
	}
	return body, (w.League == "" || p.names(w.League, "league", leagueFields)) &&
		(w.Team == "" || p.names(w.Team, "team", teamFields)), nil
}

// read reads the change's record, unless it was deleted, and, when withEvent, the event
// that record belongs to.
func (p *prepared) read(ctx context.Context, st store.Records, withEvent bool) error {
	if p.c.Op == store.OpDelete {
		return nil
	}
	c := p.c
	rec, err := st.Get(ctx, c.Kind, c.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return fmt.Errorf("webhooks: read %s %s: %w", c.Kind.Name, c.ID, err)
	}
	p.rec, p.has = rec, true
	ev, ok := record.ByName("event")
	if !withEvent || !ok || c.Kind == ev || !c.Kind.Has("idEvent") || rec.Str("idEvent") == "" {
		return nil
	}
	id := rec.Str("idEvent")
	e, err := st.Get(ctx, ev, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("webhooks: read event %s: %w", id, err)
	}
	p.event, p.hasEv = e, err == nil
	return nil
}

// names says whether the change names id in one of fields, or is itself the record of kind
// with that id.
func (p prepared) names(id, kind string, fields []string) bool {
	if p.c.Kind.Name == kind && p.c.ID == id {
		return true
	}
	for _, f := range fields {
		if p.has && p.rec.Kind.Has(f) && p.rec.Str(f) == id {
			return true
		}
		if p.hasEv && p.event.Str(f) == id {
			return true
		}
		for _, k := range p.c.Keys {
			// An exact index's column is "c_" and the field's name in lower case.
			if k.Value == id && strings.EqualFold(strings.TrimPrefix(k.Column, "c_"), f) {
				return true
			}
		}
	}
	return false
}

// body is the message of a change, as JSON; images, if set, makes its record as delivered
// (Options.Images).
func (p prepared) body(ctx context.Context, images func(context.Context, []byte) []byte) ([]byte, error) {
	m := Message{Cursor: fmt.Sprint(p.c.Cursor), Kind: p.c.Kind.Name, ID: p.c.ID, Op: p.c.Op,
		Time: p.c.Time.UTC().Format(store.ChangeTimeLayout), By: p.c.By}
	if p.c.Op != store.OpDelete {
		m.Record = json.RawMessage("null")
		if p.has {
			rec, err := record.AppendView(nil, p.rec, v2.RecordView(p.rec.Kind), false)
			if err != nil {
				return nil, fmt.Errorf("webhooks: write %s %s: %w", p.c.Kind.Name, p.c.ID, err)
			}
			if images != nil {
				rec = images(ctx, rec)
			}
			m.Record = rec
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the record's bytes as the v2 lookup writes them
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("webhooks: write %s %s: %w", p.c.Kind.Name, p.c.ID, err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
