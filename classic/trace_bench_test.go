package classic

import (
	"context"
	"testing"
)

var textSink int

// BenchmarkTrace8 is the whole traced search of each backtracking strategy
// at n = 8, sentences included: about 94,000 events over all of them,
// what the page plays.
func BenchmarkTrace8(b *testing.B) {
	for _, tr := range tracers() {
		b.Run(tr.Name(), func(b *testing.B) {
			for b.Loop() {
				for e := range tr.Trace(context.Background(), 8) {
					textSink += len(e.Text)
				}
			}
		})
	}
}
