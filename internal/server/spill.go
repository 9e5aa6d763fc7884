package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// A spill directory holds the bodies of large cached answers as files. Served with sendfile,
// their bytes live in the operating system's file cache, as they do for a static file
// server, instead of the process's heap: at full scale the answers a busy server repeats
// (a day's events, a league season) add up to several hundred megabytes, far more than the
// memory budget holds, while the kernel keeps them for free and drops them under pressure.
//
// Each server makes its own directory inside the configured one, on the first large answer,
// so replicas sharing a machine never share files; Close removes it.
type spillDir struct {
	base   string
	budget int64

	mu   sync.Mutex
	dir  string // "" until the first file
	next uint64
	err  error // why the directory could not be made; spilling is then off
}

func newSpillDir(base string, budget int64) *spillDir {
	if base == "" {
		base = os.TempDir()
	}
	return &spillDir{base: base, budget: budget}
}

// write stores body in a new file and returns its path.
func (s *spillDir) write(body []byte) (string, error) {
	s.mu.Lock()
	if s.dir == "" && s.err == nil {
		s.dir, s.err = os.MkdirTemp(s.base, "sportsdb-cache-")
	}
	if s.err != nil {
		s.mu.Unlock()
		return "", fmt.Errorf("response cache directory: %w", s.err)
	}
	s.next++
	path := filepath.Join(s.dir, strconv.FormatUint(s.next, 36))
	s.mu.Unlock()
	if err := os.WriteFile(path, body, 0o600); err != nil {
		_ = os.Remove(path)
		return "", fmt.Errorf("response cache file: %w", err)
	}
	return path, nil
}

// Close removes the directory and every file in it.
func (s *spillDir) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == "" {
		return nil
	}
	err := os.RemoveAll(s.dir)
	s.dir, s.err = "", os.ErrClosed
	return err
}

// keyRing is a bounded set of key hashes, the oldest forgotten first when it is full.
type keyRing struct {
	at   map[uint64]int // hash → its slot in ring
	ring []uint64
	next int // the slot the next hash takes once ring is full
	max  int
}

func newKeyRing(n int) keyRing { return keyRing{at: map[uint64]int{}, max: n} }

// add remembers h.
func (k *keyRing) add(h uint64) {
	if _, ok := k.at[h]; ok || k.max == 0 {
		return
	}
	if len(k.ring) < k.max {
		k.at[h] = len(k.ring)
		k.ring = append(k.ring, h)
		return
	}
	// The slot's hash may have been taken, or taken and added again elsewhere: forget it only
	// where it is still this slot's.
	if old := k.ring[k.next]; func() bool { i, ok := k.at[old]; return ok && i == k.next }() {
		delete(k.at, old)
	}
	k.ring[k.next], k.at[h] = h, k.next
	k.next = (k.next + 1) % k.max
}

// take says whether h is remembered, and forgets it.
func (k *keyRing) take(h uint64) bool {
	if _, ok := k.at[h]; !ok {
		return false
	}
	delete(k.at, h)
	return true
}
