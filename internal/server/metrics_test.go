package server_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
)

// The series of /metrics are fixed when the server starts: requests for made-up files and
// paths, with wrong keys or none, add no line, however many there are.
func TestMetricsSeriesAreBounded(t *testing.T) {
	env := apitest.New(t, apitest.Options{KeyFails: 1 << 30})
	rnd := rand.New(rand.NewPCG(1, 2))
	name := func() string {
		const letters = "abcdefghijklmnopqrstuvwxyz_"
		b := make([]byte, 1+rnd.IntN(60))
		for i := range b {
			b[i] = letters[rnd.IntN(len(letters))]
		}
		return string(b)
	}
	send := func() {
		file, wrong := name()+".php", name()
		for _, r := range []struct{ path, key string }{
			{"/api/v1/json/" + wrong + "/" + file, ""},
			{"/api/v1/json/" + env.FreeKey + "/" + file, ""},
			{"/api/v1/json/" + wrong + "/searchteams.php?t=" + wrong, ""},
			{"/api/v2/json/" + wrong + "/" + file, ""},
			{"/api/v2/json/" + file, wrong},
			{"/api/v2/json/" + wrong + "/search/" + wrong, ""},
			{"/api/v2/json/search/team/" + wrong, wrong},
			{"/api/v2/json/search/" + wrong, env.PremiumKey},
			{"/" + wrong, ""},
		} {
			env.Get(t, r.path, "X-API-KEY", r.key)
		}
	}
	send()         // the first of each kind makes its series,
	series(t, env) // and so does the first read of /metrics
	before := series(t, env)
	for range 300 {
		send()
	}
	if after := series(t, env); after != before {
		t.Errorf("/metrics has %d series lines after 2700 made-up requests, %d before", after, before)
	}
}

// series counts the lines of sportsdb's own series in /metrics.
func series(t *testing.T, env *apitest.Env) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(string(env.Get(t, "/metrics").Body), "\n") {
		if strings.HasPrefix(line, "sportsdb_") {
			n++
		}
	}
	return n
}

// /metrics shows the store's connection pools: their size, their connections by state and
// how often queries waited for one, on SQLite and on PostgreSQL alike (each has a reader
// and a writer pool). That waits are counted is tested on the pools themselves
// (the SQLite store's TestPoolStatsCountWaits).
func TestMetricsShowConnectionPools(t *testing.T) {
	env := apitest.New(t, apitest.Options{})
	env.Get(t, "/api/v1/json/"+env.FreeKey+"/all_sports.php")
	body := string(env.Get(t, "/metrics").Body)
	pools := []string{"read", "write"}
	for _, pool := range pools {
		if max := metricValue(t, body, `sportsdb_db_pool_max_connections{pool="`+pool+`"}`); max < 1 {
			t.Errorf("the %s pool may open %v connections", pool, max)
		}
		// Each series is there: metricValue fails the test otherwise. What they count is
		// tested on the pools (above).
		for _, series := range []string{`sportsdb_db_pool_connections{pool="` + pool + `",state="in_use"}`,
			`sportsdb_db_pool_waits_total{pool="` + pool + `"}`, `sportsdb_db_pool_wait_seconds_total{pool="` + pool + `"}`} {
			metricValue(t, body, series)
		}
	}
	// The request's reads (its key, the sports) left a connection idle for the next.
	if idle := metricValue(t, body, `sportsdb_db_pool_connections{pool="`+pools[0]+`",state="idle"}`); idle < 1 {
		t.Errorf("the %s pool holds %v idle connections after a request, want at least 1", pools[0], idle)
	}
}

// metricValue reads the value of one series of a /metrics body; the test fails when the
// body has no such series.
func metricValue(t *testing.T, body, series string) float64 {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	t.Fatalf("/metrics has no %s", series)
	return 0
}
