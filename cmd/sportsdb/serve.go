package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"sportsdb/internal/api/caps"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/gen"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
)

func serveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, v := flags("serve", stderr, "addr", "db", "redis", "caps", "limits", "cache-mb", "cache-disk-mb", "cache-dir", "log-level", "log-format", "key-fails", "trust-proxy", "pprof")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("serve takes no arguments, got %q", fs.Args())
	}
	logOut := newBufferedLog(stderr)
	defer logOut.Close()
	logger, accessLog, err := newLogger(logOut, *v["log-level"], *v["log-format"])
	if err != nil {
		return err
	}
	slog.SetDefault(logger)
	clk, err := clock.FromEnv()
	if err != nil {
		return err
	}
	dsn := *v["db"]
	fresh := false
	if !backend.IsPostgres(dsn) {
		if _, err := os.Stat(dsn); errors.Is(err, os.ErrNotExist) {
			fresh = true
		}
	}
	st, err := openDB(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if fresh {
		if err := seedDemo(ctx, st, clk, stdout); err != nil {
			return err
		}
	}
	fails, err := strconv.Atoi(*v["key-fails"])
	if err != nil || fails < 1 {
		return fmt.Errorf("--key-fails %q: want a whole number of at least 1", *v["key-fails"])
	}
	cacheMB, err := strconv.Atoi(*v["cache-mb"])
	if err != nil || cacheMB < 1 {
		return fmt.Errorf("--cache-mb %q: want a whole number of at least 1", *v["cache-mb"])
	}
	limitGoMemory(cacheMB)
	diskMB, err := strconv.ParseInt(*v["cache-disk-mb"], 10, 64)
	if err != nil || diskMB < 0 {
		return fmt.Errorf("--cache-disk-mb %q: want a whole number, 0 for none", *v["cache-disk-mb"])
	}
	if dir := *v["cache-dir"]; dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("--cache-dir %q: not a directory", dir)
		}
	}
	diskBytes := diskMB << 20
	if diskMB == 0 {
		diskBytes = -1 // server.Config: negative means no files
	}
	limits, err := server.ParseLimits(*v["limits"])
	if err != nil {
		return err
	}
	// Limits and the key cache run on the wall clock even when SPORTSDB_NOW pins the data
	// clock: a pinned minute would never end, and a revoked key would never expire.
	limiter, err := newLimiter(*v["redis"], clock.System{}, logger)
	if err != nil {
		return err
	}
	if c, ok := limiter.(interface{ Close() error }); ok {
		defer c.Close()
	}
	table := caps.New()
	srv := server.New(server.Config{
		Store: st, Clock: clk, Caps: table, Logger: logger, AccessLog: accessLog, Limiter: limiter,
		Auth:       auth.New(st, clock.System{}, auth.Options{}),
		Guard:      auth.NewFailGuard(auth.FailGuardOptions{Limit: fails, Window: time.Minute}),
		TrustProxy: *v["trust-proxy"] == "true",
		Limits:     limits,
		CacheBytes: cacheMB << 20,
		CacheDir:   *v["cache-dir"], CacheDiskBytes: diskBytes,
	})
	defer srv.Close()
	if path := *v["caps"]; path != "" {
		if err := table.LoadFile(path); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", *v["addr"])
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	ln = server.Listener(ln)
	hs := &http.Server{Handler: srv, ConnContext: server.ConnContext, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	if addr := *v["pprof"]; addr != "" {
		stopProfiling, err := serveProfiling(addr, logger)
		if err != nil {
			return err
		}
		defer stopProfiling()
	}
	fmt.Fprintf(stdout, "sportsdb listening on http://%s\n", ln.Addr())
	fmt.Fprintf(stdout, "try: curl http://%s/api/v1/json/123/all_sports.php\n", ln.Addr())
	// Only now: the store's connections and the cache's background refreshes are sized by
	// the CPUs, from GOMAXPROCS as the runtime set it.
	moreProcs()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	logger.Info("shutting down")
	return hs.Shutdown(shutdown)
}

// openDB opens the store and makes sure a new database accepts the published free keys.
func openDB(ctx context.Context, dsn string) (store.Store, error) {
	st, err := backend.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := auth.EnsurePublished(ctx, st); err != nil {
		st.Close()
		return nil, fmt.Errorf("published keys: %w", err)
	}
	return st, nil
}

// seedDemo fills a new database with the demo dataset and prints a demo premium key.
func seedDemo(ctx context.Context, st store.Store, clk clock.Clock, stdout io.Writer) error {
	sum, err := gen.Generate(ctx, st, gen.Options{Scale: "demo", Seed: 1, Now: clk.Now()})
	if err != nil {
		return fmt.Errorf("demo data: %w", err)
	}
	key := auth.NewKey()
	if err := st.AddKey(ctx, store.Key{Hash: auth.Hash(key), Tier: store.Premium, Label: "demo", Created: clk.Now()}); err != nil {
		return fmt.Errorf("demo key: %w", err)
	}
	fmt.Fprintf(stdout, "created a new database with the demo dataset (%s)\n", sum)
	fmt.Fprintf(stdout, "free keys: 123 and 3; demo premium key (shown once): %s\n", key)
	return nil
}

func newLimiter(redisURL string, clk clock.Clock, logger *slog.Logger) (server.Limiter, error) {
	if redisURL == "" {
		return ratelimit.NewMemory(clk), nil
	}
	l, err := ratelimit.NewRedis(redisURL, clk, ratelimit.RedisOptions{Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	return l, nil
}

// serveProfiling serves the Go profiling handlers on a loopback address only: profiles show
// request data, so they are never exposed beyond the machine.
func serveProfiling(addr string, logger *slog.Logger) (stop func(), err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--pprof %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--pprof %q: profiling listens on a loopback address only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	logger.Info("profiling handlers listening", "addr", ln.Addr().String())
	return func() { _ = hs.Close() }, nil
}

// goHeadroomMB is the Go memory a server needs besides its response cache: answers being
// computed (a day's events at full scale is a few megabytes, decoded first), connections'
// buffers, the rate limiter's windows.
const goHeadroomMB = 96

// limitGoMemory gives the Go runtime a soft memory limit of the response cache's budget plus
// headroom, unless GOMEMLIMIT sets one. Without it the collector lets the heap grow to twice
// what is live before it runs, and under a stream of large answers that doubled the
// server's resident memory for garbage. The limit is soft: the collector runs sooner as it
// nears, it never fails an allocation.
//
// Under that limit the collector may also run less often (GOGC 400 unless GOGC is set): each
// cycle slows the answers in flight for a few milliseconds, and at 12,000 requests/s with
// GOGC 100 the two cycles a second were the p99 of cached answers (search at full scale: 4.7-
// 5.5 ms, 3.0 ms with 400; peak RSS stays under the limit).
func limitGoMemory(cacheMB int) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	debug.SetMemoryLimit(int64(cacheMB+goHeadroomMB) << 20)
	collectLessOften()
}

// procsPerCPU is how many goroutines serve runs at once for each CPU it may use.
//
// A goroutine keeps its runtime processor while it is in a system call, and a server spends
// much of its time in them: reading requests, writing answers and its log. On loopback a
// socket write also does the client's side of the delivery. With one processor per CPU both
// were often held in system calls while other answers were ready to go: under full load a
// fifth of a 2-CPU machine's time was idle, the server using one CPU of the two. With four
// per CPU the system schedules the threads instead. At full scale, alternating with one per
// CPU in the same run (client on the same machine): hot lookups 41,000 -> 53,000 requests/s,
// searches 32,000 -> 43,000 with p99 6.4 -> 1.9 ms, mixed p99 7.4 -> 5.4 ms, searches at a
// constant 16,000/s p99 3.6 -> 2.5 ms. Two per CPU gained most of the throughput but less of
// the p99.
const procsPerCPU = 4

// moreProcs runs procsPerCPU goroutines at once for each CPU the runtime would use by
// default (which follows the CPU quota of a container), unless GOMAXPROCS is set. The count
// is taken at start: a quota changed later is not followed, as with GOMAXPROCS set.
func moreProcs() {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	runtime.SetDefaultGOMAXPROCS()
	runtime.GOMAXPROCS(procsPerCPU * runtime.GOMAXPROCS(0))
}

// collectLessOften lets the heap grow to five times what is live before the collector runs,
// not twice, unless GOGC is set.
func collectLessOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}
