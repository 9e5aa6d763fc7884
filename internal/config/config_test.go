package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/store"
)

func env(kv ...string) Env {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// Flags may stand before, between or after the positional arguments; "--" ends them.
func TestLoadFlagsAnywhere(t *testing.T) {
	for _, c := range []struct {
		cmd      string
		args     []string
		wantDB   string
		wantArgs []string
	}{
		{"import", []string{"data/", "--db", "postgres://u@h/db"}, "postgres://u@h/db", []string{"data/"}},
		{"import", []string{"a.json", "--db=x.db", "b.json"}, "x.db", []string{"a.json", "b.json"}},
		{"export", []string{"out", "-db", "x.db"}, "x.db", []string{"out"}},
		{"export", []string{"--db", "x.db", "--", "--odd-name"}, "x.db", []string{"--odd-name"}},
		{"keys revoke", []string{"KEY", "--db", "k.db"}, "k.db", []string{"KEY"}},
		{"gen", nil, "sportsdb.db", nil},
	} {
		cfg, args, err := Load(c.cmd, c.args, env())
		if err != nil {
			t.Errorf("%s %q: %v", c.cmd, c.args, err)
			continue
		}
		if cfg.DB != c.wantDB || !slices.Equal(args, c.wantArgs) {
			t.Errorf("%s %q: db %q args %q, want %q %q", c.cmd, c.args, cfg.DB, args, c.wantDB, c.wantArgs)
		}
	}
}

// Booleans are real: alone means true, strconv.ParseBool's words are read, anything else
// is refused, from a flag or a variable.
func TestBooleans(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  Env
		want bool
		bad  bool
	}{
		{args: []string{"--trust-proxy"}, want: true},
		{args: []string{"--trust-proxy=false"}, env: env("SPORTSDB_TRUST_PROXY", "1"), want: false},
		{args: []string{"--trust-proxy=T"}, want: true},
		{env: env("SPORTSDB_TRUST_PROXY", "1"), want: true},
		{env: env("SPORTSDB_TRUST_PROXY", "TRUE"), want: true},
		{env: env("SPORTSDB_TRUST_PROXY", "0"), want: false},
		{args: []string{"--trust-proxy=yes"}, bad: true},
		{env: env("SPORTSDB_TRUST_PROXY", "on"), bad: true},
	} {
		if c.env == nil {
			c.env = env()
		}
		cfg, _, err := Load("serve", c.args, c.env)
		if c.bad {
			if err == nil {
				t.Errorf("%q accepted", c.args)
			}
			continue
		}
		if err != nil || cfg.TrustProxy != c.want {
			t.Errorf("%q: trust proxy %v (%v), want %v", c.args, cfg != nil && cfg.TrustProxy, err, c.want)
		}
	}
}

