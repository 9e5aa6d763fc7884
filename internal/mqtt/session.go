package mqtt

import (
	"context"
	"errors"
	"fmt"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	v2 "sportsdb/internal/api/v2"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// page is how many changes are read, published and acknowledged before the cursor is
// stored; batch how many messages of a snapshot are in flight at once.
const (
	page  = 500
	batch = 256
)

// session is one connection of the lease holder to the broker.
type session struct {
	p   *Publisher
	c   paho.Client
	ctx context.Context
	// pending are the messages published and not yet acknowledged.
	pending []paho.Token
	// sent is the last payload of each team sensor topic, sent again only when it changes.
	sent map[string]string
	// liveTopics is the {sport}/{idEvent} topic of each live score entry published, to
	// clear when the entry is deleted (its record is gone by then).
	liveTopics map[string]string
}

func (s *session) run() error {
	ctx := s.ctx
	if err := s.learnLiveTopics(); err != nil {
		return err
	}
	s.p.o.Metrics.publishing.Set(1)
	if err := s.refreshTeams(); err != nil {
		return err
	}
	cursor, err := s.p.src.PushCursor(ctx, pushName)
	if err != nil {
		return err
	}
	if cursor == store.NoCursor {
		if cursor, err = s.snapshot(); err != nil {
			return err
		}
	}
	s.p.o.Metrics.cursor.Set(float64(cursor))
	return s.follow(cursor)
}

func (s *session) stored(cursor int64) {
	s.p.o.Metrics.cursor.Set(float64(cursor))
	if s.p.o.Stored != nil {
		s.p.o.Stored(cursor)
	}
}

// follow publishes every change after cursor whenever the data version moves, until the
// session ends.
func (s *session) follow(cursor int64) error {
	ctx := s.ctx
	wake := make(chan struct{}, 1)
	if l, ok := s.p.src.(Listener); ok {
		go s.listen(l, wake)
	}
	poll := time.NewTicker(s.p.o.Poll)
	defer poll.Stop()
	refresh := time.NewTicker(s.p.o.Refresh)
	defer refresh.Stop()
	seen := int64(-1)
	for {
		v, err := s.p.src.DataVersion(ctx)
		if err != nil {
			return err
		}
		if v != seen {
			var teams bool
			if cursor, teams, err = s.publishChanges(cursor); err != nil {
				return err
			}
			if teams {
				if err := s.refreshTeams(); err != nil {
					return err
				}
			}
			seen = v
		}
		select {
		case <-ctx.Done():
			return nil
		case <-poll.C:
		case <-wake:
		case <-refresh.C:
			if err := s.refreshTeams(); err != nil {
				return err
			}
		}
	}
}

func (s *session) listen(l Listener, wake chan struct{}) {
	for s.ctx.Err() == nil {
		err := l.Listen(s.ctx, func() {
			select {
			case wake <- struct{}{}:
			default:
			}
		})
		if s.ctx.Err() != nil {
			return
		}
		s.p.o.Log.Warn("mqtt: listen for changes", "err", err)
		wait(s.ctx, s.p.o.MinBackoff)
	}
}

// publishChanges publishes the changes after cursor a page at a time, storing the cursor
// once the broker acknowledged a page's messages, and says whether any change could move a
// team sensor.
func (s *session) publishChanges(cursor int64) (int64, bool, error) {
	ctx := s.ctx
	teams := false
	for {
		cs, next, err := s.p.src.Changes(ctx, cursor, nil, page)
		if errors.Is(err, store.ErrCursorExpired) {
			// The publisher was away longer than the feed keeps changes: publish the
			// whole state again.
			s.p.o.Log.Warn("mqtt: the stored cursor expired; publishing every record again")
			cursor, err = s.snapshot()
			return cursor, true, err
		}
		if err != nil {
			return cursor, teams, err
		}
		for _, c := range cs {
			if err := s.change(c); err != nil {
				return cursor, teams, err
			}
			teams = teams || c.Kind == record.Event || c.Kind == record.LiveScore || c.Kind == record.Team
		}
		if err := s.flush(); err != nil {
			return cursor, teams, err
		}
		if next > cursor {
			if err := s.p.src.SavePushCursor(ctx, pushName, s.p.o.Holder, next); err != nil {
				return cursor, teams, err
			}
			cursor = next
			s.stored(cursor)
		}
		if len(cs) > 0 {
			s.p.o.Metrics.lag.Set(max(time.Since(cs[len(cs)-1].Time).Seconds(), 0))
		}
		if len(cs) < page {
			return cursor, teams, nil
		}
	}
}

// change publishes one change: the record as it is now, or, for a delete, an empty
// retained payload that clears its topics.
func (s *session) change(c store.Change) error {
	if c.Op == store.OpDelete {
		s.publish(s.p.topics().record(c.Kind, c.ID), nil)
		if c.Kind == record.LiveScore {
			if t, ok := s.liveTopics[c.ID]; ok {
				s.publish(t, nil)
				delete(s.liveTopics, c.ID)
			}
		}
		return nil
	}
	r, err := s.p.src.Get(s.ctx, c.Kind, c.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil // deleted again since: a later delete in the feed clears it
	}
	if err != nil {
		return fmt.Errorf("change %d: %w", c.Cursor, err)
	}
	return s.record(r, c.ID)
}

// record publishes a record to its topics.
func (s *session) record(r record.Record, id string) error {
	body, err := record.AppendView(nil, r, v2.RecordView(r.Kind), false)
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.Kind.Name, id, err)
	}
	if s.p.o.Images != nil {
		body = s.p.o.Images(s.ctx, body)
	}
	s.publish(s.p.topics().record(r.Kind, id), body)
	if r.Kind == record.LiveScore {
		t := s.p.topics().live(r.Str("strSport"), r.Str("idEvent"))
		if old, ok := s.liveTopics[id]; ok && old != t {
			s.publish(old, nil)
		}
		s.liveTopics[id] = t
		s.publish(t, body)
	}
	return nil
}

