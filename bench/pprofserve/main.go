// Command pprofserve is sportsdb's server wired as `sportsdb serve` wires it (SQLite or
// PostgreSQL store, in-memory rate limits, the same timeouts), plus the net/http/pprof
// handlers on a second loopback address, so bench/run.sh can take a CPU profile under load.
// It is a benchmark tool: the released binary carries no profiling endpoint.
//
//	pprofserve -db FILE -addr 127.0.0.1:18082 -pprof 127.0.0.1:18083 [-limits free:N,premium:N,business:N]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"syscall"
	"time"

	"sportsdb/internal/api/caps"
	"sportsdb/internal/auth"
	"sportsdb/internal/clock"
	"sportsdb/internal/ratelimit"
	"sportsdb/internal/server"
	"sportsdb/internal/store/backend"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "pprofserve:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("pprofserve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dsn := fs.String("db", "", "existing SQLite file or postgres:// URL")
	addr := fs.String("addr", "127.0.0.1:18082", "API address")
	pprofAddr := fs.String("pprof", "127.0.0.1:18083", "profiling address (keep it on loopback)")
	limitsText := fs.String("limits", "free:30,premium:100,business:120", "requests per rolling minute of each tier")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error (access logs are info)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dsn == "" {
		return errors.New("-db is required")
	}
	if !backend.IsPostgres(*dsn) {
		if _, err := os.Stat(*dsn); err != nil {
			return fmt.Errorf("database: %w", err) // serve would create a demo database; a profile wants the real one
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	limits, err := server.ParseLimits(*limitsText)
	if err != nil {
		return err
	}
	clk, err := clock.FromEnv()
	if err != nil {
		return err
	}
	st, err := backend.Open(ctx, *dsn)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer st.Close()
	srv := server.New(server.Config{
		Store: st, Clock: clk, Caps: caps.New(), Logger: logger, Limiter: ratelimit.NewMemory(clk),
		Auth:   auth.New(st, clk, auth.Options{}),
		Guard:  auth.NewFailGuard(auth.FailGuardOptions{Limit: 20, Window: time.Minute}),
		Limits: limits,
	})
	api := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	prof := &http.Server{Handler: pprofMux(), ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 2)
	for _, s := range []struct {
		hs   *http.Server
		addr string
	}{{api, *addr}, {prof, *pprofAddr}} {
		ln, err := net.Listen("tcp", s.addr)
		if err != nil {
			return fmt.Errorf("listen %s: %w", s.addr, err)
		}
		go func() { errc <- s.hs.Serve(ln) }()
	}
	fmt.Fprintf(stderr, "pprofserve: API on http://%s, profiles on http://%s/debug/pprof/\n", *addr, *pprofAddr)
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = prof.Shutdown(shutdown)
	return api.Shutdown(shutdown)
}

func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
