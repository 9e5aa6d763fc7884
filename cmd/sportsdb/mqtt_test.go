package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bad broker URL is refused before anything is opened, without repeating its password;
// --mqtt-teams needs --mqtt.
func TestServeRefusesBadMQTTSettings(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		env  []string
		want string
	}{
		{[]string{"SPORTSDB_MQTT=tcp://u:hunter2@127.0.0.1:1883"}, `SPORTSDB_MQTT: unknown scheme "tcp"`},
		{[]string{"SPORTSDB_MQTT=mqtt://u:hunter2@/"}, "no broker host"},
		{[]string{"SPORTSDB_MQTT_TEAMS=133604"}, "--mqtt-teams (SPORTSDB_MQTT_TEAMS) needs --mqtt"},
	} {
		out, ok := sportsdb(t, dir, c.env, "serve", "--addr", "127.0.0.1:0")
		if ok || !strings.Contains(out, c.want) || strings.Contains(out, "hunter2") {
			t.Errorf("%v: %v %s, want refused with %q and no password", c.env, ok, out, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sportsdb.db")); err == nil {
		t.Error("a refused serve created a database")
	}
}

// A broker that cannot be reached does not stop the server: it serves, and /metrics counts
// the failed connections.
func TestServeWithTheBrokerDown(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	down := ln.Addr().String()
	ln.Close()
	addr, _ := startServeCollect(t, t.TempDir(), []string{"SPORTSDB_MQTT=mqtt://u:hunter2@" + down})
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "sportsdb_mqtt_errors_total") ||
		!strings.Contains(string(body), "sportsdb_mqtt_publishing 0") {
		t.Fatalf("/metrics %d:\n%s", resp.StatusCode, body)
	}
	if out, ok := sportsdb(t, t.TempDir(), []string{"SPORTSDB_ADDR=" + addr}, "healthcheck"); !ok {
		t.Errorf("healthcheck: %s", out)
	}
}
