package count

import (
	"context"
	"testing"
)

// TestEstimateJoinCPU holds the join's estimate of N = 18 to the CPU time
// of a count of N = 18 on one worker, within 25 %: both in CPU time, so
// that a busy machine stretches neither (the probes' threads, the count's
// process). Two seeds; outside -short and the race detector.
func TestEstimateJoinCPU(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("counts N = 18 (about 2 s of CPU)")
	}
	const n = 18
	ctx := context.Background()
	start := processCPU()
	if _, err := Count(ctx, n, Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	// The tables, built by the count, are part of the estimate's time:
	// a fresh scheme builds them again.
	schemes.Delete(n)
	cpu := (processCPU() - start).Seconds()
	for seed := range uint64(2) {
		e, err := EstimateTree(ctx, n, 200, seed+1)
		if err != nil {
			t.Fatal(err)
		}
		if r := e.Seconds / cpu; r < 0.75 || r > 1.25 {
			t.Errorf("seed %d: the estimate says %.2f s, a count on one worker took %.2f s of CPU (%.2f)", seed+1, e.Seconds, cpu, r)
		} else {
			t.Logf("seed %d: estimate %.2f s ± %.2f, count %.2f s of CPU (%.2f)", seed+1, e.Seconds, e.SecondsErr, cpu, r)
		}
		schemes.Delete(n)
	}
}
