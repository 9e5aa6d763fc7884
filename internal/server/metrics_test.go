package server_test

import (
	"math/rand/v2"
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
