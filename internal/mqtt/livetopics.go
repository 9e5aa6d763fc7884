package mqtt

import (
	"encoding/json"
	"fmt"
	"sync"

	paho "github.com/eclipse/paho.mqtt.golang"

	"sportsdb/internal/record"
)

// A live score entry is also published under its sport and event, which its delete no
// longer names (the record is gone). The session keeps that topic of every entry: of those
// stored, from the store, and of those published before and deleted while no publisher ran,
// from the broker's retained messages, so that the delete, published on resuming, clears it.

// learnLiveTopics fills liveTopics, and says online: its own "online", sent after the
// subscription to the retained messages, comes back after every one of them.
func (s *session) learnLiveTopics() error {
	t := s.p.topics()
	var mu sync.Mutex
	found := map[string]string{}
	synced := make(chan struct{})
	var once sync.Once
	filters := map[string]byte{t.prefix + "/livescore/+/+": 1, t.status(): 1}
	sub := s.c.SubscribeMultiple(filters, func(_ paho.Client, m paho.Message) {
		if m.Topic() == t.status() {
			if !m.Retained() {
				once.Do(func() { close(synced) })
			}
			return
		}
		var entry struct {
			ID string `json:"idLiveScore"`
		}
		if json.Unmarshal(m.Payload(), &entry) == nil && entry.ID != "" {
			mu.Lock()
			found[entry.ID] = m.Topic()
			mu.Unlock()
		}
	})
	if err := await(s.ctx, sub, s.p.o.AckTimeout); err != nil {
		return fmt.Errorf("subscribe to the live score topics: %w", err)
	}
	if err := await(s.ctx, s.c.Publish(t.status(), 1, true, online), s.p.o.AckTimeout); err != nil {
		return fmt.Errorf("publish online: %w", err)
	}
	err := waitDone(s.ctx, synced, s.p.o.AckTimeout)
	_ = await(s.ctx, s.c.Unsubscribe(t.prefix+"/livescore/+/+", t.status()), s.p.o.AckTimeout)
	if err != nil {
		return fmt.Errorf("read the retained live score topics: %w", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for id, topic := range found {
		s.liveTopics[id] = topic
	}
	return s.p.src.Scan(s.ctx, record.LiveScore, func(r record.Record) error {
		s.liveTopics[r.Str("idLiveScore")] = t.live(r.Str("strSport"), r.Str("idEvent"))
		return nil
	})
}
