// Package config holds every setting of sportsdb as one typed table: each option's flag,
// environment variable, default, whether it is a secret, how its value is checked and which
// commands take it. Load reads and checks all of a command's settings before the command
// touches anything, so a bad value is refused before a database is created or changed.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/api/caps"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/tierlimit"
)

// Config is the checked settings of one run.
type Config struct {
	Addr   string // address to listen on (serve) or to ask (healthcheck)
	DB     string // SQLite path or postgres:// URL
	Redis  string // Redis URL; "" counts requests in memory
	Caps   string // caps file; "" keeps the built-in caps
	Limits map[store.Tier]int
	// OpenStreams are the streams a key of each tier may hold open at once.
	OpenStreams map[store.Tier]int
	CacheMB     int
	CacheDiskMB int64
	CacheDir    string
	LogLevel    slog.Level
	LogFormat   string // "text" or "json"
	KeyFails    int
	TrustProxy  bool
	// TrustedProxies are the proxies whose X-Forwarded-For entries are skipped; empty trusts
	// only the direct peer.
	TrustedProxies []netip.Prefix
	// CORSOrigins are the origins a browser may call from; empty allows any ("*").
	CORSOrigins []string
	// Upstream is a TheSportsDB-compatible API's base URL, UpstreamKey its key (a secret),
	// UpstreamRate the most requests to it in any rolling 60 s (0: the mirror's default).
	Upstream     string
	UpstreamKey  string
	UpstreamRate int
	// MirrorLeagues limits a mirror to these league ids; MirrorSeasons to each league's most
	// recent seasons (0: all); MirrorFollow keeps it running.
	MirrorLeagues []string
	MirrorSeasons int
	MirrorFollow  bool
	// Drain is how long serve keeps answering (with Connection: close, /readyz 503) after
	// SIGTERM before it stops accepting.
	Drain     time.Duration
	Pprof     string
	ImportURL string
	Scale     string
	Seed      int64
	Tier      store.Tier
	Role      store.Role
	Label     string
	// KeyValue is the key keys add stores, given by value (a client's built-in key); ""
	// makes a new random one.
	KeyValue string
	Now      time.Time // pins the data clock when set

	// Compat is "strict" (answers as the public service) or "lenient" (also what older
	// clients send that it refuses or renamed).
	Compat string

	// TLSCert and TLSKey are the files of serve's certificate and key; both empty serves
	// plain HTTP.
	TLSCert, TLSKey string

	// ChangeRetention is how long the change feed keeps changes.
	ChangeRetention time.Duration

	// MQTT is the broker serve publishes the change feed to (a secret: it may hold a
	// password); "" publishes nothing. MQTTPrefix starts every topic; MQTTTeams are the
	// teams given Home Assistant sensors.
	MQTT       string
	MQTTPrefix string
	MQTTTeams  []string
	// WebhookAllowPrivate lets webhooks be sent to loopback, private and link-local
	// addresses (tests, receivers on the same network).
	WebhookAllowPrivate bool
	// WebhookKinds, WebhookLeague, WebhookTeam and WebhookOwner are what webhooks add
	// registers: the filters, and the key (a secret) the webhook belongs to.
	WebhookKinds  []string
	WebhookLeague string
	WebhookTeam   string
	WebhookOwner  string
	// MediaPath is where media add stores its file: /images/media/...
	MediaPath string
}

// Clock is the data clock: pinned by SPORTSDB_NOW, the system's otherwise.
func (c *Config) Clock() clock.Clock {
	if c.Now.IsZero() {
		return clock.System{}
	}
	return clock.Fixed(c.Now)
}

// Option is one setting. Adding a setting is adding a row to Options (and its field to
// Config): it then has a flag, a variable, help and a check in every command it names.
type Option struct {
	Name    string // flag name without dashes; "" for a setting only the environment gives
	Env     string // environment variable
	Default string
	Arg     string // what the value is, in help ("HOST:PORT"); "" for a boolean
	Help    string
	// Secret values are never printed, and may come from a file named by Env + "_FILE".
	Secret   bool
	Required bool
	Commands []string
	// Set checks a value and stores it in the Config; its error says what was wanted.
	Set func(c *Config, v string) error
}

// Bool says whether the flag stands alone for true.
func (o *Option) Bool() bool { return o.Arg == "" && o.Name != "" }

