package respcache

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
)

// The bodies of large cached answers live in one file of the server's own, each in an
// extent of it. Their bytes live in the operating system's file cache, as a static file
// server's do, instead of the process's heap: at full scale the answers a busy server
// repeats (a day's events, a league season) add up to far more than the memory budget
// holds, while the kernel keeps them for free and drops them under pressure.
//
// One file rather than one per answer: creating a file costs the file system far more than
// writing its bytes, and a mirror answering many distinct searches writes many of them. The
// file is unlinked as soon as it is made, so nothing is left behind by a server that is
// killed, and no cleaner of the temporary directory can take answers from under a running
// one.
//
// Extents are whole pages, taken best-fit from the free ones (which merge with their
// neighbours) or cut from the end of the file, which never grows past the budget. Each
// extent is counted: the cache holds one reference while the entry is in it, and every
// request sending or reading the body holds one more, so an extent is reused only once the
// last of them is done.
type spillFile struct {
	base   string
	budget int64

	mu   sync.Mutex
	f    *os.File // nil until the first body
	name string   // the file's name while it could not be unlinked (some systems keep open files)
	err  error    // why the file could not be made or was closed; spilling is then off
	end  int64    // the file's used length: new extents are cut from here
	free []extent // free extents before end, by offset, none adjacent
}

type extent struct{ off, n int64 }

// spillPage is the unit extents are counted in.
const spillPage = 4 << 10

// errSpillFull says that no extent fits until some are freed.
var errSpillFull = errors.New("response cache file full")

func newSpillFile(base string, budget int64) *spillFile {
	if base == "" {
		base = os.TempDir()
	}
	return &spillFile{base: base, budget: budget}
}

// spillSlot is one body in the file.
type spillSlot struct {
	file *spillFile
	f    *os.File
	ext  extent
	size int64 // the body's length
	refs atomic.Int32
}

// write stores body in a free extent and returns it with one reference, the caller's;
// errSpillFull when none fits.
func (s *spillFile) write(body []byte) (*spillSlot, error) {
	need := (int64(len(body)) + spillPage - 1) / spillPage * spillPage
	s.mu.Lock()
	if s.f == nil && s.err == nil {
		s.open()
	}
	if s.err != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("response cache file: %w", s.err)
	}
	ext, ok := s.take(need)
	f := s.f
	s.mu.Unlock()
	if !ok {
		return nil, errSpillFull
	}
	slot := &spillSlot{file: s, f: f, ext: ext, size: int64(len(body))}
	slot.refs.Store(1)
	if _, err := f.WriteAt(body, ext.off); err != nil {
		slot.release()
		return nil, fmt.Errorf("response cache file: %w", err)
	}
	return slot, nil
}

// open makes the file and unlinks it; s.mu is held.
func (s *spillFile) open() {
	f, err := os.CreateTemp(s.base, "sportsdb-cache-*")
	if err != nil {
		s.err = err
		return
	}
	s.f = f
	if os.Remove(f.Name()) != nil {
		s.name = f.Name() // removed by Close
	}
}

// take finds an extent of n bytes: the smallest free one that holds it, else the end of the
// file; s.mu is held.
func (s *spillFile) take(n int64) (extent, bool) {
	best := -1
	for i, e := range s.free {
		if e.n >= n && (best < 0 || e.n < s.free[best].n) {
			best = i
		}
	}
	var ext extent
	switch {
	case best >= 0:
		ext = extent{s.free[best].off, n}
		if s.free[best].n == n {
			s.free = slices.Delete(s.free, best, best+1)
		} else {
			s.free[best].off += n
			s.free[best].n -= n
		}
	case s.end+n <= s.budget:
		ext = extent{s.end, n}
		s.end += n
	default:
		return extent{}, false
	}
	return ext, true
}

// give returns an extent to the free ones, merged with its neighbours; one that reaches the
// end of the file moves the end back instead.
func (s *spillFile) give(e extent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, _ := slices.BinarySearchFunc(s.free, e.off, func(x extent, off int64) int {
		switch {
		case x.off < off:
			return -1
		case x.off > off:
			return 1
		}
		return 0
	})
	if i > 0 && s.free[i-1].off+s.free[i-1].n == e.off { // merge with the one before
		i--
		e = extent{s.free[i].off, s.free[i].n + e.n}
		s.free = slices.Delete(s.free, i, i+1)
	}
	if i < len(s.free) && e.off+e.n == s.free[i].off { // and the one after
		e.n += s.free[i].n
		s.free = slices.Delete(s.free, i, i+1)
	}
	if e.off+e.n == s.end {
		s.end = e.off
		return
	}
	s.free = slices.Insert(s.free, i, e)
}

// Close closes the file (and removes it where it could not be unlinked). The server closes
// it once no request is left to send from it (Server.Close); a read after Close fails.
func (s *spillFile) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		s.err = os.ErrClosed
		return nil
	}
	err := s.f.Close()
	if s.name != "" {
		if rerr := os.Remove(s.name); err == nil {
			err = rerr
		}
	}
	s.f, s.name, s.err = nil, "", os.ErrClosed
	return err
}

// acquire takes a reference for a reader; false when the extent has been freed (its entry
// left the cache and its last reader is done).
func (sl *spillSlot) acquire() bool {
	for {
		n := sl.refs.Load()
		if n <= 0 {
			return false
		}
		if sl.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// release drops a reference; the last one frees the extent.
func (sl *spillSlot) release() {
	if sl.refs.Add(-1) == 0 {
		sl.file.give(sl.ext)
	}
}

// reader reads the body; the caller holds a reference until it is done.
func (sl *spillSlot) reader() *io.SectionReader {
	return io.NewSectionReader(sl.f, sl.ext.off, sl.size)
}

// bytes reads the whole body; false when it has been freed or cannot be read.
func (sl *spillSlot) bytes() ([]byte, bool) {
	if !sl.acquire() {
		return nil, false
	}
	defer sl.release()
	b := make([]byte, sl.size)
	if _, err := sl.f.ReadAt(b, sl.ext.off); err != nil {
		return nil, false
	}
	return b, true
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