// snapshot publishes every record of the store, for a publisher with no stored cursor: a
// subscriber then finds the whole current state retained. The cursor is read first, so a
// change committed during the snapshot is published again after it.
func (s *session) snapshot() (int64, error) {
	ctx := s.ctx
	latest, err := s.p.src.LatestCursor(ctx)
	if err != nil {
		return 0, err
	}
	s.p.o.Log.Info("mqtt: publishing every record (no stored cursor)")
	for _, k := range record.Kinds {
		err := s.p.src.Scan(ctx, k, func(r record.Record) error {
			id, err := r.ID()
			if err != nil {
				return err
			}
			if err := s.record(r, id); err != nil {
				return err
			}
			if len(s.pending) >= batch {
				return s.flush()
			}
			return nil
		})
		if err != nil {
			return 0, fmt.Errorf("publish every %s: %w", k.Name, err)
		}
	}
	if err := s.flush(); err != nil {
		return 0, err
	}
	if err := s.p.src.SavePushCursor(ctx, pushName, s.p.o.Holder, latest); err != nil {
		return 0, err
	}
	s.stored(latest)
	return latest, nil
}

// publish sends a retained message at QoS 1; flush waits for its acknowledgement. An empty
// payload clears the topic's retained message.
func (s *session) publish(topic string, payload []byte) {
	if payload == nil {
		payload = []byte{}
	}
	s.pending = append(s.pending, s.c.Publish(topic, 1, true, payload))
}

// flush waits until the broker acknowledged every pending message.
func (s *session) flush() error {
	for _, t := range s.pending {
		if err := await(s.ctx, t, s.p.o.AckTimeout); err != nil {
			s.pending = s.pending[:0]
			return fmt.Errorf("publish: %w", err)
		}
	}
	s.p.o.Metrics.published.Add(float64(len(s.pending)))
	s.pending = s.pending[:0]
	return nil
}
