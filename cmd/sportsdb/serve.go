package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"sportsdb/internal/app"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/config"
	"sportsdb/internal/gen"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
)

func serveCmd(ctx context.Context, inv *invocation) error {
	c := inv.cfg
	prepared, err := app.Prepare(c) // the caps file, before anything is opened
	if err != nil {
		return err
	}
	if err := mqttChecked(c); err != nil {
		return err
	}
	logOut := newBufferedLog(inv.stderr)
	defer logOut.Close()
	logger, accessLog, err := newLogger(logOut, c.LogLevel, c.LogFormat)
	if err != nil {
		return err
	}
	slog.SetDefault(logger)
	var certs *certFiles
	if c.TLSCert != "" || c.TLSKey != "" {
		if certs, err = newCertFiles(c.TLSCert, c.TLSKey, logger); err != nil {
			return err
		}
	}
	// The ports first: a busy port then fails the start before a new database (and its
	// demo key, shown once) is made.
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close()
	limiter, err := newLimiter(c.Redis, logger)
	if err != nil {
		return err
	}
	if cl, ok := limiter.(interface{ Close() error }); ok {
		defer cl.Close()
	}
	if c.Pprof != "" {
		stopProfiling, err := serveProfiling(c.Pprof, logger)
		if err != nil {
			return err
		}
		defer stopProfiling()
	}
	limitGoMemory(c.CacheMB)
	st, err := openServeDB(ctx, c, !inv.dbExisted, inv.stdout)
	if err != nil {
		return err
	}
	defer st.Close()
	defer drawDemoPictures(ctx, st, c.Clock(), logger)()
	deps := app.Deps{Store: st, Limiter: limiter, Logger: logger, AccessLog: accessLog, WarmUp: true}
	upstream, upstreamMetrics, err := newUpstream(c, st, logger)
	if err != nil {
		return err
	}
	if upstream != nil {
		defer upstream.Close()
		deps.Upstream = upstream
	}
	srv := prepared.Server(deps)
	defer srv.Close()
	if err := srv.RegisterCollectors(upstreamMetrics...); err != nil {
		return err
	}
	images := app.ImageAddresses(c, deps) // for webhooks and MQTT, on --public-url
	stopMQTT, err := startMQTT(c, st, srv, logger, images)
	if err != nil {
		return err
	}
	defer stopMQTT()
	stopWebhooks, err := startWebhooks(c, st, srv, logger, images)
	if err != nil {
		return err
	}
	defer stopWebhooks()
	defer app.SweepLiveScores(st, c.Clock(), logger)()
	inv.keep = true
	served, scheme := server.Listener(ln), "http"
	if certs != nil {
		// On the bare listener: server.Listener's connections read the bytes net/http
		// writes, which under TLS are ciphertext, and net/http speaks HTTP/2 only on a
		// connection that is a *tls.Conn.
		served, scheme = tlsListener(ln, certs), "https"
	}
	return serveHTTP(ctx, served, scheme, srv, c.Drain, logger, inv.stdout)
}

