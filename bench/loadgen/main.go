// Command loadgen is the load generator of the sportsdb benchmark (bench/run.sh). It builds
// request lists from a running server's own data, mirrors their answers into a folder that
// nginx serves as static files, drives a server with a list (as fast as possible, or at a
// constant rate), and prints the final table.
//
//	loadgen lists  -base URL -premium FILE -free FILE -out DIR [-n N] [-seed N]
//	loadgen mirror -base URL -list FILE -root DIR -out FILE
//	loadgen run    -addr HOST:PORT[,HOST:PORT] -list FILE [-c N] [-d DUR] [-rate R] [-once] [-metrics URL,...] [-workload W -server S]
//	loadgen report RESULTS.jsonl
//	loadgen wait   -url URL -since UNIXNANO [-timeout DUR]
//	loadgen rekey  -list FILE -out FILE -from KEYFILE,... -to KEYFILE,...
//	loadgen streams -addr HOST:PORT -key-file FILE -pid PID -sportsdb BIN -db DSN [-n N]
//	loadgen live   -addr HOST:PORT -list FILE -db DB -premium FILE -dir DIR [-out FILE] (live.go)
//	loadgen writes -addr HOST:PORT -list FILE -premium FILE -editors FILE -stream-key FILE [-n N] [-rate R] (writes.go)
//	loadgen images -addr HOST:PORT -editor FILE -pid PID [-side N] [-runs N] [-burst N] (images.go)
//	loadgen push   -addr HOST:PORT -premium FILE -db DB -dir DIR [-mqtt URL] [-healthy N -slow N -failing N] (push.go)
//
// run prints one JSON object per run; report reads those (and the other measurements
// run.sh records) and prints the comparison against the targets. wait polls a URL until it
// answers 200 and prints the milliseconds since a process was started. rekey rewrites a
// list's keys for another database.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

const usage = `usage:
  loadgen lists  -base URL -premium FILE -free FILE -out DIR [-n N] [-seed N]
  loadgen mirror -base URL -list FILE -root DIR -out FILE
  loadgen run    -addr HOST:PORT[,HOST:PORT] -list FILE [-c N] [-d DUR] [-rate R] [-once] [-metrics URL,...] [-workload W -server S]
  loadgen report RESULTS.jsonl
  loadgen wait   -url URL -since UNIXNANO [-timeout DUR]
  loadgen rekey  -list FILE -out FILE -from KEYFILE,... -to KEYFILE,...
  loadgen streams -addr HOST:PORT -key-file FILE -pid PID -sportsdb BIN -db DSN [-n N]
  loadgen live   -addr HOST:PORT -list FILE -db DB -premium FILE -dir DIR [-out FILE] [-sportsdb BIN]
  loadgen writes -addr HOST:PORT -list FILE -premium FILE -editors FILE -stream-key FILE [-n N] [-rate R] [-c N] [-d DUR] [-runs N] [-label S] [-out FILE]
  loadgen images -addr HOST:PORT -editor FILE -pid PID [-side N] [-runs N] [-burst N] [-burst-w N] [-burst-h N]
  loadgen push   -addr HOST:PORT -premium FILE -db DB -dir DIR [-sportsdb BIN] [-mqtt URL -mqtt-prefix P] [-healthy N -slow N -failing N] [-slow-delay DUR] [-d DUR] [-out FILE]
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
		}
		os.Exit(1)
	}
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "lists":
		return listsCmd(ctx, args[1:], stdout, stderr)
	case "mirror":
		return mirrorCmd(ctx, args[1:], stdout, stderr)
	case "run":
		return runCmd(ctx, args[1:], stdout, stderr)
	case "report":
		return reportCmd(args[1:], stdout)
	case "wait":
		return waitCmd(ctx, args[1:], stdout, stderr)
	case "rekey":
		return rekeyCmd(args[1:], stdout, stderr)
	case "streams":
		return streamsCmd(ctx, args[1:], stdout, stderr)
	case "live":
		return liveCmd(ctx, args[1:], stdout, stderr)
	case "writes":
		return writesCmd(ctx, args[1:], stdout, stderr)
	case "images":
		return imagesCmd(ctx, args[1:], stdout, stderr)
	case "push":
		return pushCmd(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "server address, host:port; several, comma-separated, take requests in turn")
	list := fs.String("list", "", "request list file")
	conns := fs.Int("c", 32, "workers, each with one connection to each address")
	dur := fs.Duration("d", 15*time.Second, "measured duration")
	warm := fs.Duration("warmup", 2*time.Second, "unmeasured warm-up before the measured duration")
	rate := fs.Float64("rate", 0, "constant request rate per second (0: as fast as possible)")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	workload := fs.String("workload", "", "workload name, for the report")
	server := fs.String("server", "", "server name, for the report")
	once := fs.Bool("once", false, "send each request of the list at most once, without warm-up; stop at the end of the list")
	metricsURLs := fs.String("metrics", "", "sportsdb /metrics URLs, comma-separated: report the response cache's hits over the run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || *list == "" {
		return errors.New("run: -addr and -list are required")
	}
	if *dur > 10*time.Minute || *warm > time.Minute {
		return errors.New("run: keep -d within 10m and -warmup within 1m")
	}
	if *rate < 0 {
		return errors.New("run: -rate must not be negative")
	}
	lines, err := readList(*list)
	if err != nil {
		return err
	}
	addrs := splitList(*addr)
	var murls []string
	var before map[string]int64
	if *metricsURLs != "" {
		murls = splitList(*metricsURLs)
		if before, err = cacheCounts(ctx, murls); err != nil {
			return err
		}
	}
	// A backlog at a rate the server cannot hold must still end.
	ctx, cancel := context.WithTimeout(ctx, *warm+*dur+*timeout+5*time.Second)
	defer cancel()
	res, err := runLoad(ctx, load{addr: addrs[0], more: addrs[1:], list: lines, connections: *conns, duration: *dur,
		warmup: *warm, rate: *rate, timeout: *timeout, once: *once})
	if err != nil {
		return err
	}
	if murls != nil {
		after, err := cacheCounts(context.WithoutCancel(ctx), murls)
		if err != nil {
			return err
		}
		res.Cache = cacheDelta(before, after, int64(res.Requests))
	}
	res.Workload, res.Server = *workload, *server
	out, err := json.Marshal(map[string]any{"type": "run", "run": res})
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}

// splitList splits a comma-separated flag value, dropping empty parts.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// waitCmd polls a URL every few milliseconds until it answers 200, then prints how many
// milliseconds have passed since -since (the Unix nanosecond a server was started).
func waitCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen wait", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("url", "", "URL that answers 200 once the server is up")
	since := fs.Int64("since", 0, "Unix time in nanoseconds when the server was started")
	timeout := fs.Duration("timeout", 60*time.Second, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *target == "" || *since <= 0 {
		return errors.New("wait: -url and -since are required")
	}
	ms, err := waitFor(ctx, *target, time.Unix(0, *since), *timeout)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%.1f\n", ms)
	return err
}

func waitFor(ctx context.Context, target string, since time.Time, timeout time.Duration) (float64, error) {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return 0, fmt.Errorf("wait: %w", err)
		}
		if resp, err := client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return float64(time.Since(since).Microseconds()) / 1000, nil
			}
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("wait: %s did not answer 200 within %s", scrubKey(target), timeout)
		}
		select {
		case <-time.After(5 * time.Millisecond):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
