package server_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
	"sportsdb/internal/server"
)

// No access log line holds a key, whatever path the key was sent in: a path a route table
// names shows {key}, any other path only its route name, and no line holds the query.
func TestAccessLogNeverHoldsKeys(t *testing.T) {
	var log bytes.Buffer
	env := apitest.New(t, apitest.Options{AccessLog: server.NewAccessLog(&log, false)})
	for _, key := range []string{env.PremiumKey, "SECRETKEY"} {
		for _, p := range []string{
			"/api/v1/json/KEY/all_sports.php", "/api/v2/json/KEY/livescore.php?s=Soccer",
			"/api/v2/json/KEY/lookup/team/133604", "/api/v2/json/KEY/all_sports.php",
			"//api/v1/json/KEY/all_sports.php", "/api/v1/json//KEY/all_sports.php",
			"/API/v1/json/KEY/all_sports.php", "/api/v1/KEY/all_sports.php",
			"/api/v3/json/KEY/all_sports.php", "/%61pi/v1/json/KEY/all_sports.php",
			"/api/v1/json/../v1/json/KEY/all_sports.php", "/api/v1/json/KEY/unknown_file.php",
			"/api/v1/json/KEY", "/api/v1/json/KEY/", "/api/v2/json/search/KEY", "/KEY",
			"/api/v1/json/123/all_sports.php?k=KEY", "/api/v2/json/search/team/x?KEY",
		} {
			for _, method := range []string{http.MethodGet, http.MethodOptions, http.MethodPost} {
				log.Reset()
				env.Do(t, method, strings.ReplaceAll(p, "KEY", key), "Origin", "https://app.example")
				if line := log.String(); line == "" || strings.Contains(line, key) {
					t.Errorf("%s %s: logged %q", method, p, line)
				}
			}
		}
	}
	env.Get(t, "/api/v1/json/"+env.FreeKey+"/all_sports.php")
	if !strings.Contains(log.String(), `path=/api/v1/json/{key}/all_sports.php`) {
		t.Errorf("a v1 path is logged with {key}: %s", log.String())
	}
}