// Every value of every setting is checked by Load, naming the setting once.
func TestEveryValueChecked(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, []byte("{}"), 0o644)
	for _, c := range []struct {
		cmd  string
		args []string
		env  Env
		want string
	}{
		{"serve", []string{"--cache-mb=abc"}, nil, `--cache-mb "abc": want a whole number of at least 1`},
		{"serve", nil, env("SPORTSDB_CACHE_MB", "0"), `SPORTSDB_CACHE_MB="0": want a whole number`},
		{"serve", []string{"--cache-disk-mb", "-1"}, nil, "--cache-disk-mb"},
		{"serve", []string{"--cache-dir", file}, nil, "not a directory"},
		{"serve", []string{"--cache-dir", file + "x"}, nil, "no such file or directory"},
		{"serve", []string{"--caps", file + "x"}, nil, "no such file or directory"},
		{"serve", []string{"--key-fails=0"}, nil, "--key-fails"},
		{"serve", []string{"--limits=gold:5"}, nil, "--limits"},
		{"serve", []string{"--log-level=loud"}, nil, "--log-level"},
		{"serve", []string{"--log-format=xml"}, nil, "want text or json"},
		{"serve", []string{"--addr=8080"}, nil, "want HOST:PORT"},
		{"serve", []string{"--addr=:99999"}, nil, "port number"},
		{"serve", []string{"--pprof=0.0.0.0:6060"}, nil, "loopback"},
		{"serve", []string{"--redis=http://h"}, nil, "unknown scheme"},
		{"serve", []string{"--mqtt=tcp://u:hunter2@h:1883"}, nil, `unknown scheme "tcp": want mqtt:// or mqtts://`},
		{"serve", []string{"--mqtt=mqtt://u:hunter2@:1883"}, nil, "no broker host"},
		{"serve", []string{"--mqtt=mqtt://h:70000"}, nil, "want a port number"},
		{"serve", []string{"--mqtt=mqtt://h:1883/topic"}, nil, "no path or query"},
		{"serve", []string{"--mqtt=127.0.0.1:1883"}, nil, "--mqtt"},
		{"serve", []string{"--mqtt-prefix=home/#"}, nil, "no +, #"},
		{"serve", []string{"--mqtt-prefix=home/"}, nil, "no empty level"},
		{"serve", []string{"--mqtt-teams=arsenal"}, nil, `"arsenal" is not one`},
		{"serve", []string{"--db=mysql://u@h/db"}, nil, `unknown database scheme "mysql"`},
		{"serve", nil, env("SPORTSDB_NOW", "yesterday"), "SPORTSDB_NOW"},
		{"serve", []string{"--scale=demo"}, nil, "unknown flag --scale"},
		{"serve", []string{"--db"}, nil, "--db needs a value"},
		{"gen", []string{"--scale", "bogus"}, nil, "want demo, small or full"},
		{"gen", []string{"--seed", "x"}, nil, "--seed"},
		{"keys add", []string{"--tier=gold"}, nil, "want free, premium or business"},
		{"keys add", nil, nil, "--tier (or SPORTSDB_TIER) is required"},
		{"keys list", []string{"--tier=free"}, nil, "unknown flag --tier"},
		{"import", []string{"--url", "::"}, nil, "--url"},
		{"serve", []string{"--trusted-proxies=10.0.0.0/8,proxy.local"}, nil, `"proxy.local" is neither`},
		{"serve", []string{"--cors-origins=app.example"}, nil, `"app.example" is not one`},
		{"serve", []string{"--cors-origins=https://app.example/path"}, nil, "is not one"},
		{"serve", nil, env("SPORTSDB_DRAIN", "15"), "SPORTSDB_DRAIN"},
		{"serve", []string{"--drain=-1s"}, nil, "want a duration"},
		{"serve", []string{"--public-url=sports.example"}, nil, "--public-url"},
		{"serve", []string{`--public-url=https://sports.example/"x`}, nil, "without a query"},
		{"serve", []string{"--public-url=https://sports.example/?a=1"}, nil, "without a query"},
		{"serve", nil, env("SPORTSDB_MEDIA_URLS", "here"), "want auto or stored"},
		{"serve", []string{"--media-hosts=127.0.0.1:8081,http://a.example"}, nil, `"http://a.example" is not one`},
		{"serve", []string{`--media-hosts=a"b`}, nil, "is not one"},
		{"mirror", []string{"--from=http://a", "--key=k", "--media-rate=0"}, nil, "--media-rate"},
		{"mirror", []string{"--from=http://a", "--key=k", "--public-url=https://x"}, nil, "unknown flag --public-url"},
	} {
		if c.env == nil {
			c.env = env()
		}
		_, _, err := Load(c.cmd, c.args, c.env)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want one with %q", c.cmd, c.args, err, c.want)
		}
	}
}

// A secret comes from its variable or from the file its _FILE variable names, never both,
// and is never repeated in an error.
func TestSecretsFromFiles(t *testing.T) {
	dir := t.TempDir()
	dbFile := filepath.Join(dir, "db")
	os.WriteFile(dbFile, []byte("postgres://u:pw@h/db\n"), 0o600)
	cfg, _, err := Load("serve", nil, env("SPORTSDB_DB_FILE", dbFile))
	if err != nil || cfg.DB != "postgres://u:pw@h/db" {
		t.Fatalf("db from file: %q, %v", cfg.DB, err)
	}
	redisFile := filepath.Join(dir, "redis")
	os.WriteFile(redisFile, []byte("redis://:pw@h:6379/0"), 0o600)
	cfg, _, err = Load("serve", nil, env("SPORTSDB_REDIS_FILE", redisFile))
	if err != nil || cfg.Redis != "redis://:pw@h:6379/0" {
		t.Fatalf("redis from file: %q, %v", cfg.Redis, err)
	}
	for _, c := range []struct {
		env  Env
		want string
	}{
		{env("SPORTSDB_DB", "x.db", "SPORTSDB_DB_FILE", dbFile), "both set"},
		{env("SPORTSDB_DB_FILE", filepath.Join(dir, "missing")), "SPORTSDB_DB_FILE"},
		{env("SPORTSDB_REDIS", "http://:secretpw@h"), "SPORTSDB_REDIS: unknown scheme"},
		{env("SPORTSDB_CAPS_FILE", dbFile), ""}, // not a secret: no file variable
	} {
		_, _, err := Load("serve", nil, c.env)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v", err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "pw") {
			t.Errorf("error %v, want one with %q and no secret", err, c.want)
		}
	}
}

