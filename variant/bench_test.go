package variant

import (
	"context"
	"testing"

	"github.com/nqueens/nqueens/count"
)

var sinkResult Result

// BenchmarkVariants counts each kind of variant on one worker and reports
// its search nodes per second beside BenchmarkPlainCounter's: the work
// rate of each variant against the plain counter's (bench/variants.sh
// prints the ratios).
func BenchmarkVariants(b *testing.B) {
	for _, c := range []struct {
		name string
		s    Spec
	}{
		{"queens-14", Spec{Rows: 14}},
		{"torus-17", Spec{Rows: 17, Torus: true}},
		{"super-16", Spec{Rows: 16, Piece: Superqueen}},
		{"torus-super-19", Spec{Rows: 19, Torus: true, Piece: Superqueen}},
		{"K5-on-12x12", Spec{Rows: 12, Queens: 5}},
		{"10-on-10x14", Spec{Rows: 10, Cols: 14}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var nodes float64
			for b.Loop() {
				r, err := Count(context.Background(), c.s, Options{Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				sinkResult, nodes = r, r.Nodes.Float64()
			}
			b.ReportMetric(nodes, "nodes/op")
			b.ReportMetric(nodes*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

var sinkRate count.Rate

// BenchmarkPlainCounter is package count's tree search (the batch search
// over border constellations) on N = 15, one worker, for the search nodes
// per second the variants are held against. Count itself takes the join
// of half boards at N = 15, whose work is pairs of half boards compared,
// not search nodes: its rate would not compare with a search's.
func BenchmarkPlainCounter(b *testing.B) {
	var nodes float64
	for b.Loop() {
		r, err := count.MeasureRate(context.Background(), 15)
		if err != nil {
			b.Fatal(err)
		}
		sinkRate, nodes = r, float64(r.Nodes)
	}
	b.ReportMetric(nodes, "nodes/op")
	b.ReportMetric(nodes*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
