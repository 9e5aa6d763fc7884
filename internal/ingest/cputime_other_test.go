//go:build !unix

package ingest

import "time"

// cpuTime is not measured here; benchmarks then report wall-clock speed only.
func cpuTime() time.Duration { return 0 }
