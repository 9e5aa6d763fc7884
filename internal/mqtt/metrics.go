package mqtt

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the publisher's figures on /metrics.
type Metrics struct {
	published  prometheus.Counter
	errors     prometheus.Counter
	cursor     prometheus.Gauge
	lag        prometheus.Gauge
	publishing prometheus.Gauge
}

// NewMetrics returns the publisher's metrics, unregistered.
func NewMetrics() *Metrics {
	return &Metrics{
		published: prometheus.NewCounter(prometheus.CounterOpts{Name: "sportsdb_mqtt_published_total",
			Help: "MQTT messages the broker acknowledged."}),
		errors: prometheus.NewCounter(prometheus.CounterOpts{Name: "sportsdb_mqtt_errors_total",
			Help: "Failures of MQTT publishing: connections, acknowledgements, the store."}),
		cursor: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sportsdb_mqtt_cursor",
			Help: "The change feed cursor published up to and stored."}),
		lag: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sportsdb_mqtt_lag_seconds",
			Help: "From the commit of the last change published to the broker's acknowledgement."}),
		publishing: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sportsdb_mqtt_publishing",
			Help: "1 while this process holds the lease and is connected to the broker."}),
	}
}

// Collectors are the metrics to register.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.published, m.errors, m.cursor, m.lag, m.publishing}
}
