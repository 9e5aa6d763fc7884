package server

import (
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"sportsdb/internal/record"
)

// metrics are labelled by route name (an endpoint, never a key or a parameter) and status.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	cache    *prometheus.CounterVec
	// series holds the counter and histogram of each route and status seen: finding them by
	// label values costs two hashes of the labels and two lookups on every request.
	series sync.Map // routeStatus -> *routeSeries
}

type routeStatus struct {
	route  string
	status int
}

type routeSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sportsdb_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sportsdb_http_request_duration_seconds", Help: "Time to answer, by route.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1, 2.5},
		}, []string{"route"}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sportsdb_response_cache_total", Help: "Response cache lookups by result.",
		}, []string{"result"}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.cache,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observe(route string, status int, d time.Duration) {
	if status == 0 {
		status = http.StatusOK
	}
	k := routeStatus{route, status}
	v, ok := m.series.Load(k)
	if !ok {
		v, _ = m.series.LoadOrStore(k, &routeSeries{requests: m.requests.WithLabelValues(route, strconv.Itoa(status)),
			duration: m.duration.WithLabelValues(route)})
	}
	rs := v.(*routeSeries)
	rs.requests.Inc()
	rs.duration.Observe(d.Seconds())
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func appendQuoted(b []byte, s string) []byte { return record.AppendString(b, s) }

func unescape(s string) (string, error) { return url.PathUnescape(s) }
