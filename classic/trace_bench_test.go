package classic

import (
	"context"
	"testing"

	"github.com/nqueens/nqueens/i18n"
)

var textSink int

// BenchmarkTrace8 is the whole traced search of each backtracking strategy
// at n = 8, sentences included: about 94,000 events over all of them,
// what the page plays; in English, and in Chinese (…/zh).
func BenchmarkTrace8(b *testing.B) {
	for _, l := range i18n.All {
		ctx := i18n.NewContext(context.Background(), l)
		for _, tr := range tracers() {
			name := tr.Name()
			if l != i18n.English {
				name += "/" + l.String()
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					for e := range tr.Trace(ctx, 8) {
						textSink += len(e.Text)
					}
				}
			})
		}
	}
}
