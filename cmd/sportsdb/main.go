// Command sportsdb serves the read API of TheSportsDB (v1 and v2) from a local database, and
// loads, exports and generates that database and manages its API keys.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"

	"sportsdb/internal/config"
)

// dbUse is what a command may do with the database the configuration names.
type dbUse int

const (
	noDB      dbUse = iota
	createsDB       // opens it, creating it when missing; a failed run removes what it created
	needsDB         // opens it; a missing database is an error
)

// command is one thing sportsdb does. Its flags are the options of config.Options that
// name it.
type command struct {
	name    string // "serve", "keys add"
	args    string // the positional arguments, in help: "PATH...", "DIR", "KEY"
	minArgs int
	maxArgs int // -1: any number
	summary string
	db      dbUse
	run     func(ctx context.Context, inv *invocation) error
}

// invocation is one run of a command: its checked settings and arguments.
type invocation struct {
	cfg            *config.Config
	args           []string
	stdout, stderr io.Writer
	// dbExisted says whether the database was there before the command ran.
	dbExisted bool
	// keep is set once a command that created the database has put it to use (serve,
	// once it answers requests): from then on a failure does not remove it.
	keep bool
}

var commands = []*command{
	{name: "serve", summary: "Serve the v1 and v2 API; a missing SQLite database is created with the demo dataset.", db: createsDB, run: serveCmd},
	{name: "import", args: "PATH...", minArgs: 1, maxArgs: -1, db: createsDB, run: importCmd,
		summary: "Load files or folders of TheSportsDB-format JSON (v1 or v2 bodies, or NDJSON of records)."},
	{name: "export", args: "DIR", minArgs: 1, maxArgs: 1, db: needsDB, run: exportCmd,
		summary: "Write the whole database into DIR in the import format (one NDJSON file per kind)."},
	{name: "gen", db: createsDB, run: genCmd, summary: "Fill the database with a deterministic synthetic dataset."},
	{name: "delete", args: "KIND ID...", minArgs: 2, maxArgs: -1, db: needsDB, run: deleteCmd,
		summary: "Delete records of one kind by id, in one write: an unknown kind or a missing id deletes nothing."},
	{name: "keys add", db: createsDB, run: keysAddCmd, summary: "Create an API key and print it alone on standard output."},
	{name: "keys list", db: needsDB, run: keysListCmd, summary: "List the API keys (by the start of their hash; keys are stored hashed)."},
	{name: "keys revoke", args: "KEY", minArgs: 1, maxArgs: 1, db: needsDB, run: keysRevokeCmd, summary: "Revoke an API key."},
	{name: "webhooks add", args: "URL", minArgs: 1, maxArgs: 1, db: needsDB, run: webhooksAddCmd,
		summary: "Register a webhook and print its id and signing secret (shown once) (docs/WEBHOOKS.md)."},
	{name: "webhooks list", db: needsDB, run: webhooksListCmd, summary: "List the webhooks: status, why deliveries fail, the next attempt."},
	{name: "webhooks remove", args: "ID", minArgs: 1, maxArgs: 1, db: needsDB, run: webhooksRemoveCmd, summary: "Remove a webhook."},
	{name: "media add", args: "FILE", minArgs: 1, maxArgs: 1, db: needsDB, run: mediaAddCmd,
		summary: "Keep a PNG, JPEG, GIF or WebP file at --path, served at that path (docs/PICTURES.md)."},
	{name: "media list", db: needsDB, run: mediaListCmd, summary: "List the kept images (originals): path, type, size in pixels and bytes."},
	{name: "media remove", args: "PATH", minArgs: 1, maxArgs: 1, db: needsDB, run: mediaRemoveCmd, summary: "Remove a kept image and its smaller copies."},
	{name: "migrate", db: createsDB, run: migrateCmd, summary: "Create or bring up to date the database's tables."},
	{name: "mirror", db: createsDB, run: mirrorCmd,
		summary: "Copy an upstream TheSportsDB-compatible API into the database, within a request budget; resumable (docs/MIRROR.md)."},
	{name: "healthcheck", run: healthcheckCmd,
		summary: "Ask a running server's /readyz at --addr; exit 0 when it is ready, 1 when not (for container health checks)."},
	{name: "version", run: versionCmd, summary: "Print the version, commit, build date and Go version."},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sportsdb:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		writeUsage(stderr)
		return errors.New("no command given")
	}
	if isHelp(args[0]) || args[0] == "help" {
		writeUsage(stdout)
		return nil
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = append([]string{"version"}, args[1:]...)
	}
	if _, ok := groups[args[0]]; ok && len(args) > 1 && isHelp(args[1]) {
		writeGroupHelp(stdout, args[0])
		return nil
	}
	cmd, rest, err := findCommand(args)
	if err != nil {
		writeUsage(stderr)
		return err
	}
	cfg, pos, err := config.Load(cmd.name, rest, os.LookupEnv)
	if errors.Is(err, config.ErrHelp) {
		return writeHelp(stdout, cmd)
	}
	if err != nil {
		return err
	}
	if len(pos) < cmd.minArgs || (cmd.maxArgs >= 0 && len(pos) > cmd.maxArgs) {
		return fmt.Errorf("%s: want %s (see sportsdb %s -h)", cmd.name, argsWanted(cmd), cmd.name)
	}
	inv := &invocation{cfg: cfg, args: pos, stdout: stdout, stderr: stderr}
	return runWithDB(ctx, cmd, inv)
}

