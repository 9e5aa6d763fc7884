package mqtt

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/clock"
	"sportsdb/internal/record"
)

// sensorKeys are the keys Home Assistant's MQTT sensor takes in a discovery payload, in
// their full names (https://www.home-assistant.io/integrations/sensor.mqtt/), and those of
// its device and origin maps (https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery).
var (
	sensorKeys = keySet("availability", "availability_mode", "availability_template", "availability_topic",
		"default_entity_id", "device", "device_class", "enabled_by_default", "encoding", "entity_category", "entity_picture",
		"expire_after", "force_update", "icon", "json_attributes_template", "json_attributes_topic",
		"last_reset_value_template", "name", "options", "origin", "payload_available", "payload_not_available",
		"platform", "qos", "state_class", "state_topic", "suggested_display_precision", "unique_id",
		"unit_of_measurement", "value_template")
	deviceKeys = keySet("configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model",
		"model_id", "name", "serial_number", "suggested_area", "sw_version", "via_device")
	originKeys = keySet("name", "sw_version", "support_url")
	// sensorDeviceClasses are the device classes this publisher may use.
	sensorDeviceClasses = keySet("timestamp")
)

func keySet(keys ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// checkDiscovery checks a sensor's discovery payload against Home Assistant's documented
// schema: only known keys; a state topic; a unique id, required for a device; a device with
// identifiers; an availability topic with its payloads; a known device class.
func checkDiscovery(t *testing.T, topic, payload string, availability string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(payload), &m); err != nil {
		t.Fatalf("%s: %v", topic, err)
	}
	for k := range m {
		if !sensorKeys[k] {
			t.Errorf("%s: key %q is not one of an MQTT sensor's", topic, k)
		}
	}
	for _, k := range []string{"name", "state_topic", "unique_id", "device", "availability_topic"} {
		if s, ok := m[k].(string); k != "device" && (!ok || s == "") {
			t.Errorf("%s: %s missing or empty", topic, k)
		}
	}
	if m["availability_topic"] != availability || m["payload_available"] != online || m["payload_not_available"] != offline {
		t.Errorf("%s: availability %v %v %v", topic, m["availability_topic"], m["payload_available"], m["payload_not_available"])
	}
	if dc, ok := m["device_class"].(string); ok && !sensorDeviceClasses[dc] {
		t.Errorf("%s: device class %q", topic, dc)
	}
	dev, ok := m["device"].(map[string]any)
	if !ok {
		t.Fatalf("%s: no device", topic)
	}
	for k := range dev {
		if !deviceKeys[k] {
			t.Errorf("%s: device key %q unknown", topic, k)
		}
	}
	if ids, ok := dev["identifiers"].([]any); !ok || len(ids) == 0 {
		t.Errorf("%s: device without identifiers", topic)
	}
	org, ok := m["origin"].(map[string]any)
	if !ok || org["name"] == nil {
		t.Errorf("%s: origin without a name", topic)
	}
	for k := range org {
		if !originKeys[k] {
			t.Errorf("%s: origin key %q unknown", topic, k)
		}
	}
	// The object id and node id of the topic: [a-zA-Z0-9_-].
	parts := strings.Split(topic, "/")
	if len(parts) != 5 || parts[0] != DiscoveryPrefix || parts[1] != "sensor" || parts[4] != "config" ||
		node(parts[2]) != parts[2] || node(parts[3]) != parts[3] {
		t.Errorf("discovery topic %s: want homeassistant/sensor/<node_id>/<object_id>/config", topic)
	}
}

func event(id, home, homeID, away, awayID, ts, homeScore, awayScore string) record.Record {
	return rec(record.Event, "idEvent", id, "strEvent", home+" vs "+away, "idLeague", "4328", "strLeague", "English Premier League",
		"idHomeTeam", homeID, "idAwayTeam", awayID, "strHomeTeam", home, "strAwayTeam", away,
		"intHomeScore", homeScore, "intAwayScore", awayScore, "strTimestamp", ts, "dateEvent", ts[:10], "strVenue", "Emirates Stadium")
}

