package count

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// recountAgrees counts unit u of N by the engine and by the recount, and
// fails t unless they agree; it returns the recount with the engine's
// nodes (the recount's queens placed are none of the engine's nodes,
// which a tally checks).
func recountAgrees(t *testing.T, n, u int) UnitResult {
	t.Helper()
	ctx := context.Background()
	want, err := CountUnit(ctx, n, u)
	if err != nil {
		t.Fatalf("N=%d unit %d: %v", n, u, err)
	}
	got, err := RecountUnit(ctx, n, u)
	if err != nil {
		t.Fatalf("N=%d unit %d: recount: %v", n, u, err)
	}
	if err := CheckRecount(n, want, got); err != nil {
		t.Errorf("N=%d: %v", n, err)
	}
	got.Nodes = want.Nodes
	return got
}

// TestRecountEveryUnit recounts every unit of N = 8 to 14 (the tree
// search's N, and the join's first) and checks the sums against the
// published counts; N = 13 and 14 (a few seconds) not in -short or under
// the race detector. Then a few units of N = 15, the first N whose join
// has a separator column.
func TestRecountEveryUnit(t *testing.T) {
	top := 14
	if testing.Short() || raceOn {
		top = 12
	}
	for n := 8; n <= top; n++ {
		tally, err := NewTally(n)
		if err != nil {
			t.Fatal(err)
		}
		for u := range Units(n) {
			r := recountAgrees(t, n, u)
			if err := tally.Add(r); err != nil {
				t.Fatalf("N=%d unit %d: %v", n, u, err)
			}
		}
		res, err := tally.Result()
		if err != nil {
			t.Fatalf("N=%d: the recount's sums: %v", n, err)
		}
		want, _, _ := Known(n)
		if res.Total != want {
			t.Errorf("N=%d: the recount sums to %s, want %s", n, res.Total, want)
		}
	}
	for _, u := range []int{1, 700, 1500, 2300, Units(15) - 1} {
		recountAgrees(t, 15, u)
	}
}

// TestRecountSampled recounts a sample of the units of N = 15 to 20
// with NQUEENS_LONG=1 (about a minute), or of the N listed in
// NQUEENS_RECOUNT (such as "21,22"; a mean join unit of N = 21 takes the
// recount minutes, of 23 hours): the first unit, the middle one up to
// N = 20 and units 2 and 5 past it, the last join unit, and the first
// and last rotation units.
func TestRecountSampled(t *testing.T) {
	var ns []int
	if longTests() {
		for n := 15; n <= 20; n++ {
			ns = append(ns, n)
		}
	}
	for f := range strings.SplitSeq(os.Getenv("NQUEENS_RECOUNT"), ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		t.Skip("slow: set NQUEENS_LONG=1, or NQUEENS_RECOUNT to a list of N")
	}
	for _, n := range ns {
		js, ok := schemeOf(n).(*joinScheme)
		if !ok {
			t.Errorf("N=%d is not counted by the join", n)
			continue
		}
		sample := []int{0, js.layout.Units() - 1, js.layout.Units(), Units(n) - 1}
		if n <= 20 {
			sample = append(sample, js.layout.Units()/2)
		} else {
			// Near the first, whose left half's queens crowd the top
			// rows, units are small but not empty: at N = 21 units 2
			// and 5 have 732 and 2,744 solutions, 3 to 4 s each.
			sample = append(sample, 2, 5)
		}
		for _, u := range sample {
			t0 := time.Now()
			r := recountAgrees(t, n, u)
			t.Logf("N=%d unit %d: total %d, rot180 %d, rot90 %d: the same by the recount (%.1f s)", n, u, r.Total, r.Rot180, r.Rot90, time.Since(t0).Seconds())
		}
	}
}

// TestRecountCatchesWrongJoin checks that a join result off by an amount
// its own check cannot see (a multiple of every weight, within what its
// pairs allow) is caught by the recount.
func TestRecountCatchesWrongJoin(t *testing.T) {
	ctx := context.Background()
	const n = 14
	for _, u := range []int{0, 100, Units(n) - 1} {
		right, err := CountUnit(ctx, n, u)
		if err != nil {
			t.Fatal(err)
		}
		wrong := right
		if u == Units(n)-1 {
			wrong.Rot180 += 8
		} else {
			wrong.Total += 4
		}
		if err := schemeOf(n).check(wrong); err != nil {
			t.Fatalf("unit %d: the engine's own check sees the wrong result: %v", u, err)
		}
		re, err := RecountUnit(ctx, n, u)
		if err != nil {
			t.Fatal(err)
		}
		var bad *RecountError
		if err := CheckRecount(n, wrong, re); !errors.As(err, &bad) || bad.Unit != u {
			t.Errorf("unit %d: a wrong total: %v, want a *RecountError of unit %d", u, err, u)
		}
		if err := CheckRecount(n, right, re); err != nil {
			t.Errorf("unit %d: %v", u, err)
		}
	}
}

// TestRecountBadInput checks RecountUnit's errors.
func TestRecountBadInput(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ n, u int }{{0, 0}, {MaxN + 1, 0}, {8, -1}, {8, Units(8)}} {
		if _, err := RecountUnit(ctx, c.n, c.u); err == nil {
			t.Errorf("N=%d unit %d: no error", c.n, c.u)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := RecountUnit(cancelled, 16, 5); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// BenchmarkRecountUnit recounts the middle join unit of N = 17 and 18,
// and reports the time per solution (weighted as the units count them)
// and the queens placed per solution, which RecountSeconds relies on.
func BenchmarkRecountUnit(b *testing.B) {
	for _, n := range []int{17, 18} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			u := schemeOf(n).(*joinScheme).layout.Units() / 2
			var r UnitResult
			for b.Loop() {
				var err error
				if r, err = RecountUnit(context.Background(), n, u); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(r.Total), "ns/solution")
			b.ReportMetric(float64(r.Nodes)/float64(r.Total), "queens/solution")
		})
	}
}