// findCommand finds the command the first arguments name ("keys add" takes two).
func findCommand(args []string) (*command, []string, error) {
	name, rest := args[0], args[1:]
	if sub, ok := groups[name]; ok {
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			subs := strings.Split(sub, "|")
			return nil, nil, fmt.Errorf("%s: want %s or %s", name, strings.Join(subs[:len(subs)-1], ", "), subs[len(subs)-1])
		}
		name, rest = name+" "+rest[0], rest[1:]
	}
	for _, c := range commands {
		if c.name == name {
			return c, rest, nil
		}
	}
	return nil, nil, fmt.Errorf("unknown command %q", name)
}

func argsWanted(c *command) string {
	switch {
	case c.args == "":
		return "no arguments"
	case c.maxArgs < 0:
		return "at least one " + strings.TrimSuffix(c.args, "...")
	}
	return c.args
}

// writeUsage lists the commands.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, "sportsdb: a self-hosted TheSportsDB-compatible API server\n\nUsage: sportsdb COMMAND [ARGUMENTS] [FLAGS]\n\nCommands:\n")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "  %s %s\t%s\n", c.name, c.args, c.summary)
	}
	tw.Flush()
	fmt.Fprint(w, `
A DSN is a SQLite file path (default sportsdb.db) or a postgres:// URL. Every flag can also be
set by its environment variable (SPORTSDB_ADDR, SPORTSDB_DB, ...); a secret (SPORTSDB_DB,
SPORTSDB_REDIS) can be read from the file that SPORTSDB_DB_FILE or SPORTSDB_REDIS_FILE names.
Run "sportsdb COMMAND -h" for a command's flags; "sportsdb --version" for the version.
`)
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

// groups are the commands that take a subcommand, and their subcommands.
var groups = map[string]string{"keys": "add|list|revoke", "webhooks": "add|list|remove", "media": "add|list|remove"}

// writeGroupHelp lists the subcommands of a group.
func writeGroupHelp(w io.Writer, group string) {
	fmt.Fprintf(w, "Usage: sportsdb %s %s\n\n", group, groups[group])
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range commands {
		if strings.HasPrefix(c.name, group+" ") {
			fmt.Fprintf(tw, "  %s %s\t%s\n", c.name, c.args, c.summary)
		}
	}
	tw.Flush()
	subs := strings.Split(groups[group], "|")
	fmt.Fprintf(w, "\nRun \"sportsdb %s %s -h\" (%s) for a subcommand's flags.\n", group, subs[0], strings.Join(subs[1:], ", "))
}

// writeHelp is a command's -h: what it does, its arguments and its own flags.
func writeHelp(w io.Writer, c *command) error {
	fmt.Fprintf(w, "Usage: sportsdb %s", c.name)
	if len(config.For(c.name)) > 0 {
		fmt.Fprint(w, " [FLAGS]")
	}
	if c.args != "" {
		fmt.Fprint(w, " "+c.args)
	}
	fmt.Fprintf(w, "\n\n%s\n", c.summary)
	return config.WriteHelp(w, c.name)
}
