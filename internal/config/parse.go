package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
)

// ErrHelp is returned by Load when the arguments ask for help (-h, --help).
var ErrHelp = errors.New("help requested")

// Env looks up an environment variable (os.LookupEnv, or a map in tests).
type Env func(name string) (string, bool)

// Defaults is the configuration of the built-in defaults.
func Defaults() *Config {
	c := &Config{}
	for i := range Options {
		o := &Options[i]
		if err := o.Set(c, o.Default); err != nil {
			panic(fmt.Sprintf("config: default of %s: %v", o.label(), err))
		}
	}
	return c
}

// Load reads the settings of a command: the defaults, then the environment, then the flags,
// which may come before, between or after the positional arguments ("--" ends the flags).
// Every value is checked here. It returns the positional arguments.
func Load(cmd string, args []string, env Env) (*Config, []string, error) {
	if asksHelp(args) { // even when a variable holds a bad value
		return nil, nil, ErrHelp
	}
	c := Defaults()
	opts := For(cmd)
	given := map[*Option]bool{}
	for _, o := range opts {
		v, ok, err := fromEnv(o, env)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		if err := o.Set(c, v); err != nil {
			return nil, nil, o.refuse(o.Env, v, err)
		}
		given[o] = true
	}
	rest, err := parseFlags(c, cmd, opts, args, given)
	if err != nil {
		return nil, nil, err
	}
	for _, o := range opts {
		if o.Required && !given[o] {
			return nil, nil, fmt.Errorf("%s: --%s (or %s) is required", cmd, o.Name, o.Env)
		}
	}
	return c, rest, nil
}

// parseFlags sets the flags among args and returns the other arguments. A flag is -name or
// --name, its value after "=" or in the next argument; a boolean alone means true.
func parseFlags(c *Config, cmd string, opts []*Option, args []string, given map[*Option]bool) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		name, v, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		o := lookup(opts, name)
		if o == nil {
			return nil, fmt.Errorf("unknown flag %s (see sportsdb %s -h)", a, cmd)
		}
		switch {
		case hasValue:
		case o.Bool():
			v = "true"
		case i+1 < len(args):
			i++
			v = args[i]
		default:
			return nil, fmt.Errorf("--%s needs a value (%s)", o.Name, o.Arg)
		}
		if err := o.Set(c, v); err != nil {
			return nil, o.refuse("--"+o.Name, v, err)
		}
		given[o] = true
	}
	return rest, nil
}

func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// fromEnv reads an option's variable, or for a secret the file its _FILE variable names
// (without the line end a file usually has). Both at once is refused, as a contradiction.
func fromEnv(o *Option, env Env) (string, bool, error) {
	v, ok := env(o.Env)
	if !o.Secret {
		return v, ok, nil
	}
	path, fromFile := env(o.Env + "_FILE")
	if !fromFile {
		return v, ok, nil
	}
	if ok {
		return "", false, fmt.Errorf("%s and %s are both set: keep one", o.Env, o.Env+"_FILE")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", false, fmt.Errorf("%s_FILE: %w", o.Env, err)
	}
	return strings.TrimRight(string(raw), "\r\n"), true, nil
}

// refuse names the setting and, unless it is a secret, the value.
func (o *Option) refuse(source, v string, err error) error {
	if o.Secret {
		return fmt.Errorf("%s: %w", source, err)
	}
	if strings.HasPrefix(source, "--") {
		return fmt.Errorf("%s %q: %w", source, v, err)
	}
	return fmt.Errorf("%s=%q: %w", source, v, err)
}

func (o *Option) label() string {
	if o.Name != "" {
		return "--" + o.Name
	}
	return o.Env
}

// For lists the options a command takes, in table order.
func For(cmd string) []*Option {
	var out []*Option
	for i := range Options {
		for _, c := range Options[i].Commands {
			if c == cmd {
				out = append(out, &Options[i])
				break
			}
		}
	}
	return out
}

func lookup(opts []*Option, name string) *Option {
	for _, o := range opts {
		if o.Name != "" && o.Name == name {
			return o
		}
	}
	return nil
}

// WriteHelp writes a command's flags and variables: each with its value's form, its
// default and the variable that sets it.
func WriteHelp(w io.Writer, cmd string) error {
	opts := For(cmd)
	if len(opts) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nFlags (before or after the arguments) and their environment variables:")
	for _, o := range opts {
		flag := "(environment only)"
		if o.Name != "" {
			flag = strings.TrimSpace("--" + o.Name + " " + o.Arg)
		}
		help := o.Help
		if o.Default != "" && !o.Bool() {
			help += " (default " + o.Default + ")"
		}
		if o.Required {
			help += " (required)"
		}
		vars := o.Env
		if o.Secret {
			vars += ", or a file named by " + o.Env + "_FILE"
		}
		fmt.Fprintf(tw, "  %s\t%s [%s]\n", flag, help, vars)
	}
	return tw.Flush()
}
