//go:build unix

package sqlite

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
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

// The -shm file must never be closed while SQLite uses it in this process. SQLite
// coordinates processes with POSIX record locks on it (among them a shared lock that says
// "this process has the WAL index open", and the readers' marks), and the system drops every
// POSIX lock a process holds on a file when the process closes any descriptor of that file.
// A descriptor opened to map the file and closed at once would leave the server without its
// locks: the next process to open the database (an import) would take itself for the first
// one and cut the -shm file to 3 bytes to rebuild it, so that the server's reads of SQLite's
// own mapping fault (SQLITE_IOERR_IN_PAGE, "disk I/O error"); a checkpoint could also
// overwrite WAL frames a reader is still using.
//
// So the descriptors stay open until the last Store of the process on the database closes,
// when SQLite has released the file itself. Stores on one database are found by its path.
var shmFiles = struct {
	sync.Mutex
	byDB map[string]*shmHold
}{byDB: map[string]*shmHold{}}

// shmHold is a process's use of one database's -shm files, shared by its open Stores.
type shmHold struct {
	path   string // the database file
	stores int
	files  []*os.File         // every -shm file mapped, open until the last Store closes
	maps   map[uint64]*shmMap // by the inode of the -shm file
}

// holdShm registers a Store on the database at path; release undoes it. It must come
// before the Store opens a connection, so that no other Store closes the descriptors while
// this one's connections use the file.
func holdShm(path string) *shmHold {
	key := canonicalPath(path)
	shmFiles.Lock()
	defer shmFiles.Unlock()
	h := shmFiles.byDB[key]
	if h == nil {
		h = &shmHold{path: key, maps: map[uint64]*shmMap{}}
		shmFiles.byDB[key] = h
	}
	h.stores++
	return h
}

// canonicalPath names the database file the same way whatever path led to it.
func canonicalPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// mapShm maps the database's current -shm file; nil when there is none to map. A file
// mapped before (by this Store or another) is mapped once.
func (h *shmHold) mapShm() *shmMap {
	shmFiles.Lock()
	defer shmFiles.Unlock()
	if h.stores == 0 {
		return nil
	}
	name := h.path + "-shm"
	if ino, ok := inode(os.Stat(name)); !ok {
		return nil
	} else if m := h.maps[ino]; m != nil {
		return m
	}
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	// From here on f stays open, whatever happens: closing it is what drops the locks.
	h.files = append(h.files, f)
	ino, ok := inode(f.Stat())
	if !ok {
		return nil
	}
	if m := h.maps[ino]; m != nil {
		return m // the file was replaced between the two looks, by one mapped already
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, shmMapBytes, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	m := &shmMap{mem: mem}
	h.maps[ino] = m
	return m
}

// inode is the inode of a -shm file large enough to map.
func inode(fi os.FileInfo, err error) (uint64, bool) {
	if err != nil || fi.Size() < shmMapBytes {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Ino), true
}

// release ends a Store's use of the file; the Store's connections must be closed. The last
// Store closes the descriptors. The mappings stay, as a request may be reading one still:
// they are one page each, and the system drops them with the process.
func (h *shmHold) release() error {
	shmFiles.Lock()
	defer shmFiles.Unlock()
	if h.stores--; h.stores > 0 {
		return nil
	}
	delete(shmFiles.byDB, h.path)
	var errs []error
	for _, f := range h.files {
		errs = append(errs, f.Close())
	}
	h.files, h.maps = nil, nil
	return errors.Join(errs...)
}