// The commands that take an option.
var (
	dbCommands = []string{"serve", "import", "export", "gen", "delete", "keys add", "keys list", "keys revoke", "migrate", "mirror",
		"webhooks add", "webhooks list", "webhooks remove", "media add", "media list", "media remove"}
	nowUsers   = []string{"serve", "gen", "keys add", "keys revoke", "mirror", "media add"}
	serveOnly  = []string{"serve"}
	mirrorOnly = []string{"mirror"}
	// serving is the long-running commands: they log and may share limits through Redis.
	serving = []string{"serve", "mirror"}
)

// Options is the table of every setting.
var Options = []Option{
	{Name: "addr", Env: "SPORTSDB_ADDR", Default: "127.0.0.1:8080", Arg: "HOST:PORT", Help: "address to listen on",
		Commands: []string{"serve", "healthcheck"}, Set: func(c *Config, v string) error { return hostPort(&c.Addr, v) }},
	{Name: "db", Env: "SPORTSDB_DB", Default: "sportsdb.db", Arg: "DSN", Help: "SQLite file path or postgres:// URL",
		Secret: true, Commands: dbCommands, Set: func(c *Config, v string) error { c.DB = v; return backend.Check(v) }},
	{Name: "redis", Env: "SPORTSDB_REDIS", Arg: "URL", Help: "Redis URL to share rate limits between replicas (redis://host:6379/0)",
		Secret: true, Commands: serving, Set: func(c *Config, v string) error { c.Redis = v; return redisURL(v) }},
	{Name: "caps", Env: "SPORTSDB_CAPS", Default: "documented", Arg: "PROFILE|FILE",
		Help:     "record caps per endpoint and tier: a built-in profile (" + caps.ProfileNames() + ") or a JSON file overriding them",
		Commands: serveOnly, Set: func(c *Config, v string) error { c.Caps = v; return capsSource(v) }},
	{Name: "limits", Env: "SPORTSDB_LIMITS", Default: "free:30,premium:100,business:120", Arg: "LIST",
		Help: "requests per rolling minute of each tier", Commands: serveOnly,
		Set: func(c *Config, v string) (err error) { c.Limits, err = tierlimit.ParseLimits(v); return err }},
	{Name: "open-streams", Env: "SPORTSDB_OPEN_STREAMS", Default: "premium:5,business:10", Arg: "LIST",
		Help: "event streams a key of each tier may hold open at once (across replicas with --redis)", Commands: serveOnly,
		Set: func(c *Config, v string) (err error) { c.OpenStreams, err = tierlimit.ParseOpenStreams(v); return err }},
	{Name: "cache-mb", Env: "SPORTSDB_CACHE_MB", Default: "64", Arg: "MIB", Help: "memory for cached answers, in MiB",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.CacheMB, err = atLeast(v, 1); return err }},
	{Name: "cache-disk-mb", Env: "SPORTSDB_CACHE_DISK_MB", Default: "1024", Arg: "MIB", Commands: serveOnly,
		Help: "disk for cached answers of 16 KiB and more, in MiB, sent from the system's file cache; 0 keeps them in memory",
		Set:  func(c *Config, v string) error { n, err := atLeast(v, 0); c.CacheDiskMB = int64(n); return err }},
	{Name: "cache-dir", Env: "SPORTSDB_CACHE_DIR", Arg: "DIR", Help: "directory for their file, unlinked once made (default: the system's temporary directory)",
		Commands: serveOnly, Set: func(c *Config, v string) error { c.CacheDir = v; return directory(v) }},
	{Name: "log-level", Env: "SPORTSDB_LOG_LEVEL", Default: "info", Arg: "LEVEL", Help: "debug, info, warn or error",
		Commands: serving, Set: func(c *Config, v string) error { return logLevel(&c.LogLevel, v) }},
	{Name: "log-format", Env: "SPORTSDB_LOG_FORMAT", Default: "text", Arg: "FORMAT", Help: "text or json",
		Commands: serving, Set: func(c *Config, v string) (err error) { c.LogFormat, err = oneOf(v, "text", "json"); return err }},
	{Name: "key-fails", Env: "SPORTSDB_KEY_FAILS", Default: "20", Arg: "N", Help: "failed key checks allowed per client address per minute",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.KeyFails, err = atLeast(v, 1); return err }},
	{Name: "trust-proxy", Env: "SPORTSDB_TRUST_PROXY", Default: "false", Help: "take the client address from X-Forwarded-For (only behind a reverse proxy)",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.TrustProxy, err = parseBool(v); return err }},
	{Name: "trusted-proxies", Env: "SPORTSDB_TRUSTED_PROXIES", Arg: "CIDR,...", Help: "with --trust-proxy: the proxies in front, skipped when reading X-Forwarded-For from the right (default: only the direct peer)",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.TrustedProxies, err = prefixes(v); return err }},
	{Name: "cors-origins", Env: "SPORTSDB_CORS_ORIGINS", Arg: "ORIGIN,...", Help: "origins browsers may call from, like https://app.example (default: any)",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.CORSOrigins, err = origins(v); return err }},
	{Name: "drain", Env: "SPORTSDB_DRAIN", Default: "0s", Arg: "DURATION", Help: "on SIGTERM, keep answering this long (readyz 503, Connection: close) before stopping, for a load balancer to notice",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.Drain, err = duration(v); return err }},
	{Name: "change-retention", Env: "SPORTSDB_CHANGE_RETENTION", Default: "168h", Arg: "DURATION", Help: "how long the change feed keeps changes; an older cursor is answered 410",
		Commands: []string{"serve", "import", "gen", "delete"}, Set: func(c *Config, v string) (err error) { c.ChangeRetention, err = positiveDuration(v); return err }},
	{Name: "compat", Env: "SPORTSDB_COMPAT", Default: "strict", Arg: "MODE", Help: "strict answers as the public service; lenient also answers what older clients send that it refuses or renamed (see README)",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.Compat, err = oneOf(v, "strict", "lenient"); return err }},
	{Name: "tls-cert", Env: "SPORTSDB_TLS_CERT", Arg: "FILE", Help: "serve HTTPS (and HTTP/2) on --addr with this PEM certificate chain, read again when the file changes (see docs/DEPLOY.md)",
		Commands: serveOnly, Set: func(c *Config, v string) error { c.TLSCert = v; return readable(v) }},
	{Name: "tls-key", Env: "SPORTSDB_TLS_KEY", Arg: "FILE", Help: "the PEM private key of --tls-cert",
		Commands: serveOnly, Set: func(c *Config, v string) error { c.TLSKey = v; return readable(v) }},
	{Name: "pprof", Env: "SPORTSDB_PPROF", Arg: "HOST:PORT", Help: "loopback address for Go profiling handlers (/debug/pprof/), for benchmarks; off when empty",
		Commands: serveOnly, Set: func(c *Config, v string) error { c.Pprof = v; return loopback(v) }},
	{Name: "mqtt", Env: "SPORTSDB_MQTT", Arg: "URL", Help: "publish every change to this MQTT broker, mqtt://[user:password@]host[:1883] or mqtts:// (see docs/MQTT.md)",
		Secret: true, Commands: serveOnly, Set: func(c *Config, v string) error { c.MQTT = v; return mqttURL(v) }},
	{Name: "mqtt-prefix", Env: "SPORTSDB_MQTT_PREFIX", Default: "sportsdb", Arg: "TOPIC", Help: "the topic every MQTT message is published under",
		Commands: serveOnly, Set: func(c *Config, v string) error { c.MQTTPrefix = v; return mqttPrefix(v) }},
	{Name: "mqtt-teams", Env: "SPORTSDB_MQTT_TEAMS", Arg: "ID,...", Help: "with --mqtt: team ids given Home Assistant sensors (next game, last result, live score) by MQTT discovery",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.MQTTTeams, err = ids(v); return err }},
	{Name: "webhook-allow-private", Env: "SPORTSDB_WEBHOOK_ALLOW_PRIVATE", Default: "false", Help: "let webhooks be sent to loopback, private, link-local and other non-public addresses (tests, on-premise receivers)",
		Commands: []string{"serve", "webhooks add"}, Set: func(c *Config, v string) (err error) { c.WebhookAllowPrivate, err = parseBool(v); return err }},
	{Name: "kinds", Env: "SPORTSDB_WEBHOOK_KINDS", Arg: "KIND,...", Help: "deliver only changes of these kinds (default: every kind)",
		Commands: []string{"webhooks add"}, Set: func(c *Config, v string) (err error) { c.WebhookKinds, err = kindNames(v); return err }},
	{Name: "league", Env: "SPORTSDB_WEBHOOK_LEAGUE", Arg: "ID", Help: "deliver only changes of records (or of their events) in this league",
		Commands: []string{"webhooks add"}, Set: func(c *Config, v string) (err error) { c.WebhookLeague, err = oneID(v); return err }},
	{Name: "team", Env: "SPORTSDB_WEBHOOK_TEAM", Arg: "ID", Help: "deliver only changes of records (or of their events) of this team",
		Commands: []string{"webhooks add"}, Set: func(c *Config, v string) (err error) { c.WebhookTeam, err = oneID(v); return err }},
	{Name: "owner", Env: "SPORTSDB_WEBHOOK_OWNER", Arg: "KEY", Help: "the API key the webhook belongs to, which then sees and manages it (default: none; admin keys see every webhook)",
		Secret: true, Commands: []string{"webhooks add"}, Set: func(c *Config, v string) error { c.WebhookOwner = v; return nil }},
	{Name: "path", Env: "SPORTSDB_MEDIA_PATH", Arg: "PATH", Help: "where the image is kept and served, as on the public service: /images/media/team/badge/x.png", Required: true,
		Commands: []string{"media add"}, Set: func(c *Config, v string) error { c.MediaPath = v; return mediaPath(v) }},
	{Name: "url", Env: "SPORTSDB_IMPORT_URL", Arg: "URL", Help: "the request a single imported file answered (gives parent ids the body lacks)",
		Commands: []string{"import"}, Set: func(c *Config, v string) error { c.ImportURL = v; return requestURL(v) }},
	{Name: "scale", Env: "SPORTSDB_SCALE", Default: "demo", Arg: "SCALE", Help: "demo, small or full",
		Commands: []string{"gen"}, Set: func(c *Config, v string) (err error) { c.Scale, err = oneOf(v, "demo", "small", "full"); return err }},
	{Name: "seed", Env: "SPORTSDB_SEED", Default: "1", Arg: "N", Help: "generator seed",
		Commands: []string{"gen"}, Set: func(c *Config, v string) (err error) { c.Seed, err = wholeNumber(v); return err }},
	{Name: "tier", Env: "SPORTSDB_TIER", Arg: "TIER", Help: "free, premium or business", Required: true,
		Commands: []string{"keys add"}, Set: func(c *Config, v string) error { return tier(&c.Tier, v) }},
	{Name: "role", Env: "SPORTSDB_ROLE", Arg: "ROLE", Help: "editor (writes records that are not locked) or admin (also locked ones); none: the key only reads",
		Commands: []string{"keys add"}, Set: func(c *Config, v string) error { return role(&c.Role, v) }},
	{Name: "label", Env: "SPORTSDB_LABEL", Arg: "TEXT", Help: "a note stored with the key",
		Commands: []string{"keys add"}, Set: func(c *Config, v string) error { c.Label = v; return nil }},
	{Name: "key", Env: "SPORTSDB_KEY_VALUE", Arg: "VALUE", Help: "store this key (like a client's built-in key) instead of a new random one: 1 to 128 printable characters, no \"/\"",
		Secret: true, Commands: []string{"keys add"}, Set: func(c *Config, v string) error { c.KeyValue = v; return keyValue(v) }},
	{Name: "from", Env: "SPORTSDB_UPSTREAM", Arg: "URL", Help: "the upstream's base URL, like https://www.thesportsdb.com or http://127.0.0.1:8081",
		Required: true, Commands: mirrorOnly, Set: func(c *Config, v string) error { c.Upstream = v; return baseURL(v) }},
	{Name: "key", Env: "SPORTSDB_UPSTREAM_KEY", Arg: "KEY", Help: "the upstream's API key (never printed or logged)",
		Secret: true, Required: true, Commands: mirrorOnly, Set: func(c *Config, v string) error { c.UpstreamKey = v; return nil }},
	{Name: "rate", Env: "SPORTSDB_UPSTREAM_RATE", Default: "0", Arg: "N", Help: "most requests to the upstream in any rolling 60 s; 0: 100, or 30 for a free key",
		Commands: mirrorOnly, Set: func(c *Config, v string) (err error) { c.UpstreamRate, err = atLeast(v, 0); return err }},
	// serve's read-through sets the same variables as mirror, so a mirror and a server beside
	// it share one upstream, key and budget.
	{Name: "upstream", Env: "SPORTSDB_UPSTREAM", Arg: "URL", Help: "read through to this upstream API for answers the store cannot give (see docs/MIRROR.md)",
		Commands: serveOnly, Set: func(c *Config, v string) error { c.Upstream = v; return baseURL(v) }},
	{Name: "upstream-key", Env: "SPORTSDB_UPSTREAM_KEY", Arg: "KEY", Help: "the upstream's API key, needed with --upstream (never printed or logged)",
		Secret: true, Commands: serveOnly, Set: func(c *Config, v string) error { c.UpstreamKey = v; return nil }},
	{Name: "upstream-rate", Env: "SPORTSDB_UPSTREAM_RATE", Default: "0", Arg: "N", Help: "most requests to the upstream in any rolling 60 s, shared with a mirror of the same key; 0: 100 (set 30 for a free key)",
		Commands: serveOnly, Set: func(c *Config, v string) (err error) { c.UpstreamRate, err = atLeast(v, 0); return err }},
	{Name: "leagues", Env: "SPORTSDB_MIRROR_LEAGUES", Arg: "ID,...", Help: "league ids to mirror, with what they reference (default: every league)",
		Commands: mirrorOnly, Set: func(c *Config, v string) (err error) { c.MirrorLeagues, err = ids(v); return err }},
	{Name: "seasons", Env: "SPORTSDB_MIRROR_SEASONS", Default: "0", Arg: "N", Help: "most recent seasons of each league to mirror; 0: all",
		Commands: mirrorOnly, Set: func(c *Config, v string) (err error) { c.MirrorSeasons, err = atLeast(v, 0); return err }},
	{Name: "follow", Env: "SPORTSDB_MIRROR_FOLLOW", Default: "false", Help: "keep running: live scores every 30 s while a game is on, next and previous events hourly, the rest daily",
		Commands: mirrorOnly, Set: func(c *Config, v string) (err error) { c.MirrorFollow, err = parseBool(v); return err }},
	{Env: "SPORTSDB_NOW", Arg: "TIME", Help: "pins the data clock (RFC 3339, like 2026-10-05T12:00:00Z), for demos and tests",
		Commands: nowUsers, Set: func(c *Config, v string) error { return instant(&c.Now, v) }},
}

