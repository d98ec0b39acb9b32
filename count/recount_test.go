package count

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/recount"
)

// recountAgrees counts unit u of N by the engine and by the recount (and,
// with plain, by the recount's plain search too), and fails t unless
// they agree; it returns the recount with the engine's nodes (the
// recount's queens placed are none of the engine's nodes, which a tally
// checks), and the recount's CPU time.
func recountAgrees(t *testing.T, n, u int, plain bool) (UnitResult, time.Duration) {
	t.Helper()
	ctx := context.Background()
	want, err := CountUnit(ctx, n, u)
	if err != nil {
		t.Fatalf("N=%d unit %d: %v", n, u, err)
	}
	runtime.LockOSThread()
	t0 := threadCPU()
	got, err := RecountUnit(ctx, n, u)
	cpu := threadCPU() - t0
	runtime.UnlockOSThread()
	if err != nil {
		t.Fatalf("N=%d unit %d: recount: %v", n, u, err)
	}
	if err := CheckRecount(n, want, got); err != nil {
		t.Errorf("N=%d: %v", n, err)
	}
	if plain {
		p, err := recountUnit(ctx, n, u, recount.CountKeysPlain)
		if err != nil {
			t.Fatalf("N=%d unit %d: plain recount: %v", n, u, err)
		}
		if err := CheckRecount(n, want, p); err != nil {
			t.Errorf("N=%d, the plain search: %v", n, err)
		}
	}
	got.Nodes = want.Nodes
	return got, cpu
}

// TestRecountEveryUnit recounts every unit of N = 8 to 14 (the tree
// search's N, and the join's first) by the bit-set search and by the
// plain one, and checks the sums against the published counts; in
// -short and under the race detector N = 8 to 13, the plain search to
// 12. Then a few units of N = 15, the first N whose join has a separator
// column.
func TestRecountEveryUnit(t *testing.T) {
	top, plainTop := 14, 14
	if testing.Short() || raceOn {
		top, plainTop = 13, 12
	}
	for n := 8; n <= top; n++ {
		tally, err := NewTally(n)
		if err != nil {
			t.Fatal(err)
		}
		for u := range Units(n) {
			r, _ := recountAgrees(t, n, u, n <= plainTop)
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
		recountAgrees(t, 15, u, false)
	}
}

// TestRecountSampled recounts a sample of the units of N = 15 to 20
// with NQUEENS_LONG=1 (under a minute), or of the N listed in
// NQUEENS_RECOUNT, each N alone ("21,22") or with its units
// ("23:7/40/1500,24:9"), and logs each unit's count and the recount's
// CPU time. The sample of an N alone: the first unit, units 2 and 5
// (small, and at N ≥ 21 not empty), the middle one up to N = 21, the
// last join unit, and the first and last rotation units. A mean join
// unit of N = 22 takes the recount about a minute, of 24 about ten.
func TestRecountSampled(t *testing.T) {
	type sample struct {
		n     int
		units []int
	}
	var todo []sample
	if longTests() {
		for n := 15; n <= 20; n++ {
			todo = append(todo, sample{n: n})
		}
	}
	for f := range strings.SplitSeq(os.Getenv("NQUEENS_RECOUNT"), ",") {
		nPart, unitPart, _ := strings.Cut(strings.TrimSpace(f), ":")
		n, err := strconv.Atoi(nPart)
		if err != nil {
			continue
		}
		s := sample{n: n}
		for us := range strings.SplitSeq(unitPart, "/") {
			if u, err := strconv.Atoi(us); err == nil {
				s.units = append(s.units, u)
			}
		}
		todo = append(todo, s)
	}
	if len(todo) == 0 {
		t.Skip("slow: set NQUEENS_LONG=1, or NQUEENS_RECOUNT to a list of N")
	}
	for _, s := range todo {
		js, ok := schemeOf(s.n).(*joinScheme)
		if !ok {
			t.Errorf("N=%d is not counted by the join", s.n)
			continue
		}
		if s.units == nil {
			s.units = []int{0, 2, 5, js.layout.Units() - 1, js.layout.Units(), Units(s.n) - 1}
			if s.n <= 21 {
				s.units = append(s.units, js.layout.Units()/2)
			}
		}
		for _, u := range s.units {
			if u < 0 || u >= Units(s.n) {
				t.Errorf("N=%d has no unit %d", s.n, u)
				continue
			}
			r, cpu := recountAgrees(t, s.n, u, false)
			t.Logf("N=%d unit %d: total %d, rot180 %d, rot90 %d: the same by the recount (%.1f s of CPU)", s.n, u, r.Total, r.Rot180, r.Rot90, cpu.Seconds())
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
