//go:build !unix

package sqlite

// Without mmap every data-version read is a query.

type walHeader struct{}

type shmMap struct{}

func (m *shmMap) header() (walHeader, bool) { return walHeader{}, false }

type shmHold struct{}

func holdShm(string) *shmHold { return &shmHold{} }

func (h *shmHold) mapShm() *shmMap { return nil }

func (h *shmHold) release() error { return nil }
