package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// syncEvery is how often a load has the system write its pages to disk (see syncAhead).
const syncEvery = 250 * time.Millisecond

// syncAhead has the system write the pages a load hands it to disk while the load goes on,
// instead of keeping them all for the sync of the commit, which then has only the last ones
// to wait for. It syncs the descriptors SQLite itself holds on the database file, found in
// /proc/self/fd: a descriptor of its own would have to be closed, and closing any descriptor
// of a file drops every POSIX lock the process holds on it, SQLite's included. It is best
// effort, as the commit syncs in any case. The function it returns stops it.
func (s *Store) syncAhead(ctx context.Context) (stop func()) {
	var file string
	if err := s.write.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		return func() {}
	}
	fds := descriptorsOf(file)
	if len(fds) == 0 {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(syncEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				for _, fd := range fds {
					syscall.Fdatasync(fd) // an error here is the commit's to report
				}
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// descriptorsOf lists the descriptors this process has open on the file at path.
func descriptorsOf(path string) []int {
	path, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil
	}
	var fds []int
	for _, e := range entries {
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil || target != path {
			continue
		}
		if fd, err := strconv.Atoi(e.Name()); err == nil {
			fds = append(fds, fd)
		}
	}
	return fds
}
