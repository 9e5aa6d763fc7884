//go:build unix

package sqlite

import (
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// walHeader is SQLite's WAL-index header, read from the database's -shm file: two copies of
// a 48-byte header that every commit rewrites (the last frame, its checksum, the salts), the
// second copy first. SQLite's readers take a snapshot by reading the first copy, then the
// second, and trusting them only when they agree; reading it the same way tells, without a
// query, whether any connection of any process committed since an earlier reading. The
// layout is part of SQLite's documented file format ("WAL-index format").
type walHeader [walHeaderWords]uint32

const (
	walHeaderWords = 24 // two copies of 12 words
	shmMapBytes    = 4096
)

// shmMap is a read-only mapping of the start of a -shm file.
type shmMap struct {
	mem []byte
}

// mapShm maps path's -shm file; nil when there is none to map.
func mapShm(path string) *shmMap {
	f, err := os.Open(path + "-shm")
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() < shmMapBytes {
		return nil
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, shmMapBytes, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return &shmMap{mem: mem}
}

// header reads both copies of the header as SQLite's readers do; ok is false while a commit
// is rewriting it (the copies differ) or before the file was initialised.
func (m *shmMap) header() (h walHeader, ok bool) {
	base := unsafe.Pointer(&m.mem[0])
	for i := range h {
		h[i] = atomic.LoadUint32((*uint32)(unsafe.Add(base, 4*i)))
	}
	const isInitByte = 12 // isInit, the first byte of the fourth word
	return h, [12]uint32(h[:12]) == [12]uint32(h[12:]) && m.mem[isInitByte] == 1
}
