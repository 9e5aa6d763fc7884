package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"sportsdb/internal/clock"
	"sportsdb/internal/mirror"
)

func init() {
	for _, o := range []option{
		{name: "from", env: "SPORTSDB_UPSTREAM", help: "the upstream's base URL, like https://www.thesportsdb.com"},
		{name: "key", env: "SPORTSDB_UPSTREAM_KEY", help: "the upstream API key (never logged)", secret: true},
		{name: "rate", env: "SPORTSDB_UPSTREAM_RATE", def: "0", help: "most requests to the upstream in any rolling 60 s; 0: 100, or 30 for a free key"},
		{name: "leagues", env: "SPORTSDB_MIRROR_LEAGUES", help: "comma-separated league ids to mirror (and what they reference); empty: all"},
		{name: "seasons", env: "SPORTSDB_MIRROR_SEASONS", def: "0", help: "most recent seasons of each league to mirror; 0: all"},
	} {
		options[o.name] = o
	}
}

// mirrorCmd parses the flags and hands over to mirror.Run; everything else lives there.
func mirrorCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, v := flags("mirror", stderr, "from", "key", "db", "redis", "rate", "leagues", "seasons", "log-level", "log-format")
	followEnv, err := boolEnv("SPORTSDB_MIRROR_FOLLOW")
	if err != nil {
		return err
	}
	follow := fs.Bool("follow", followEnv, "keep running and keep the mirror fresh [SPORTSDB_MIRROR_FOLLOW]")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("mirror takes no arguments, got %q", fs.Args())
	}
	opts, err := mirrorOptions(v)
	if err != nil {
		return err
	}
	opts.Follow = *follow
	if _, pinned := os.LookupEnv("SPORTSDB_NOW"); pinned {
		clk, err := clock.FromEnv()
		if err != nil {
			return err
		}
		opts.Clock = mirror.StartingAt(clk.Now())
	}
	logger, _, err := newLogger(stderr, *v["log-level"], *v["log-format"])
	if err != nil {
		return err
	}
	st, err := openDB(ctx, *v["db"])
	if err != nil {
		return err
	}
	defer st.Close()
	opts.Store, opts.Logger, opts.Progress = st, logger, stderr
	_, err = mirror.Run(ctx, opts)
	return err
}

// mirrorOptions reads and checks every flag value before the database is touched.
func mirrorOptions(v map[string]*string) (mirror.Options, error) {
	o := mirror.Options{From: *v["from"], Key: *v["key"], Redis: *v["redis"]}
	var err error
	if o.Rate, err = strconv.Atoi(*v["rate"]); err != nil {
		return o, fmt.Errorf("--rate %q: want a whole number", *v["rate"])
	}
	if o.Seasons, err = strconv.Atoi(*v["seasons"]); err != nil {
		return o, fmt.Errorf("--seasons %q: want a whole number", *v["seasons"])
	}
	for _, l := range strings.Split(*v["leagues"], ",") {
		if l = strings.TrimSpace(l); l != "" {
			o.Leagues = append(o.Leagues, l)
		}
	}
	if o.From == "" {
		return o, fmt.Errorf("mirror: name the upstream with --from")
	}
	return o, o.Validate()
}

// boolEnv reads a boolean environment variable as Go's strconv does; unset is false.
func boolEnv(name string) (bool, error) {
	s, ok := os.LookupEnv(name)
	if !ok || s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%s=%q: want true or false", name, s)
	}
	return b, nil
}
