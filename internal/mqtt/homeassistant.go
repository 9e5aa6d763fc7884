package mqtt

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Home Assistant MQTT discovery (https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery):
// for each team of --mqtt-teams, three sensors of one device, each a retained config
// message on homeassistant/sensor/{node}/{object}/config and a state topic of its own
// whose JSON payload gives the state (value_template) and the attributes.

// DiscoveryPrefix is Home Assistant's default discovery prefix.
const DiscoveryPrefix = "homeassistant"

// sensor is one kind of team sensor.
type sensor struct {
	Object, Name, Icon, DeviceClass string
}

var sensors = []sensor{
	{Object: "next_game", Name: "Next game", Icon: "mdi:calendar-clock", DeviceClass: "timestamp"},
	{Object: "last_result", Name: "Last result", Icon: "mdi:scoreboard"},
	{Object: "live_score", Name: "Live score", Icon: "mdi:scoreboard-outline"},
}

// Discovery is the config payload of one sensor, in Home Assistant's full key names.
type Discovery struct {
	Name                string `json:"name"`
	UniqueID            string `json:"unique_id"`
	StateTopic          string `json:"state_topic"`
	ValueTemplate       string `json:"value_template"`
	JSONAttributesTopic string `json:"json_attributes_topic"`
	DeviceClass         string `json:"device_class,omitempty"`
	Icon                string `json:"icon"`
	AvailabilityTopic   string `json:"availability_topic"`
	PayloadAvailable    string `json:"payload_available"`
	PayloadNotAvailable string `json:"payload_not_available"`
	Device              Device `json:"device"`
	Origin              Origin `json:"origin"`
}

// Device groups a team's sensors in Home Assistant.
type Device struct {
	Identifiers  []string `json:"identifiers"`
	Name         string   `json:"name"`
	Manufacturer string   `json:"manufacturer"`
	Model        string   `json:"model"`
}

// Origin names the application that sent the discovery message.
type Origin struct {
	Name string `json:"name"`
}

// node is the prefix as a discovery node id: [a-zA-Z0-9_-] only.
func node(prefix string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, prefix)
}

// discoveryTopic is where the config of a team's sensor is published.
func (t topics) discoveryTopic(team string, s sensor) string {
	return DiscoveryPrefix + "/sensor/" + node(t.prefix) + "/" + node("team_"+team+"_"+s.Object) + "/config"
}

// discovery is the config of a team's sensor. Home Assistant names the entity from the
// device and the sensor ("Arsenal Next game", sensor.arsenal_next_game).
func (t topics) discovery(team, teamName string, s sensor) Discovery {
	id := node(t.prefix) + "_team_" + node(team)
	state := t.teamSensor(team, s.Object)
	return Discovery{
		Name: s.Name, UniqueID: id + "_" + s.Object,
		StateTopic: state, ValueTemplate: "{{ value_json.state }}", JSONAttributesTopic: state,
		DeviceClass: s.DeviceClass, Icon: s.Icon,
		AvailabilityTopic: t.status(), PayloadAvailable: online, PayloadNotAvailable: offline,
		Device: Device{Identifiers: []string{id}, Name: teamName, Manufacturer: "sportsdb", Model: "Team"},
		Origin: Origin{Name: "sportsdb"},
	}
}

// refreshTeams publishes each team's discovery configs and sensor states that changed.
func (s *session) refreshTeams() error {
	for _, team := range s.p.o.Teams {
		name, err := s.teamName(team)
		if err != nil {
			return err
		}
		states, err := s.teamStates(team)
		if err != nil {
			return err
		}
		for _, sn := range sensors {
			cfg, err := json.Marshal(s.p.topics().discovery(team, name, sn))
			if err != nil {
				return err
			}
			s.publishChanged(s.p.topics().discoveryTopic(team, sn), cfg)
			state, err := json.Marshal(states[sn.Object])
			if err != nil {
				return err
			}
			s.publishChanged(s.p.topics().teamSensor(team, sn.Object), state)
		}
	}
	return s.flush()
}

// publishChanged publishes a payload unless the session sent it already.
func (s *session) publishChanged(topic string, payload []byte) {
	if s.sent[topic] == string(payload) {
		return
	}
	s.sent[topic] = string(payload)
	s.publish(topic, payload)
}

func (s *session) teamName(team string) (string, error) {
	r, err := s.p.src.Get(s.ctx, record.Team, team)
	if errors.Is(err, store.ErrNotFound) {
		return "Team " + team, nil
	}
	if err != nil {
		return "", fmt.Errorf("team %s: %w", team, err)
	}
	return r.Str("strTeam"), nil
}

// teamStates are the states of a team's sensors: the next game's start, the last game's
// result and the live score, each with the game's details as attributes.
func (s *session) teamStates(team string) (map[string]map[string]any, error) {
	deps := api.Deps{Store: s.p.src, Clock: s.p.o.Data}
	req := deps.NewRequest(s.ctx, store.Business, record.Event, 1, nil)
	plays := api.Or(api.Eq("idHomeTeam", team), api.Eq("idAwayTeam", team))
	next, err := req.NextEvents(plays)
	if err != nil {
		return nil, err
	}
	last, err := req.PreviousEvents(plays)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]any{
		"next_game":   {"state": nil},
		"last_result": {"state": nil},
		"live_score":  {"state": "Not playing"},
	}
	if len(next) > 0 {
		e := next[0]
		out["next_game"] = gameAttributes(e, withZone(e.Str("strTimestamp")))
	}
	if len(last) > 0 {
		e := last[0]
		out["last_result"] = gameAttributes(e, result(e.Str("strHomeTeam"), e.Str("intHomeScore"), e.Str("intAwayScore"), e.Str("strAwayTeam"), e.Str("strEvent")))
	}
	err = s.p.src.Scan(s.ctx, record.LiveScore, func(r record.Record) error {
		if r.Str("idHomeTeam") != team && r.Str("idAwayTeam") != team {
			return nil
		}
		out["live_score"] = map[string]any{
			"state":     result(r.Str("strHomeTeam"), r.Str("intHomeScore"), r.Str("intAwayScore"), r.Str("strAwayTeam"), ""),
			"idEvent":   r.Str("idEvent"),
			"home_team": r.Str("strHomeTeam"), "away_team": r.Str("strAwayTeam"),
			"home_score": r.Str("intHomeScore"), "away_score": r.Str("intAwayScore"),
			"status": r.Str("strStatus"), "progress": r.Str("strProgress"),
		}
		return nil
	})
	return out, err
}

func gameAttributes(e record.Record, state string) map[string]any {
	return map[string]any{
		"state": state, "idEvent": e.Str("idEvent"), "event": e.Str("strEvent"),
		"league": e.Str("strLeague"), "venue": e.Str("strVenue"),
		"home_team": e.Str("strHomeTeam"), "away_team": e.Str("strAwayTeam"),
		"home_score": e.Str("intHomeScore"), "away_score": e.Str("intAwayScore"),
		"timestamp": e.Str("strTimestamp"),
	}
}

// withZone gives a stored timestamp (UTC, api.TimestampLayout) the offset Home Assistant's
// timestamp sensors need.
func withZone(ts string) string {
	if len(ts) == len(api.TimestampLayout) {
		return ts + "+00:00"
	}
	return ts
}

// result reads "Arsenal 2 - 1 Liverpool"; without scores, the event's name.
func result(home, homeScore, awayScore, away, name string) string {
	if homeScore == "" || awayScore == "" {
		if name != "" {
			return name
		}
		return home + " - " + away
	}
	return home + " " + homeScore + " - " + awayScore + " " + away
}
