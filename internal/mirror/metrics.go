package mirror

import "github.com/prometheus/client_golang/prometheus"

// Metrics count a mirror's and read-through's upstream requests for Prometheus. Labels are
// outcomes and sources, never a key or a URL. The server registers them (Collectors) when
// it runs read-through or a mirror beside itself.
type Metrics struct {
	requests *prometheus.CounterVec
	records  *prometheus.CounterVec
}

// NewMetrics makes the counters; pass the same Metrics to Options and FetcherOptions.
func NewMetrics() *Metrics {
	return &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sportsdb_upstream_requests_total",
			Help: "Requests to the upstream API by source (mirror, readthrough) and outcome (ok, message, refused, failed, budget_spent, paused).",
		}, []string{"source", "outcome"}),
		records: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sportsdb_upstream_records_total",
			Help: "Records stored from upstream answers, by source.",
		}, []string{"source"}),
	}
}

// Collectors are what a registry registers.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.requests, m.records}
}

// count notes one outcome; a nil Metrics counts nothing.
func (m *Metrics) count(source, outcome string, records int) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues(source, outcome).Inc()
	if records > 0 {
		m.records.WithLabelValues(source).Add(float64(records))
	}
}
