// Command sportsdb serves the read API of TheSportsDB (v1 and v2) from a local database, and
// loads, exports and generates that database and manages its API keys.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"sportsdb/internal/server"
)

const usage = `sportsdb: a self-hosted TheSportsDB-compatible API server

Usage:
  sportsdb serve   [--addr HOST:PORT] [--db DSN] [--redis URL] [--caps FILE]
  sportsdb import  [--db DSN] [--url URL] PATH...
  sportsdb export  [--db DSN] DIR
  sportsdb gen     --scale demo|small|full [--seed N] [--db DSN]
  sportsdb keys    add --tier free|premium|business [--label TEXT] [--db DSN]
  sportsdb keys    list [--db DSN]
  sportsdb keys    revoke [--db DSN] KEY
  sportsdb migrate [--db DSN]
  sportsdb mirror  --from URL --key KEY [--db DSN] [--rate N] [--leagues ID,...] [--follow]

A DSN is a SQLite file path (default sportsdb.db) or a postgres:// URL. Every flag can also be
set by its environment variable (SPORTSDB_ADDR, SPORTSDB_DB, ...); SPORTSDB_NOW (RFC 3339)
pins the clock. Run "sportsdb COMMAND -h" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sportsdb:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serveCmd(ctx, rest, stdout, stderr)
	case "import":
		return importCmd(ctx, rest, stdout, stderr)
	case "export":
		return exportCmd(ctx, rest, stdout, stderr)
	case "gen":
		return genCmd(ctx, rest, stdout, stderr)
	case "keys":
		return keysCmd(ctx, rest, stdout, stderr)
	case "migrate":
		return migrateCmd(ctx, rest, stdout, stderr)
	case "mirror":
		return mirrorCmd(ctx, rest, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// option is one setting: a flag with an environment variable and a default. Secret options
// (a Redis URL can hold a password) are never printed.
type option struct {
	name, env, def, help string
	secret               bool
}

var options = map[string]option{
	"addr":       {name: "addr", env: "SPORTSDB_ADDR", def: "127.0.0.1:8080", help: "address to listen on"},
	"db":         {name: "db", env: "SPORTSDB_DB", def: "sportsdb.db", help: "SQLite file path or postgres:// URL", secret: true},
	"redis":      {name: "redis", env: "SPORTSDB_REDIS", help: "Redis URL to share rate limits between replicas (redis://host:6379/0)", secret: true},
	"caps":       {name: "caps", env: "SPORTSDB_CAPS", help: "JSON file overriding record caps per endpoint and tier"},
	"log-level":  {name: "log-level", env: "SPORTSDB_LOG_LEVEL", def: "info", help: "debug, info, warn or error"},
	"log-format": {name: "log-format", env: "SPORTSDB_LOG_FORMAT", def: "text", help: "text or json"},
	"limits": {name: "limits", env: "SPORTSDB_LIMITS", def: "free:30,premium:100,business:120",
		help: "requests per rolling minute of each tier"},
	"cache-mb": {name: "cache-mb", env: "SPORTSDB_CACHE_MB", def: "64",
		help: "memory for cached answers, in MiB"},
	"cache-disk-mb": {name: "cache-disk-mb", env: "SPORTSDB_CACHE_DISK_MB", def: "1024",
		help: "disk for cached answers of 16 KiB and more, in MiB, sent from the system's file cache; 0 keeps them in memory"},
	"cache-dir": {name: "cache-dir", env: "SPORTSDB_CACHE_DIR",
		help: "directory for those files (default: the system's temporary directory)"},
	"key-fails": {name: "key-fails", env: "SPORTSDB_KEY_FAILS", def: "20", help: "failed key checks allowed per client address per minute"},
	"trust-proxy": {name: "trust-proxy", env: "SPORTSDB_TRUST_PROXY", def: "false",
		help: "take the client address from X-Forwarded-For (only behind a reverse proxy)"},
	"pprof": {name: "pprof", env: "SPORTSDB_PPROF",
		help: "loopback address for Go profiling handlers (/debug/pprof/), for benchmarks; off when empty"},
	"url":   {name: "url", env: "SPORTSDB_IMPORT_URL", help: "the request a single imported file answered (gives parent ids the body lacks)"},
	"scale": {name: "scale", env: "SPORTSDB_SCALE", def: "demo", help: "demo, small or full"},
	"seed":  {name: "seed", env: "SPORTSDB_SEED", def: "1", help: "generator seed"},
	"tier":  {name: "tier", env: "SPORTSDB_TIER", help: "free, premium or business"},
	"label": {name: "label", env: "SPORTSDB_LABEL", help: "a note stored with the key"},
}

// flags returns a flag set for a command with the named options, each defaulting to its
// environment variable, then to its built-in default.
func flags(cmd string, stderr io.Writer, names ...string) (*flag.FlagSet, map[string]*string) {
	fs := flag.NewFlagSet("sportsdb "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	vals := map[string]*string{}
	for _, n := range names {
		o, ok := options[n]
		if !ok {
			panic("unknown option " + n)
		}
		def := o.def
		if v, ok := os.LookupEnv(o.env); ok {
			def = v
		}
		shown := def
		if o.secret && def != o.def {
			shown = "(from " + o.env + ")"
		}
		vals[n] = fs.String(n, def, o.help+" ["+o.env+"]")
		if f := fs.Lookup(n); f != nil {
			f.DefValue = shown
		}
	}
	return fs, vals
}

// newLogger returns the logger of a level and format writing to w, and the access log that
// writes request lines in the same form, nil when the level leaves them out (above info).
func newLogger(w io.Writer, level, format string) (*slog.Logger, *server.AccessLog, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, nil, fmt.Errorf("log level %q: %w", level, err)
	}
	opts := &slog.HandlerOptions{Level: lv}
	var h slog.Handler
	switch strings.ToLower(format) {
	case "json":
		h = slog.NewJSONHandler(w, opts)
	case "text", "":
		h = slog.NewTextHandler(w, opts)
	default:
		return nil, nil, fmt.Errorf("log format %q: want text or json", format)
	}
	var access *server.AccessLog
	if lv <= slog.LevelInfo {
		access = server.NewAccessLog(w, strings.EqualFold(format, "json"))
	}
	return slog.New(h), access, nil
}