// The checks behind Set. Each returns what it wanted; Load adds which setting it was.

func atLeast(v string, min int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < min {
		if min == 0 {
			return 0, fmt.Errorf("want a whole number, 0 for none")
		}
		return 0, fmt.Errorf("want a whole number of at least %d", min)
	}
	return n, nil
}

func wholeNumber(v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want a whole number")
	}
	return n, nil
}

// prefixes reads a comma list of CIDRs or single addresses.
func prefixes(v string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			a, aerr := netip.ParseAddr(part)
			if aerr != nil {
				return nil, fmt.Errorf("want CIDRs or addresses separated by commas, like 10.0.0.0/8,192.0.2.7; %q is neither", part)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// origins reads a comma list of browser origins (scheme://host[:port], no path).
func origins(v string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		u, err := url.Parse(part)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			return nil, fmt.Errorf("want origins like https://app.example separated by commas; %q is not one", part)
		}
		out = append(out, u.Scheme+"://"+u.Host)
	}
	return out, nil
}

// baseURL reads an http or https base URL; "" is none (Required says when one is needed).
func baseURL(v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
		return fmt.Errorf("want an http:// or https:// base URL")
	}
	return nil
}

// ids reads a comma list of record ids (digits).
func ids(v string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if strings.Trim(part, "0123456789") != "" {
			return nil, fmt.Errorf("want ids (numbers) separated by commas; %q is not one", part)
		}
		out = append(out, part)
	}
	return out, nil
}

