package count

import (
	"context"
	"fmt"
	"testing"
)

var sinkResult Result

// BenchmarkCount counts N on one worker; bench/count.sh gives the figures
// against the C seed.
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{12, 14} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				r, err := Count(context.Background(), n, Options{Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				sinkResult = r
			}
			b.ReportMetric(sinkResult.Nodes.Float64(), "nodes/op")
		})
	}
}
