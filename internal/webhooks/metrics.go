package webhooks

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the deliverer's figures on /metrics: totals over every webhook, never a
// label naming one (its URL or secret).
type Metrics struct {
	delivered  prometheus.Counter
	failed     prometheus.Counter
	disabled   prometheus.Counter
	delivering prometheus.Gauge
}

// NewMetrics returns the deliverer's metrics, unregistered.
func NewMetrics() *Metrics {
	return &Metrics{
		delivered: prometheus.NewCounter(prometheus.CounterOpts{Name: "sportsdb_webhook_delivered_total",
			Help: "Webhook messages a receiver answered with a 2xx."}),
		failed: prometheus.NewCounter(prometheus.CounterOpts{Name: "sportsdb_webhook_failures_total",
			Help: "Webhook delivery attempts that failed (an error status, no answer, a refused address), to be retried."}),
		disabled: prometheus.NewCounter(prometheus.CounterOpts{Name: "sportsdb_webhook_disabled_total",
			Help: "Webhooks disabled after failing for 24 hours."}),
		delivering: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sportsdb_webhooks_delivering",
			Help: "Webhooks whose lease this process holds (it delivers them)."}),
	}
}

// Collectors are the metrics to register.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.delivered, m.failed, m.disabled, m.delivering}
}