func duration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want a duration like 15s or 0s")
	}
	return d, nil
}

func positiveDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a positive duration like 168h")
	}
	return d, nil
}

// FeedOptions are the change feed settings of the store.
func (c *Config) FeedOptions() store.FeedOptions {
	return store.FeedOptions{Retention: c.ChangeRetention}
}

// parseBool reads what Go's strconv reads (1, t, true, 0, f, false, in any case of those).
func parseBool(v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("want true or false (or 1, t, 0, f)")
	}
	return b, nil
}

func oneOf(v string, choices ...string) (string, error) {
	for _, c := range choices {
		if strings.EqualFold(v, c) {
			return c, nil
		}
	}
	return "", fmt.Errorf("want %s", orList(choices))
}

func orList(choices []string) string {
	if len(choices) == 1 {
		return choices[0]
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

func hostPort(dst *string, v string) error {
	*dst = v
	_, port, err := net.SplitHostPort(v)
	if err != nil {
		return fmt.Errorf("want HOST:PORT, like 127.0.0.1:8080 or :8080")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("want a port number from 0 to 65535")
	}
	return nil
}

// loopback accepts "" (off) or a loopback HOST:PORT: profiles show request data, so they
// are never served beyond the machine.
func loopback(v string) error {
	if v == "" {
		return nil
	}
	var addr string
	if err := hostPort(&addr, v); err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(v)
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("profiling listens on a loopback address only")
	}
	return nil
}

func redisURL(v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil {
		return fmt.Errorf("want a redis:// URL") // the text may hold a password: not repeated
	}
	switch u.Scheme {
	case "redis", "rediss", "unix":
		return nil
	}
	return fmt.Errorf("unknown scheme %q: want redis://, rediss:// or unix://", u.Scheme)
}

// kindNames reads a comma-separated list of record kind names.
func kindNames(v string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if _, ok := record.ByName(name); !ok {
			return nil, fmt.Errorf("no kind %q", name)
		}
		out = append(out, name)
	}
	return out, nil
}

