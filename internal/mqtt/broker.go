// Package mqtt publishes the change feed to an MQTT broker (docs/CONTRACT.md section 15,
// docs/MQTT.md): every change, retained at QoS 1, to {prefix}/{kind}/{id}, live scores also
// to {prefix}/livescore/{sport}/{idEvent}, in cursor order from a cursor kept in the store,
// by the one replica holding the store's lease; and Home Assistant MQTT discovery for chosen
// teams.
package mqtt

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// Broker is where to publish: its address without credentials (safe to log), and the
// credentials apart.
type Broker struct {
	Addr     string // mqtt://host:port or mqtts://host:port
	Username string
	Password string
}

// ParseBroker reads a broker URL, mqtt://[user[:password]@]host[:port] or mqtts://; the
// port defaults to 1883 (8883 for mqtts). Its errors never repeat the URL, which may hold a
// password.
func ParseBroker(s string) (Broker, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "mqtt" && u.Scheme != "mqtts") || u.Hostname() == "" {
		return Broker{}, fmt.Errorf("mqtt: want a broker URL like mqtt://user:password@host:1883")
	}
	port := u.Port()
	if port == "" {
		port = "1883"
		if u.Scheme == "mqtts" {
			port = "8883"
		}
	}
	b := Broker{Addr: u.Scheme + "://" + joinHostPort(u.Hostname(), port)}
	if u.User != nil {
		b.Username = u.User.Username()
		b.Password, _ = u.User.Password()
	}
	return b, nil
}

func joinHostPort(host, port string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}

// ClientOptions are paho's options for a client of the broker: its address and
// credentials, a clean session and no reconnecting of paho's own. The publisher adds its
// last will; a subscriber of the tests or the benchmark uses them as they are.
func (b Broker) ClientOptions(id string) *paho.ClientOptions {
	o := paho.NewClientOptions().AddBroker(b.Addr).SetClientID(id).
		SetCleanSession(true).SetAutoReconnect(false).SetConnectRetry(false)
	if b.Username != "" {
		o.SetUsername(b.Username)
	}
	if b.Password != "" {
		o.SetPassword(b.Password)
	}
	return o
}

// publisherOptions are a publisher's: a clean session (it keeps its own progress, in the
// store), no reconnecting of paho's own (it reconnects with its backoff and starts again
// from its stored cursor), and the availability topic's last will.
func (b Broker) publisherOptions(id, willTopic string) *paho.ClientOptions {
	return b.ClientOptions(id).SetWill(willTopic, offline, 1, true)
}

// NewHolder names this process as a lease holder and MQTT client: its host, process id and
// a random part, so that a restarted process is a new holder.
func NewHolder() string {
	host, _ := os.Hostname()
	var r [4]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf("sportsdb-%s-%d-%s", host, os.Getpid(), hex.EncodeToString(r[:]))
}
