package count

import (
	"context"
	"errors"
	"testing"
)

// TestCheckSpread checks that a forged total past the published table is
// refused by the estimate's spread (the forged N = 28 total was
// 7023016), that a plausible one passes, and that N with a published
// count is left to the table.
func TestCheckSpread(t *testing.T) {
	if testing.Short() {
		t.Skip("probes N = 28 twice (about a second)")
	}
	var se *SpreadError
	if err := CheckSpread(context.Background(), Result{N: 28, Total: U128(7023016)}); !errors.As(err, &se) {
		t.Errorf("forged total: %v, want a SpreadError", err)
	}
	// docs/cluster.md's estimate of N = 28: 2.491e18 ± 1%.
	if err := CheckSpread(context.Background(), Result{N: 28, Total: Uint128{Lo: 2_491_000_000_000_000_000}}); err != nil {
		t.Errorf("plausible total: %v", err)
	}
	if err := CheckSpread(context.Background(), Result{N: 14, Total: U128(1)}); err != nil {
		t.Errorf("N = 14 is the table's: %v", err)
	}
}
