package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// A server that is to stop first drains: it keeps answering for a while, but /readyz says
// 503 so the load balancer in front stops sending it requests, and every answer carries
// Connection: close so keep-alive clients reconnect, elsewhere. Closing idle keep-alive
// connections at once instead (http.Server.Shutdown) loses a request a client sends on one
// in the same instant: it meets a closed connection, EOF or a reset.

var connectionClose = []string{"close"}

// ShutdownGrace bounds how long requests in flight may take to finish once the drain period
// is over.
const ShutdownGrace = 10 * time.Second

// StartDrain makes /readyz answer 503 and every answer close its connection. It cannot be
// undone: a draining server is on its way out.
func (s *Server) StartDrain() {
	if s.draining.CompareAndSwap(false, true) {
		s.cfg.Logger.Info("draining: /readyz answers 503 and every answer closes its connection")
	}
}

// Draining says whether StartDrain was called.
func (s *Server) Draining() bool { return s.draining.Load() }

// ServeUntil serves hs on ln until ctx ends (the serve command cancels it on SIGTERM or
// SIGINT), then drains: StartDrain, answering on for the drain period, then
// http.Server.Shutdown, which closes the idle connections and lets requests in flight finish
// (within ShutdownGrace). It returns nil after a clean shutdown. ln should come from
// Listener and hs.ConnContext be ConnContext, as for any serving of s.
func ServeUntil(ctx context.Context, hs *http.Server, ln net.Listener, s *Server, drain time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.StartDrain()
	if drain > 0 {
		select {
		case <-s.after(drain):
		case err := <-errc:
			return fmt.Errorf("serve: %w", err)
		}
	}
	s.cfg.Logger.Info("shutting down: waiting for requests in flight")
	stop, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := hs.Shutdown(stop); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
