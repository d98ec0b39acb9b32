package join

import (
	"fmt"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/reference"
)

func TestTotals(t *testing.T) {
	ref, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	for n := 4; n <= 16; n++ {
		for s := n % 2; s <= 2; s += 2 {
			l, err := NewLayout(n, s)
			if err != nil {
				t.Log(err)
				continue
			}
			tb, err := NewTables(l, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range allOps {
				t0 := time.Now()
				w := NewWorker(tb)
				w.ops = o
				var total, pairs uint64
				for u := range l.Units() {
					c, pr, _ := w.CountUnit(u, nil)
					total += c
					pairs += pr
				}
				fmt.Printf("%s N=%d s=%d keys=%d units=%d pairs=%d total=%d %v\n", o.name, n, s, len(l.keys), l.Units(), pairs, total, time.Since(t0))
				if want := ref[n].Total.Uint64(); total != want {
					t.Errorf("%s N=%d s=%d: %d, want %d", o.name, n, s, total, want)
				}
			}
		}
	}
}