// --mqtt-teams: each team gets three sensors by discovery, whose configs follow Home
// Assistant's schema and whose states say the next game, the last result and the live score.
func TestHomeAssistantDiscovery(t *testing.T) {
	b := testBroker(t)
	prefix := testPrefix(t, b)
	st := openStore(t)
	write(t, st, team("133604", "Arsenal"), team("133602", "Liverpool"),
		event("1", "Arsenal", "133604", "Liverpool", "133602", "2026-10-01T19:00:00", "2", "1"),
		event("2", "Chelsea", "133610", "Arsenal", "133604", "2026-10-08T14:00:00", "", ""),
		event("3", "Arsenal", "133604", "Fulham", "133600", "2026-10-20T14:00:00", "", ""))
	o := testOptions(b, prefix, clock.System{})
	o.Teams = []string{"133604"}
	o.Data = clock.Fixed(time.Date(2026, 10, 5, 12, 0, 0, 0, time.UTC))
	pub := start(t, st, o)
	pub.waitStored(t, latest(t, st))

	discovery := DiscoveryPrefix + "/sensor/" + node(prefix)
	sub := subscribe(t, b, discovery+"/#", prefix+"/ha/#")
	got := sub.retained(t, prefix+"/ha/zz-sentinel")
	var topics []string
	for topic := range got {
		topics = append(topics, topic)
	}
	sort.Strings(topics)
	want := []string{
		discovery + "/team_133604_last_result/config", discovery + "/team_133604_live_score/config",
		discovery + "/team_133604_next_game/config",
		prefix + "/ha/team/133604/last_result", prefix + "/ha/team/133604/live_score", prefix + "/ha/team/133604/next_game",
	}
	if fmt.Sprint(topics) != fmt.Sprint(want) {
		t.Fatalf("retained topics:\n%v\nwant\n%v", topics, want)
	}
	ids := map[string]bool{}
	for _, s := range sensors {
		topic := discovery + "/team_133604_" + s.Object + "/config"
		checkDiscovery(t, topic, got[topic], prefix+"/status")
		var d Discovery
		_ = json.Unmarshal([]byte(got[topic]), &d)
		if d.StateTopic != prefix+"/ha/team/133604/"+s.Object || d.Device.Name != "Arsenal" || ids[d.UniqueID] {
			t.Errorf("%s: %+v", topic, d)
		}
		ids[d.UniqueID] = true
	}
	states := map[string]map[string]any{}
	for _, s := range sensors {
		var m map[string]any
		if err := json.Unmarshal([]byte(got[prefix+"/ha/team/133604/"+s.Object]), &m); err != nil {
			t.Fatal(err)
		}
		states[s.Object] = m
	}
	if s := states["next_game"]; s["state"] != "2026-10-08T14:00:00+00:00" || s["event"] != "Chelsea vs Arsenal" {
		t.Errorf("next game: %v", s)
	}
	if ts, _ := states["next_game"]["state"].(string); ts != "" {
		if _, err := time.Parse(time.RFC3339, ts); err != nil {
			t.Errorf("next game state is no timestamp: %v", err)
		}
	}
	if s := states["last_result"]; s["state"] != "Arsenal 2 - 1 Liverpool" {
		t.Errorf("last result: %v", s)
	}
	if s := states["live_score"]; s["state"] != "Not playing" {
		t.Errorf("live score: %v", s)
	}

	// A live score of the team moves its sensor.
	write(t, st, liveScore("9", "2", "Soccer", "0", "1"))
	for {
		m := sub.next(t)
		if m.Topic != prefix+"/ha/team/133604/live_score" {
			continue
		}
		if !strings.Contains(m.Payload, `"state":"Arsenal 0 - 1 Liverpool"`) {
			t.Fatalf("live score sensor: %s", m.Payload)
		}
		break
	}
}
