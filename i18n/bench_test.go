package i18n

import "testing"

var sink string

// BenchmarkT is the cost of one sentence, as a trace of 94,000 steps
// renders one a step.
func BenchmarkT(b *testing.B) {
	p := For(Chinese)
	for b.Loop() {
		sink = p.N("common.solutions", 92, nil)
	}
}
