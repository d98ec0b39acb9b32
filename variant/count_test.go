package variant

import (
	"context"
	"fmt"
	"testing"
)

// TestCountBrute holds Count against bruteCount on every small variant.
func TestCountBrute(t *testing.T) {
	var specs []Spec
	for n := 1; n <= 7; n++ {
		for _, torus := range []bool{false, true} {
			for _, p := range []Piece{Queen, Superqueen} {
				for k := 1; k <= n+1; k++ {
					specs = append(specs, Spec{Rows: n, Torus: torus, Piece: p, Queens: k})
				}
			}
		}
	}
	for r := 1; r <= 6; r++ {
		for c := 1; c <= 7; c++ {
			if r == c {
				continue
			}
			for _, p := range []Piece{Queen, Superqueen} {
				for k := 1; k <= min(r, c); k++ {
					specs = append(specs, Spec{Rows: r, Cols: c, Piece: p, Queens: k})
				}
			}
		}
	}
	for _, s := range specs {
		if testing.Short() && s.Rows*max(s.Cols, s.Rows) > 30 && s.Queens > 4 {
			continue
		}
		t.Run(fmt.Sprintf("%v", s), func(t *testing.T) {
			total, unique := bruteCount(s)
			r, err := Count(context.Background(), s, Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if r.Total != U(total) || r.Unique != U(unique) {
				t.Errorf("Count = %s total, %s unique (fixed %v); brute force %d, %d", r.Total, r.Unique, r.Fixed, total, unique)
			}
		})
	}
}

func U(x uint64) Uint128 { return Uint128{Lo: x} }
