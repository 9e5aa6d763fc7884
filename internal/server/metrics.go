package server

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/record"
)

// metrics are labelled by route name and status. The label sets are fixed when the server
// starts: routes are the names of the API route tables (everything else is api.OtherRoute)
// and statuses the codes the server writes (any other is "other"), so no request, however
// made, adds a series.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	cache    *prometheus.CounterVec
	finds    *prometheus.CounterVec
	// routes holds the series of each route, made at start: finding them by label values
	// would cost two hashes of the labels and two lookups on every request.
	routes map[string]*routeSeries
}

// statuses are the codes the server answers with; each has its series per route.
var statuses = [...]int{http.StatusOK, http.StatusNoContent, http.StatusNotModified, http.StatusBadRequest,
	http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusTooManyRequests, respond.StatusClientClosed,
	http.StatusInternalServerError, http.StatusNotImplemented, http.StatusServiceUnavailable}

// routeSeries are the series of one route, made on first use (an unused route or status
// writes no line), only ever from the fixed label sets.
type routeSeries struct {
	name string
	// requests are the counters of statuses, in order, and of any other status last.
	requests [len(statuses) + 1]atomic.Pointer[prometheus.Counter]
	duration atomic.Pointer[prometheus.Observer]
}

func newMetrics(routes []string) *metrics {
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
		finds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sportsdb_response_cache_finds_total",
			Help: "Queries of computed answers by where their records came from: kept records brought up to date, or the store.",
		}, []string{"source"}),
		routes: make(map[string]*routeSeries, len(routes)),
	}
	for _, r := range routes {
		if m.routes[r] == nil {
			m.routes[r] = &routeSeries{name: r}
		}
	}
	m.reg.MustRegister(m.requests, m.duration, m.cache, m.finds,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observe(route string, status int, d time.Duration) {
	if status == 0 {
		status = http.StatusOK
	}
	rs, ok := m.routes[route]
	if !ok {
		rs = m.routes[api.OtherRoute]
	}
	i := len(statuses) // any other status
	for j, s := range statuses {
		if s == status {
			i = j
			break
		}
	}
	c := rs.requests[i].Load()
	if c == nil {
		code := "other"
		if i < len(statuses) {
			code = strconv.Itoa(statuses[i])
		}
		// Two first requests may both get here: the vector gives both the same counter.
		v := m.requests.WithLabelValues(rs.name, code)
		c = &v
		rs.requests[i].Store(c)
	}
	(*c).Inc()
	o := rs.duration.Load()
	if o == nil {
		v := m.duration.WithLabelValues(rs.name)
		o = &v
		rs.duration.Store(o)
	}
	(*o).Observe(d.Seconds())
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func appendQuoted(b []byte, s string) []byte { return record.AppendString(b, s) }
