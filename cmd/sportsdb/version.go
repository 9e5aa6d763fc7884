package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// Set at link time by a build that has no version control data at hand (the container's
// build context holds no .git): -ldflags "-X main.commit=... -X main.buildDate=...".
var (
	version   string
	commit    string
	buildDate string
)

func versionCmd(_ context.Context, inv *invocation) error {
	info, _ := debug.ReadBuildInfo()
	writeVersion(inv.stdout, info)
	return nil
}

// writeVersion prints the version, commit, build date and Go version, from the link-time
// values or else the build information Go records in the binary.
func writeVersion(w io.Writer, info *debug.BuildInfo) {
	ver, rev, date, modified, goVersion := version, commit, buildDate, false, "unknown"
	if info != nil {
		goVersion = info.GoVersion
		if ver == "" {
			ver = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = or(rev, s.Value)
			case "vcs.time":
				date = or(date, s.Value+" (commit time)")
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if modified && rev != "" {
		rev += " (with uncommitted changes)"
	}
	fmt.Fprintf(w, "sportsdb %s\ncommit:  %s\nbuilt:   %s\ngo:      %s\n",
		or(ver, "(devel)"), or(rev, "unknown"), or(date, "unknown"), goVersion)
}

func or(v, fallback string) string {
	if v != "" {
		return v
	}
	return fallback
}
