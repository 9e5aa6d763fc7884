package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"sportsdb/internal/clock"
	"sportsdb/internal/config"
	"sportsdb/internal/mqtt"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
)

// mqttChecked refuses MQTT settings that cannot work, before anything is opened.
func mqttChecked(c *config.Config) error {
	if len(c.MQTTTeams) > 0 && c.MQTT == "" {
		return errors.New("--mqtt-teams (SPORTSDB_MQTT_TEAMS) needs --mqtt (SPORTSDB_MQTT)")
	}
	if c.MQTT != "" {
		_, err := mqtt.ParseBroker(c.MQTT)
		return err
	}
	return nil
}

// startMQTT starts publishing the change feed to the broker of --mqtt, in the background:
// a broker that is down delays the publishing, never the serving. stop ends it, releasing
// the lease so another replica takes over at once.
func startMQTT(c *config.Config, st store.Store, srv *server.Server, logger *slog.Logger, images func(context.Context, []byte) []byte) (stop func(), err error) {
	if c.MQTT == "" {
		return func() {}, nil
	}
	broker, err := mqtt.ParseBroker(c.MQTT)
	if err != nil {
		return nil, err
	}
	src, ok := st.(mqtt.Source)
	if !ok {
		return nil, fmt.Errorf("mqtt: the store keeps no publishing progress")
	}
	metrics := mqtt.NewMetrics()
	if err := srv.RegisterCollectors(metrics.Collectors()...); err != nil {
		return nil, err
	}
	// Leases run on the wall clock even when SPORTSDB_NOW pins the data clock.
	p := mqtt.New(src, mqtt.Options{Broker: broker, Prefix: c.MQTTPrefix, Teams: c.MQTTTeams,
		Leases: clock.System{}, Data: c.Clock(), Log: logger, Metrics: metrics, Images: images})
	return inBackground(p.Run), nil
}
