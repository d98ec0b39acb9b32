package join

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var sinkCount uint64

// BenchmarkCountBlock times each implementation's inner loop: 4096
// patterns of 34 bits counted against one block of 512 (K = 5 chunks of 7
// bits), the shape of N = 18's keys. The pairs per second are the figure.
func BenchmarkCountBlock(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := make([]uint64, laneBlock)
	ys := make([]uint64, 4096)
	for i := range xs {
		xs[i] = rng.Uint64() & rng.Uint64() & (1<<34 - 1)
	}
	for i := range ys {
		ys[i] = rng.Uint64() & rng.Uint64() & (1<<34 - 1)
	}
	for _, o := range allOps {
		for _, g := range []chunks{{5, 7}, {6, 6}, {4, 9}} {
			b.Run(fmt.Sprintf("%s/k=%d,w=%d", o.name, g.k, g.w), func(b *testing.B) {
				var mt matcher
				mt.xs = growZero(mt.xs, laneBlock)
				copy(mt.xs, xs)
				mt.buildTables(o, mt.xs, g)
				mt.offs = rowOffsets(ys, g)
				b.ResetTimer()
				for b.Loop() {
					sinkCount = o.count(mt.tab, mt.offs, g.k)
				}
				b.ReportMetric(float64(len(ys)*laneBlock)*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
			})
		}
	}
}

// rowOffsets is offsetsGo on uncompressed patterns.
func rowOffsets(ys []uint64, g chunks) []uint32 {
	var mt matcher
	out := make([]uint32, len(ys)*g.k)
	offsetsGo(&mt, out, ys, 1<<(g.k*g.w)-1, g)
	return out
}

// BenchmarkUnit times the largest unit of N = 16 by each implementation.
func BenchmarkUnit(b *testing.B) {
	l, err := NewLayout(16, 0)
	if err != nil {
		b.Fatal(err)
	}
	t, err := NewTables(l, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	w := NewWorker(t)
	best, most := 0, uint64(0)
	for u := range l.Units() {
		if _, p, _ := w.CountUnit(u, nil); p > most {
			best, most = u, p
		}
	}
	for _, o := range allOps {
		b.Run(fmt.Sprintf("%s/unit=%d", o.name, best), func(b *testing.B) {
			w := NewWorker(t)
			w.ops = o
			for b.Loop() {
				sinkCount, _, _ = w.CountUnit(best, nil)
			}
			b.ReportMetric(float64(most)*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
		})
	}
}

// BenchmarkTables times the quarter tables of N = 18 and 19, built before
// every count by the join (a part of it the workers cannot share out).
func BenchmarkTables(b *testing.B) {
	for _, n := range []int{18, 19} {
		l, err := NewLayout(n, n%2)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := NewTables(l, 0, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
