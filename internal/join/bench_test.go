package join

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var sinkCount uint64

// BenchmarkCountBlock times each implementation's inner loop: 4096
// patterns of 34 bits counted against one block of 512 (K = 5 chunks of 7
// bits and others), the shape of N = 18's keys. The pairs per second are
// the figure.
func BenchmarkCountBlock(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const m = 34
	xs := make([]uint64, laneBlock)
	ys := make([]uint64, 4096)
	for i := range xs {
		xs[i] = rng.Uint64() & rng.Uint64() & (1<<m - 1)
	}
	for i := range ys {
		ys[i] = rng.Uint64() & rng.Uint64() & (1<<m - 1)
	}
	for _, o := range allOps {
		for _, g := range []chunks{{5, 7}, {6, 6}, {4, 9}, {8, 5}} {
			b.Run(fmt.Sprintf("%s/k=%d,w=%d", o.name, g.k, g.w), func(b *testing.B) {
				var mt matcher
				mt.cx = resize(mt.cx, laneBlock)
				copy(mt.cx, xs)
				mt.buildTables(o, mt.cx, 1<<m-1, g)
				b.ResetTimer()
				for b.Loop() {
					sinkCount = o.count(&mt, ys, 1<<m-1, g)
				}
				b.ReportMetric(float64(len(ys)*laneBlock)*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
			})
		}
	}
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

// BenchmarkBuildTables times a block's tables (planes and rows) for a few
// chunkings of 34 bits.
func BenchmarkBuildTables(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const m = 34
	var mt matcher
	mt.cx = resize(mt.cx, laneBlock)
	for i := range mt.cx {
		mt.cx[i] = rng.Uint64() & rng.Uint64() & (1<<m - 1)
	}
	for _, o := range allOps {
		for _, g := range []chunks{{8, 5}, {7, 5}, {6, 6}, {5, 7}, {4, 9}} {
			b.Run(fmt.Sprintf("%s/k=%d,w=%d", o.name, g.k, g.w), func(b *testing.B) {
				for b.Loop() {
					mt.buildTables(o, mt.cx, 1<<m-1, g)
				}
			})
		}
	}
}

// BenchmarkPartition times a split's two passes, partition (the xs) and
// lacking (the ys), by each implementation, on lists of random patterns
// half of which have the bit, from the first-level cache to memory; each
// pass first restores its input with a copy, timed alone as "copy".
func BenchmarkPartition(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1 << 10, 1 << 14, 1 << 18, 1 << 22} {
		src := make([]uint64, n)
		for i := range src {
			src[i] = rng.Uint64() >> 24
		}
		xs := make([]uint64, n)
		out := make([]uint64, n+8)
		perPattern := func(b *testing.B) {
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(n), "ns/pattern")
		}
		b.Run(fmt.Sprintf("copy/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(xs, src)
			}
			perPattern(b)
		})
		for _, o := range allOps {
			b.Run(fmt.Sprintf("%s/partition/n=%d", o.name, n), func(b *testing.B) {
				for b.Loop() {
					copy(xs, src)
					o.partition(xs, out, 3)
				}
				perPattern(b)
			})
			b.Run(fmt.Sprintf("%s/lacking/n=%d", o.name, n), func(b *testing.B) {
				for b.Loop() {
					copy(xs, src)
					o.lacking(out, xs, 3)
				}
				perPattern(b)
			})
		}
	}
}
