//go:build !unix

package sqlite

// Without mmap every data-version read is a query.

type walHeader struct{}

type shmMap struct{}

func mapShm(string) *shmMap { return nil }

func (m *shmMap) header() (walHeader, bool) { return walHeader{}, false }

func (m *shmMap) close() {}
