package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// drainFor is the --drain given to the server.
const drainFor = 3 * time.Second

// keepAlive is a client on one kept-alive connection that never retries: a request that got
// no answer is seen as such (Go's own client resends a GET silently).
type keepAlive struct {
	addr string
	conn net.Conn
	br   *bufio.Reader
}

// do sends one request; closed reports that the answer said Connection: close.
func (k *keepAlive) do(target string) (status int, closed bool, err error) {
	if k.conn == nil {
		c, err := net.DialTimeout("tcp", k.addr, 5*time.Second)
		if err != nil {
			return 0, false, err
		}
		k.conn, k.br = c, bufio.NewReader(c)
	}
	_ = k.conn.SetDeadline(time.Now().Add(10 * time.Second))
	sent.Add(1)
	req := "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
	if _, err := io.WriteString(k.conn, req); err != nil {
		k.reset()
		return 0, false, err
	}
	resp, err := http.ReadResponse(k.br, nil)
	if err != nil {
		k.reset()
		return 0, false, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || resp.Close {
		k.reset()
	}
	return resp.StatusCode, resp.Close, err
}

func (k *keepAlive) reset() {
	if k.conn != nil {
		k.conn.Close()
		k.conn = nil
	}
}

// drainRun is what one SIGTERM under load showed.
type drainRun struct {
	sent, dropped, afterTermNoClose, readyAfterTerm int
	// readyTook is how long after SIGTERM /readyz gave readyAfterTerm.
	readyTook time.Duration
	exit      time.Duration
	exitErr   error
	kinds     map[string]int
}

// checkDrain sends SIGTERM to a server under keep-alive load. With --drain, /readyz says 503
// at once, answers carry Connection: close, and no request is dropped (EOF or reset); the
// clients stand for a load balancer that stops opening connections once /readyz says 503.
func checkDrain(ctx context.Context, cfg *config, t *T) {
	withDrain := knowsFlag(ctx, cfg, "drain")
	if !withDrain {
		t.Fail("serve does not know --drain: SIGTERM is sent without it, to measure what clients lose")
	}
	fx, err := demoDB(ctx, cfg, "drain")
	if err != nil {
		t.Fail("%v", err)
		return
	}
	runs := 3
	if !cfg.short {
		runs = 7
	}
	total := drainRun{kinds: map[string]int{}}
	for i := 0; i < runs && ctx.Err() == nil; i++ {
		args := []string{"--db", fx.db, "--limits", "premium:1000000000"}
		if withDrain {
			args = append(args, "--drain", drainFor.String())
		}
		srv, err := startServer(ctx, cfg, fmt.Sprintf("drain-%d", i), args...)
		if err != nil {
			t.Fail("%v", err)
			return
		}
		r := sigtermUnderLoad(srv, "/api/v1/json/"+fx.premium+"/lookupteam.php?id=133604", cfg.rng.Uint64())
		total.sent += r.sent
		total.dropped += r.dropped
		for k, v := range r.kinds {
			total.kinds[k] += v
		}
		t.Figure(fmt.Sprintf("run %d: requests, dropped, readyz 503 after, exit after", i+1), "%d, %d, %dms, %.1fs",
			r.sent, r.dropped, r.readyTook.Milliseconds(), r.exit.Seconds())
		if r.dropped > 0 {
			t.Fail("run %d: %d requests got EOF or reset after SIGTERM (%v)", i+1, r.dropped, r.kinds)
		}
		if withDrain {
			judgeDrain(t, i+1, r)
		}
	}
	t.Figure("requests, dropped (EOF/reset) in all runs", "%d, %d %v", total.sent, total.dropped, total.kinds)
}

func judgeDrain(t *T, run int, r drainRun) {
	if r.readyAfterTerm != 503 {
		t.Fail("run %d: /readyz within a second of SIGTERM answered %d, want 503", run, r.readyAfterTerm)
	}
	if r.afterTermNoClose > 0 {
		t.Fail("run %d: %d answers during the drain had no Connection: close", run, r.afterTermNoClose)
	}
	if r.exit < drainFor-500*time.Millisecond || r.exit > drainFor+15*time.Second {
		t.Fail("run %d: the process exited %.1fs after SIGTERM, want after the %s drain", run, r.exit.Seconds(), drainFor)
	}
	if r.exitErr != nil {
		t.Fail("run %d: the process exited with %v", run, r.exitErr)
	}
}

// sigtermUnderLoad runs keep-alive clients with short idle pauses, sends SIGTERM after a
// second, and stops the clients once /readyz stops saying ready (as a load balancer would,
// with a small delay) or the server is gone.
func sigtermUnderLoad(srv *server, target string, seed uint64) drainRun {
	lb := &balancer{r: drainRun{kinds: map[string]int{}}}
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			lb.client(srv.addr, target, rand.New(rand.NewPCG(seed, uint64(w))))
		}(w)
	}
	time.Sleep(time.Second)
	start := time.Now()
	_ = srv.cmd.Process.Signal(syscall.SIGTERM)
	// The signal reaches the server's goroutines a moment later on a loaded machine: ask
	// /readyz until it says 503, for at most a second (the load balancer's first check).
	for time.Since(start) < time.Second {
		time.Sleep(10 * time.Millisecond)
		a, err := rawExchange(srv.addr, request("/readyz"), 5*time.Second)
		if err != nil {
			continue
		}
		lb.r.readyAfterTerm, lb.r.readyTook = a.status, time.Since(start)
		if a.status == 503 {
			lb.draining.Store(true)
			break
		}
	}
	time.Sleep(300 * time.Millisecond) // the balancer's reaction
	lb.stopNew.Store(true)
	select {
	case <-srv.done:
	case <-time.After(drainFor + 20*time.Second):
		srv.kill()
	}
	exit := time.Since(start)
	wg.Wait()
	lb.r.exit, lb.r.exitErr = exit, srv.err
	return lb.r
}

// balancer stands for a load balancer and its clients in front of one server: clients send
// on kept-alive connections until the balancer stops sending new connections there.
type balancer struct {
	// draining is set once /readyz said 503: a request sent after that must be answered
	// with Connection: close (one sent before may have been answered before the signal).
	stopNew, draining atomic.Bool
	mu                sync.Mutex
	r                 drainRun
}

// client sends requests with short idle pauses between them until the balancer stops
// sending here and its connection is closed, or the server is gone.
func (lb *balancer) client(addr, target string, rng *rand.Rand) {
	k := &keepAlive{addr: addr}
	defer k.reset()
	for !(lb.stopNew.Load() && k.conn == nil) {
		after := lb.draining.Load()
		_, closed, err := k.do(target)
		kind := errKind(err)
		if kind == "refused" {
			return // the server is gone: a balancer sends nothing more here
		}
		lb.mu.Lock()
		lb.r.sent++
		switch {
		case err != nil:
			lb.r.dropped++
			lb.r.kinds[kind]++
		case after && !closed:
			lb.r.afterTermNoClose++
		}
		lb.mu.Unlock()
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
	}
}