// oneID reads one id a lookup can ask for (digits), or "".
func oneID(v string) (string, error) {
	for _, c := range v {
		if c < '0' || c > '9' {
			return "", fmt.Errorf("want an id, digits only")
		}
	}
	return v, nil
}

// mqttURL accepts "" (no publishing) or an mqtt:// or mqtts:// URL of a broker.
func mqttURL(v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil {
		return fmt.Errorf("want a URL like mqtt://user:password@host:1883") // the text may hold a password: not repeated
	}
	if u.Scheme != "mqtt" && u.Scheme != "mqtts" {
		return fmt.Errorf("unknown scheme %q: want mqtt:// or mqtts://", u.Scheme)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("no broker host: want mqtt://host:1883")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("want a port number from 1 to 65535")
		}
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("want a broker address only, with no path or query: mqtt://host:1883")
	}
	return nil
}

// mqttPrefix accepts a topic to publish under: levels separated by "/", none empty, no
// wildcard, not a broker's own "$" topic.
func mqttPrefix(v string) error {
	if v == "" || strings.HasPrefix(v, "$") || strings.ContainsAny(v, "+#\x00") {
		return fmt.Errorf("want a topic like sportsdb or home/sportsdb: no +, #, or leading $")
	}
	for _, level := range strings.Split(v, "/") {
		if level == "" {
			return fmt.Errorf("want a topic like sportsdb or home/sportsdb: no empty level (no leading, trailing or double /)")
		}
	}
	return nil
}

