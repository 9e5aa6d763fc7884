package pictures

import (
	"context"
	"testing"
)

// BenchmarkDemo measures what a new demo database adds for its pictures: drawing and
// encoding every picture its records name (not the store's writes). It reports how many
// paths, distinct pictures and megabytes.
func BenchmarkDemo(b *testing.B) {
	ctx := context.Background()
	c, err := Collect(ctx, demoStore(b, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var paths, distinct int
	var bytes int64
	for range b.N {
		paths, distinct, bytes = 0, 0, 0
		var last *byte
		err := c.Make(ctx, func(p Picture) error {
			paths++
			if &p.Data[0] != last {
				last = &p.Data[0]
				distinct++
				bytes += int64(len(p.Data))
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(paths), "pictures")
	b.ReportMetric(float64(distinct), "distinct")
	b.ReportMetric(float64(bytes)/(1<<20), "MB")
}
