//go:build unix

package ingest

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used. Benchmarks report records per CPU second
// besides records per wall second, since other work on a shared machine slows the latter.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