// mediaPath accepts a path an editor may upload to; the rest of its rules are the
// media package's, checked when the file is stored.
func mediaPath(v string) error {
	if v == "" {
		return nil // media add requires one
	}
	if !strings.HasPrefix(v, "/images/media/") || len(v) == len("/images/media/") {
		return fmt.Errorf("want a path under /images/media/, like /images/media/team/badge/x.png")
	}
	return nil
}

func requestURL(v string) error {
	if v == "" {
		return nil
	}
	if u, err := url.Parse(v); err != nil || u.Path == "" {
		return fmt.Errorf("want the URL of a request, like https://www.thesportsdb.com/api/v1/json/123/lookupteam.php?id=133604")
	}
	return nil
}

// capsSource accepts a built-in caps profile's name, else a file that can be read.
func capsSource(v string) error {
	if caps.IsProfile(v) {
		return nil
	}
	if err := readable(v); err != nil {
		return fmt.Errorf("%w (or a caps profile: %s)", err, caps.ProfileNames())
	}
	return nil
}

func readable(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return describePathError(err)
	}
	return f.Close()
}

func directory(path string) error {
	if path == "" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return describePathError(err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("not a directory")
	}
	return nil
}

// describePathError keeps the cause ("no such file or directory", "permission denied")
// without the path, which the message names already.
func describePathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func logLevel(dst *slog.Level, v string) error {
	if err := dst.UnmarshalText([]byte(v)); err != nil {
		return fmt.Errorf("want debug, info, warn or error")
	}
	return nil
}

func tier(dst *store.Tier, v string) error {
	if v == "" {
		*dst = ""
		return nil // Required reports a missing tier
	}
	t, ok := store.ParseTier(v)
	if !ok {
		return fmt.Errorf("want free, premium or business")
	}
	*dst = t
	return nil
}

func role(dst *store.Role, v string) error {
	r, ok := store.ParseRole(v)
	if !ok {
		return fmt.Errorf("want editor or admin")
	}
	*dst = r
	return nil
}

// keyValue accepts "" (a new random key) or a key auth would store.
func keyValue(v string) error {
	if v == "" {
		return nil
	}
	return auth.CheckValue(v)
}

func instant(dst *time.Time, v string) error {
	if v == "" {
		*dst = time.Time{}
		return nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return fmt.Errorf("want RFC 3339, like 2026-10-05T12:00:00Z")
	}
	*dst = t.UTC()
	return nil
}
