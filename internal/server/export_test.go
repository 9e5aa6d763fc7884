package server

import "time"

// What tests of package server_test use to wait on the server's events instead of the wall
// clock.

// SetDrainTimer replaces the timer of the drain period (ServeUntil), so that a test ends
// the period when it chooses. Call it before ServeUntil.
func (s *Server) SetDrainTimer(after func(time.Duration) <-chan time.Time) { s.after = after }

// WaitRefreshes returns once the response cache's background refreshes started so far have
// ended: the next request for an answer just served expired gets the refreshed one.
func (s *Server) WaitRefreshes() { s.cache.WaitRefreshes() }

// OnStreamEnd has ended called whenever a stream has ended (or failed to open) and given its
// slot back. Call it before any stream opens.
func (s *Server) OnStreamEnd(ended func()) { s.live.ended = ended }

// SetDeadlineClock measures the requests' deadlines on c instead of the wall clock. Call it
// before serving.
func (s *Server) SetDeadlineClock(c *DeadlineClock) { s.deadlines = c }