// serveHTTP answers requests on ln until ctx ends, then drains and shuts down gracefully.
func serveHTTP(ctx context.Context, ln net.Listener, scheme string, srv *server.Server, drain time.Duration, logger *slog.Logger, stdout io.Writer) error {
	hs := &http.Server{Handler: srv, ConnContext: server.ConnContext, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	fmt.Fprintf(stdout, "sportsdb listening on %s://%s\n", scheme, ln.Addr())
	fmt.Fprintf(stdout, "try: curl %s://%s/api/v1/json/123/all_sports.php\n", scheme, ln.Addr())
	// Only now: the store's connections and the cache's background refreshes are sized by
	// the CPUs, from GOMAXPROCS as the runtime set it.
	moreProcs()
	return server.ServeUntil(ctx, hs, ln, srv, drain)
}

// openServeDB opens the database; a new SQLite file gets the demo dataset, and a database
// without records is named on the console, since every answer from it is empty.
func openServeDB(ctx context.Context, c *config.Config, fresh bool, stdout io.Writer) (store.Store, error) {
	st, err := openDB(ctx, c.DB)
	if err != nil {
		return nil, err
	}
	st.SetFeedOptions(c.FeedOptions())
	if fresh {
		err = seedDemo(ctx, st, c.Clock(), stdout)
	} else if err = warnIfEmpty(ctx, st, c.DB, stdout); err == nil {
		err = remindDemoKey(ctx, st, stdout)
	}
	if err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// demoKeyLabel marks the premium key serve makes with a new database.
const demoKeyLabel = "demo"

// seedDemo fills a new database with the demo dataset and prints a demo premium key.
func seedDemo(ctx context.Context, st store.Store, clk clock.Clock, stdout io.Writer) error {
	sum, err := gen.Generate(ctx, st, gen.Options{Scale: "demo", Seed: 1, Now: clk.Now()})
	if err != nil {
		return fmt.Errorf("demo data: %w", err)
	}
	key := auth.NewKey()
	if err := st.AddKey(ctx, store.Key{Hash: auth.Hash(key), Tier: store.Premium, Label: demoKeyLabel, Created: clk.Now()}); err != nil {
		return fmt.Errorf("demo key: %w", err)
	}
	fmt.Fprintf(stdout, "created a new database with the demo dataset (%s)\n", sum)
	if _, ok := st.(store.Images); ok {
		fmt.Fprintln(stdout, "its pictures are drawn behind the server, in a few seconds; answers name each here once it is kept")
	}
	fmt.Fprintf(stdout, "free keys: 123 and 3; demo premium key (shown once): %s\n", key)
	fmt.Fprintln(stdout, "to make another key: sportsdb keys add --tier premium")
	return nil
}

// warnIfEmpty says so when the database holds no records, and how to fill it.
func warnIfEmpty(ctx context.Context, st store.Records, dsn string, stdout io.Writer) error {
	ok, err := hasRecords(ctx, st)
	if err != nil || ok {
		return err
	}
	name := dsn
	if backend.IsPostgres(dsn) {
		name = "the PostgreSQL database" // its URL may hold a password
	}
	fmt.Fprintf(stdout, "warning: %s holds no records, so every answer is empty; load the demo data with "+
		"\"sportsdb gen --scale demo\" (with the same --db), or your files with \"sportsdb import PATH\"\n", name)
	return nil
}

// remindDemoKey says, on a database that serve created, how to make a premium key: the demo
// key was shown once, at the first start, which may have scrolled away.
func remindDemoKey(ctx context.Context, st store.Keys, stdout io.Writer) error {
	demo, err := isDemo(ctx, st)
	if demo {
		fmt.Fprintln(stdout, "free keys: 123 and 3; the demo premium key was shown when the database was created; to make another: sportsdb keys add --tier premium")
	}
	return err
}

func newLimiter(redisURL string, logger *slog.Logger) (server.Limiter, error) {
	// Limits run on the wall clock even when SPORTSDB_NOW pins the data clock: a pinned
	// minute would never end.
	if redisURL == "" {
		return ratelimit.NewMemory(clock.System{}), nil
	}
	l, err := ratelimit.NewRedis(redisURL, clock.System{}, ratelimit.RedisOptions{Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	return l, nil
}

// serveProfiling serves the Go profiling handlers on addr, which the configuration holds to
// a loopback address: profiles show request data.
func serveProfiling(addr string, logger *slog.Logger) (stop func(), err error) {
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

// goHeadroomMB is the Go memory a server needs besides its response cache, in four parts:
// answers being computed, connections' buffers and the rate limiter's windows (the first
// term); the name index of the searches (internal/store/nameindex, the second, sized for
// the full-scale data set); what the SQLite readers' smaller page caches gave up to the
// heap (internal/store/sqlite, the third), without which the collector, its goal too close
// to the live heap under uncached searches, ran often enough to cost a large share of the
// CPU; and the records of the queries the response cache keeps for the answers writes make
// stale (internal/respcache, findCacheBytes, the fourth), which would otherwise take the
// same room from the collector. The process holds more than the Go limit (SQLite's page
// caches and statements, the mapped program). The figures behind each part are in
// docs/PERFORMANCE.md.
const goHeadroomMB = 86 + 64 + 18 + 32

// limitGoMemory gives the Go runtime a soft memory limit of the response cache's budget plus
// headroom, unless GOMEMLIMIT sets one. Without it the collector lets the heap grow to twice
// what is live before it runs, and under a stream of large answers that doubled the
// server's resident memory for garbage. The limit is soft: the collector runs sooner as it
// nears, it never fails an allocation.
//
// Under that limit the collector may also run less often (GOGC 400 unless GOGC is set): each
// cycle slows the answers in flight, and under full load frequent cycles were the p99 of
// cached answers (docs/PERFORMANCE.md, "Measured decisions in the code").
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
// part of the machine's time was idle. More processors than that cost too: each one the
// collector finds idle during its mark phase runs a mark worker of its own, and with four
// per CPU those workers took the CPUs from the requests (the uncached searches' p99 at a
// constant rate grew with them), while each extra processor is one more thread to wake.
// Two per CPU was faster than four on the search, cold and hot lists and as fast on the
// mixed one, with lower p99s; the figures are in docs/PERFORMANCE.md ("Measured decisions
// in the code"). The SQLite read pool is sized from GOMAXPROCS (internal/store/sqlite), so
// this also sets how many readers there are.
const procsPerCPU = 2

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

// inBackground runs run until stop is called; stop returns once run has.
func inBackground(run func(ctx context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx)
	}()
	return func() { cancel(); <-done }
}
