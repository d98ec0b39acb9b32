package count

import (
	"context"
	"fmt"
	"testing"

	"github.com/nqueens/nqueens/board"
)

var sinkResult Result

// BenchmarkCount counts N on one worker; bench/count.sh gives the figures
// against the C seed.
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{12, 14, 16} {
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

var sinkRot uint64

// BenchmarkRotations is the extra work of the unique count: the searches for
// solutions a rotation fixes, over every unit of N. Compare with
// BenchmarkCount at the same N.
func BenchmarkRotations(b *testing.B) {
	for _, n := range []int{14, 15, 16, 17} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				var s uint64
				for _, c := range units(n) {
					if c.fixedBy(n, board.Rotate180) {
						bd := startBoard(n, c.Constellation)
						s += countSymmetric(&bd, board.Rotate180)
						if c.fixedBy(n, board.Rotate90) {
							s += countSymmetric(&bd, board.Rotate90)
						}
					}
				}
				sinkRot = s
			}
		})
	}
}
