package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"sportsdb/internal/store"
)

// poolCollector reads the store's connection pools at each scrape: how many connections
// are open, in use and idle, and how often and how long queries waited for one. A query
// that waits is one the pool was too small for; the wait shows in the answer's time.
type poolCollector struct {
	src                           store.Pools
	maxOpen, conns, waits, waited *prometheus.Desc
}

func newPoolCollector(src store.Pools) *poolCollector {
	return &poolCollector{
		src: src,
		maxOpen: prometheus.NewDesc("sportsdb_db_pool_max_connections",
			"Connections the database pool may open.", []string{"pool"}, nil),
		conns: prometheus.NewDesc("sportsdb_db_pool_connections",
			"Open connections of the database pool, by state (in_use, idle).", []string{"pool", "state"}, nil),
		waits: prometheus.NewDesc("sportsdb_db_pool_waits_total",
			"Times a query waited for a connection of the pool.", []string{"pool"}, nil),
		waited: prometheus.NewDesc("sportsdb_db_pool_wait_seconds_total",
			"Time queries spent waiting for a connection of the pool.", []string{"pool"}, nil),
	}
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.maxOpen
	ch <- c.conns
	ch <- c.waits
	ch <- c.waited
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	for _, p := range c.src.PoolStats() {
		ch <- prometheus.MustNewConstMetric(c.maxOpen, prometheus.GaugeValue, float64(p.MaxOpen), p.Pool)
		ch <- prometheus.MustNewConstMetric(c.conns, prometheus.GaugeValue, float64(p.InUse), p.Pool, "in_use")
		ch <- prometheus.MustNewConstMetric(c.conns, prometheus.GaugeValue, float64(p.Idle), p.Pool, "idle")
		ch <- prometheus.MustNewConstMetric(c.waits, prometheus.CounterValue, float64(p.Waits), p.Pool)
		ch <- prometheus.MustNewConstMetric(c.waited, prometheus.CounterValue, p.WaitTime.Seconds(), p.Pool)
	}
}
