package storetest

import (
	"syscall"
	"time"
	"unsafe"
)

// ThreadCPU is the CPU time of the calling thread so far, from CLOCK_THREAD_CPUTIME_ID
// (getrusage counts it in scheduler ticks). Benchmarks of one query at a time time it on a
// locked OS thread: on a machine busy with other work, wall time says more about the
// neighbours than about the query.
func ThreadCPU() time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