func TestHelpAndClock(t *testing.T) {
	if _, _, err := Load("serve", []string{"--addr", ":1", "-h"}, env("SPORTSDB_CACHE_MB", "abc")); !errors.Is(err, ErrHelp) {
		t.Errorf("-h: %v", err)
	}
	cfg, _, err := Load("gen", nil, env("SPORTSDB_NOW", "2026-10-05T12:00:00+02:00"))
	if err != nil || !cfg.Clock().Now().Equal(time.Date(2026, 10, 5, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("pinned clock: %v, %v", cfg.Clock().Now(), err)
	}
	var out bytes.Buffer
	WriteHelp(&out, "keys list")
	if s := out.String(); !strings.Contains(s, "--db DSN") || !strings.Contains(s, "SPORTSDB_DB_FILE") || strings.Contains(s, "--tier") {
		t.Errorf("keys list help:\n%s", s)
	}
	out.Reset()
	WriteHelp(&out, "serve")
	for _, o := range For("serve") {
		if !strings.Contains(out.String(), o.Env) {
			t.Errorf("serve help lacks %s", o.Env)
		}
	}
}

// The table is whole: defaults pass their own checks, a flag is unique among a command's
// options (mirror's --key and keys add's --key are two settings), a variable is
// unique among a command's options (serve's --upstream and mirror's --from share one, so a
// mirror and a server beside it read the same), and every row says which commands take it.
func TestTable(t *testing.T) {
	d := Defaults()
	if d.Addr != "127.0.0.1:8080" || d.CacheMB != 64 || d.Limits[store.Free] != 30 || d.LogFormat != "text" {
		t.Errorf("defaults: %+v", d)
	}
	seen := map[string]bool{}
	for _, o := range Options {
		var keys []string
		for _, cmd := range o.Commands {
			keys = append(keys, cmd+" "+o.Env)
			if o.Name != "" {
				keys = append(keys, cmd+" --"+o.Name)
			}
		}
		for _, k := range keys {
			if seen[k] {
				t.Errorf("%s twice", k)
			}
			seen[k] = true
		}
		if o.Env == "" || o.Set == nil || len(o.Commands) == 0 || o.Help == "" {
			t.Errorf("option %q incomplete", o.Name)
		}
	}
}

// The README's configuration table names every flag and variable of the table.
func TestReadmeListsEveryOption(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range Options {
		row := "| `" + o.Env + "`"
		if o.Name != "" {
			row = "| `--" + o.Name + "` | `" + o.Env + "`"
		}
		if !strings.Contains(string(raw), row) {
			t.Errorf("README's configuration table has no row %q", row)
		}
	}
}

// The server options that reach server.Config are read into their types.
func TestServerListsAndDurations(t *testing.T) {
	c, _, err := Load("serve", []string{"--trusted-proxies", "10.0.0.0/8, 192.0.2.7", "--cors-origins=https://a.example,http://b.example:8080/",
		"--drain", "15s"}, env())
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(c.TrustedProxies); got != "[10.0.0.0/8 192.0.2.7/32]" {
		t.Errorf("trusted proxies %s", got)
	}
	if got := strings.Join(c.CORSOrigins, " "); got != "https://a.example http://b.example:8080" {
		t.Errorf("cors origins %s", got)
	}
	if c.Drain != 15*time.Second {
		t.Errorf("drain %v", c.Drain)
	}
	d, _, err := Load("serve", nil, env())
	if err != nil || d.Drain != 0 || d.CORSOrigins != nil || d.TrustedProxies != nil {
		t.Errorf("defaults: %v %+v", err, d)
	}
}
