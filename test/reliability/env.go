package main

import (
	"context"
	"fmt"
	"sync"
)

// sharedEnv is one server on the demo dataset that the hostile-request checks share; the log
// check reads its log afterwards for every key they sent.
type sharedEnv struct {
	fx   *fixture
	srv  *server
	fake []string // distinctive keys no database holds

	mu       sync.Mutex
	requests map[string]int // per surface
	statuses map[int]int
	errors   map[string]int
}

// shared starts the shared server on first use. It runs until the suite ends, whatever the
// check that started it.
func (cfg *config) shared(ctx context.Context) (*sharedEnv, error) {
	if cfg.env != nil {
		return cfg.env, nil
	}
	if cfg.envErr != nil {
		return nil, cfg.envErr
	}
	env, err := newSharedEnv(ctx, cfg)
	if err != nil {
		cfg.envErr = fmt.Errorf("shared server: %w", err)
		return nil, cfg.envErr
	}
	cfg.env = env
	return env, nil
}

func newSharedEnv(ctx context.Context, cfg *config) (*sharedEnv, error) {
	fx, err := demoDB(ctx, cfg, "shared")
	if err != nil {
		return nil, err
	}
	// The suite's own lifetime, not the check's: later checks use this server too. A high
	// --key-fails keeps the many fake keys from blocking the address, and high limits keep
	// the real keys under their quota, so requests with real keys reach every layer.
	srv, err := startServer(context.WithoutCancel(ctx), cfg, "shared", "--db", fx.db, "--key-fails", "1000000",
		"--limits", "free:1000000,premium:1000000,business:1000000")
	if err != nil {
		return nil, err
	}
	env := &sharedEnv{fx: fx, srv: srv, requests: map[string]int{}, statuses: map[int]int{}, errors: map[string]int{}}
	for i := 0; i < 3; i++ {
		env.fake = append(env.fake, fmt.Sprintf("RelFakeKey%dq%s", i, randAlnum(cfg, 14)))
		cfg.secret(env.fake[i], "fake key")
	}
	return env, nil
}

// pathKeys are the keys each template is sent with: real premium, real free, fake.
func (e *sharedEnv) pathKeys() []string { return []string{e.fx.premium, e.fx.free, e.fake[0]} }

// allKeys are every key a request of the suite carried to the shared server.
func (e *sharedEnv) allKeys() []string {
	return append([]string{e.fx.premium, e.fx.free, e.fx.business}, e.fake...)
}

func (e *sharedEnv) count(surface string, status int, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.requests[surface]++
	if err != nil {
		e.errors[errKind(err)]++
		return
	}
	e.statuses[status]++
}

func (cfg *config) closeShared() {
	if cfg.env != nil && !cfg.env.srv.exited() {
		cfg.env.srv.stop()
	}
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func randAlnum(cfg *config, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[cfg.rng.IntN(len(alnum))]
	}
	return string(b)
}

func randLower(cfg *config, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "abcdefghijklmnopqrstuvwxyz_"[cfg.rng.IntN(27)]
	}
	return string(b)
}
