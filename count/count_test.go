package count

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/kernel"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
)

// referenceCounts is the published table (internal/reference, a copy of
// ../shared/reference/queens-counts.tsv checked byte for byte by that
// package's test): n → {total, unique}.
func referenceCounts(t *testing.T) map[int][2]Uint128 {
	t.Helper()
	rows, err := reference.Load()
	if err != nil {
		t.Fatalf("reference counts: %v", err)
	}
	ref := map[int][2]Uint128{}
	for n, r := range rows {
		tot, err1 := parseUint128(r.Total.String())
		uni, err2 := parseUint128(r.Unique.String())
		if err1 != nil || err2 != nil {
			t.Fatalf("reference row %d: %v %v", n, err1, err2)
		}
		ref[n] = [2]Uint128{tot, uni}
	}
	return ref
}

func longTests() bool { return os.Getenv("NQUEENS_LONG") == "1" }

func TestCountMatchesReference(t *testing.T) {
	ref := referenceCounts(t)
	maxN := 16
	if longTests() {
		maxN = 17
	}
	for n := 1; n <= maxN; n++ {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			r, err := Count(context.Background(), n, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := ref[n]
			if r.Total != want[0] || r.Unique != want[1] {
				t.Errorf("N=%d: got total %s unique %s, want %s %s", n, r.Total, r.Unique, want[0], want[1])
			}
			if r.Units != Units(n) {
				t.Errorf("N=%d: %d units, want %d", n, r.Units, Units(n))
			}
		})
	}
}

// slowCompletions enumerates the completions of p row by row with plain
// boolean arrays, verifies each with board.Verify, and counts those fixed
// by a half and a quarter turn: obviously correct, and slow.
func slowCompletions(t *testing.T, p board.Placement) (total, rot180, rot90 uint64) {
	n := len(p)
	col := make([]bool, n)
	diag := make([]bool, 2*n)
	anti := make([]bool, 2*n)
	mark := func(r, c int, v bool) { col[c], diag[r-c+n], anti[r+c] = v, v, v }
	for r, c := range p {
		if c != board.Empty {
			mark(r, int(c), true)
		}
	}
	var rec func(r int)
	rec = func(r int) {
		if r == n {
			if err := board.Verify(p); err != nil {
				t.Fatalf("slow counter built an invalid board %v: %v", p, err)
			}
			total++
			for _, g := range []board.Symmetry{board.Rotate180, board.Rotate90} {
				q, err := g.Apply(p)
				if err != nil {
					t.Fatal(err)
				}
				if q.Equal(p) {
					if g == board.Rotate180 {
						rot180++
					} else {
						rot90++
					}
				}
			}
			return
		}
		if p[r] != board.Empty {
			rec(r + 1)
			return
		}
		for c := range n {
			if col[c] || diag[r-c+n] || anti[r+c] {
				continue
			}
			p[r] = int32(c)
			mark(r, c, true)
			rec(r + 1)
			mark(r, c, false)
			p[r] = board.Empty
		}
	}
	rec(0)
	return
}

// kernelNodes returns the nodes the kernel's own search of unit s takes,
// plus the node its split queen stands for: what the unit's result must
// report.
func kernelNodes(n int, s UnitSpec) uint64 {
	b, placed := s.board(n)
	_, nodes, _ := kernel.Count(&b, nil)
	return placed + nodes
}

// TestUnitsAgainstSlowCounter checks every unit of every N ≤ 12 against the
// slow counter run on the unit's constellation.
func TestUnitsAgainstSlowCounter(t *testing.T) {
	maxN := 12
	if testing.Short() {
		maxN = 10
	}
	for n := 1; n <= maxN; n++ {
		for i := range Units(n) {
			c, err := Unit(n, i)
			if err != nil {
				t.Fatal(err)
			}
			got, err := CountUnit(context.Background(), n, i)
			if err != nil {
				t.Fatal(err)
			}
			w, _ := c.orbit(n)
			tot, r180, r90 := slowCompletions(t, c.Placement(n))
			want := UnitResult{Index: i, Total: uint64(w) * tot, Nodes: kernelNodes(n, c)}
			if c.fixedBy(n, board.Rotate180) {
				want.Rot180 = uint64(w) * r180
			} else if r180 != 0 {
				t.Errorf("N=%d unit %d %+v: %d half-turn solutions but the constellation is not fixed", n, i, c, r180)
			}
			if c.fixedBy(n, board.Rotate90) {
				want.Rot90 = uint64(w) * r90
			} else if r90 != 0 {
				t.Errorf("N=%d unit %d %+v: %d quarter-turn solutions but the constellation is not fixed", n, i, c, r90)
			}
			if got != want {
				t.Errorf("N=%d unit %d %+v: got %+v, want %+v", n, i, c, got, want)
			}
		}
	}
}

// TestUnitBijection checks Unit and UnitIndex are inverse, and that each
// orbit of valid constellations holds exactly one unit.
func TestUnitBijection(t *testing.T) {
	for n := 1; n <= 11; n++ {
		for i := range Units(n) {
			c, _ := Unit(n, i)
			if j, ok := UnitIndex(n, c); !ok || j != i {
				t.Fatalf("N=%d: UnitIndex(Unit(%d)) = %d, %v", n, i, j, ok)
			}
		}
		var all int
		for a := range n {
			for b := range n {
				for l := range n {
					for r := range n {
						c := Constellation{a, b, l, r}
						if !c.valid(n) {
							if _, ok := UnitIndex(n, whole(c)); ok {
								t.Fatalf("N=%d: invalid %+v has a unit", n, c)
							}
							continue
						}
						all++
						reps := 0
						for _, g := range board.Symmetries {
							if _, ok := UnitIndex(n, whole(c.image(n, g))); ok {
								reps++
							}
						}
						size, _ := c.orbit(n)
						// each member of the orbit appears 8/size times among the images
						if reps*size != 8 {
							t.Fatalf("N=%d: orbit of %+v holds %d units (orbit size %d)", n, c, reps*size/8, size)
						}
					}
				}
			}
		}
		var sum int
		for i := range Units(n) {
			c, _ := Unit(n, i)
			s, _ := c.orbit(n)
			sum += s
		}
		if sum != all {
			t.Errorf("N=%d: orbits of units cover %d constellations, want %d", n, sum, all)
		}
	}
	if _, err := Unit(8, Units(8)); err == nil {
		t.Error("Unit past the end: no error")
	}
	if _, err := Unit(0, 0); err == nil {
		t.Error("Unit(N=0): no error")
	}
}

func TestResumeGivesSameCount(t *testing.T) {
	const n = 12
	var first []UnitResult
	full, err := Count(context.Background(), n, Options{Workers: 3, OnUnit: func(u UnitResult) { first = append(first, u) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != Units(n) {
		t.Fatalf("OnUnit saw %d units, want %d", len(first), Units(n))
	}
	var seen []UnitResult
	half := first[:len(first)/2]
	r, err := Count(context.Background(), n, Options{Resume: half, OnUnit: func(u UnitResult) { seen = append(seen, u) }})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != full.Total || r.Unique != full.Unique || r.Nodes != full.Nodes {
		t.Errorf("resumed %+v, uninterrupted %+v", r, full)
	}
	if len(seen) != Units(n)-len(half) {
		t.Errorf("resumed run searched %d units, want %d", len(seen), Units(n)-len(half))
	}
	if _, err := Count(context.Background(), n, Options{Resume: append(half, half[0])}); err == nil {
		t.Error("a unit given twice in Resume: no error")
	}
}

// TestCountCancel cancels a count of N = 19 (seconds of work; the quarter
// tables of N = 20 alone take a second to build) when its first unit is
// handed over, while the other worker is inside a unit, and checks that it
// stops promptly with a partial result.
func TestCountCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	r, err := Count(ctx, 19, Options{Workers: 2, OnUnit: func(UnitResult) {
		if cancelled.IsZero() {
			cancelled = time.Now()
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled count: %v", err)
	}
	// Count promises to stop within a few milliseconds of ctx's end; two
	// seconds only allow for a loaded machine (not the engine's speed).
	if el := time.Since(cancelled); el > 2*time.Second {
		t.Errorf("cancel took %v", el)
	}
	if r.Units != Units(19) || r.Total.Cmp(Uint128{}) < 0 {
		t.Errorf("partial result %+v", r)
	}
	if _, err := CountUnit(ctx, 19, 0); err == nil {
		t.Error("CountUnit on a cancelled context: no error")
	}
}

func TestCombine(t *testing.T) {
	const n = 9
	us := testkit.AllUnits(t, n, Units, CountUnit)
	r, err := combine(n, us)
	if err != nil || r.Total != U128(352) || r.Unique != U128(46) {
		t.Fatalf("combine: %+v, %v", r, err)
	}
	if _, err := combine(n, us[1:]); err == nil {
		t.Error("missing unit: no error")
	}
	if _, err := combine(n, append(us, us[0])); err == nil {
		t.Error("duplicate unit: no error")
	}
	bad := append([]UnitResult(nil), us...)
	bad[0].Index = len(us)
	if _, err := combine(n, bad); err == nil {
		t.Error("unit out of range: no error")
	}
}

func TestProgress(t *testing.T) {
	var last Progress
	calls := 0
	_, err := Count(context.Background(), 11, Options{Progress: func(p Progress) { last = p; calls++ }, ProgressEvery: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last.UnitsDone != last.Units || last.Units != Units(11) || last.Nodes.Cmp(Uint128{}) <= 0 {
		t.Errorf("last progress %+v after %d calls", last, calls)
	}
}

func TestFingerprint(t *testing.T) {
	if Fingerprint(12) == Fingerprint(13) {
		t.Error("fingerprints of N=12 and 13 agree")
	}
	if !strings.Contains(Fingerprint(12), "engine="+EngineVersion) {
		t.Errorf("fingerprint %q lacks the engine version", Fingerprint(12))
	}
}

func TestEstimateTree(t *testing.T) {
	ref := referenceCounts(t)
	for _, n := range []int{10, 12} {
		e, err := EstimateTree(context.Background(), n, 20000, 1)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Count(context.Background(), n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := ref[n][0].Float64()
		if d := e.Total - want; d*d > 25*e.TotalErr*e.TotalErr {
			t.Errorf("N=%d: estimated total %.0f ± %.0f, true %v", n, e.Total, e.TotalErr, want)
		}
		if d := e.Nodes - r.Nodes.Float64(); d*d > 25*e.NodesErr*e.NodesErr {
			t.Errorf("N=%d: estimated nodes %.0f ± %.0f, true %v", n, e.Nodes, e.NodesErr, r.Nodes)
		}
	}
}

// TestEstimateEngine checks that an estimate measures the engine that
// counts its N, and that the node rate the tree's time estimates divide by
// is the tree search's whatever engine counts the board it is measured on
// (N = 15 is the join's: its pairs per second once made the estimates of
// N = 28 30 times too short). The rate's nodes are held to the Go loops
// of the tree search (kernel.CountReference), unit by unit.
func TestEstimateEngine(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		n    int
		want string
	}{{0, ""}, {1, EngineTree}, {13, EngineTree}, {JoinFrom, EngineJoin}, {17, EngineJoin}, {JoinTo, EngineJoin}, {JoinTo + 1, EngineTree}, {MaxN, EngineTree}, {MaxN + 1, ""}} {
		if got := Engine(c.n); got != c.want {
			t.Errorf("Engine(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	for _, n := range []int{12, 14, 33} {
		e, err := EstimateTree(ctx, n, 100, 1)
		if err != nil {
			t.Fatal(err)
		}
		if e.Engine != Engine(n) {
			t.Errorf("N=%d: the estimate measured %q, but %q counts N", n, e.Engine, Engine(n))
		}
		if got := e.Seconds > 0; got != (e.Engine == EngineJoin) {
			t.Errorf("N=%d (%s): the estimate timed its probes: %v", n, e.Engine, got)
		}
	}
	// The join's probes count groups of keys with the same rows (odd N:
	// about 5 keys), scaled by the groups: unbiased for the pairs and the
	// total, which a count of N = 15 and 16 checks.
	ref := referenceCounts(t)
	for _, n := range []int{15, 16} {
		e, err := EstimateTree(ctx, n, 200, 2)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Count(ctx, n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := e.Nodes - r.Nodes.Float64(); d*d > 25*e.NodesErr*e.NodesErr {
			t.Errorf("N=%d: estimated pairs %.4g ± %.2g, counted %s", n, e.Nodes, e.NodesErr, r.Nodes)
		}
		if d := e.Total - ref[n][0].Float64(); d*d > 25*e.TotalErr*e.TotalErr {
			t.Errorf("N=%d: estimated total %.4g ± %.2g, true %s", n, e.Total, e.TotalErr, ref[n][0])
		}
	}
	n := 12
	if !testing.Short() {
		n = 15
	}
	r, err := MeasureRate(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	var want uint64
	for _, s := range units(n) {
		b, placed := s.board(n)
		_, nodes := kernel.CountReference(&b)
		want += placed + nodes
	}
	if r.Engine != EngineTree || r.N != n || r.Nodes != want {
		t.Errorf("MeasureRate(%d): %s, %d nodes; want the tree search's %d", n, r.Engine, r.Nodes, want)
	}
}

func TestWideBoards(t *testing.T) {
	// N > 32 takes the two-word path; a unit of N = 40 is far too big to
	// finish, but a cancelled one must stop promptly, and the unit table
	// must be well formed. The deadline is how it is cancelled, mid-unit.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := CountUnit(ctx, 40, 0); err == nil {
		t.Error("unit of N=40 finished in 20 ms")
	}
	if Units(MaxN+1) != 0 {
		t.Error("Units beyond MaxN")
	}
}

func ExampleCount() {
	r, err := Count(context.Background(), 8, Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Total, r.Unique)
	// Output: 92 12
}

func TestKnownMatchesReference(t *testing.T) {
	ref := referenceCounts(t)
	for n := 0; n <= 30; n++ {
		tot, uni, ok := Known(n)
		want, has := ref[n]
		if ok != has || (ok && (tot != want[0] || uni != want[1])) {
			t.Errorf("Known(%d) = %s %s %v, reference %v %v", n, tot, uni, ok, want, has)
		}
	}
}

// TestSplitUnits checks the split scheme, which the public tables use only
// from N = SplitFrom on, on small boards: every split unit against the slow
// counter, the units of each constellation against the free squares of its
// first branching row, the index search, and the totals against the
// reference.
func TestSplitUnits(t *testing.T) {
	ref := referenceCounts(t)
	maxN := 11
	if testing.Short() {
		maxN = 9
	}
	for n := 4; n <= maxN; n++ {
		u := buildUnits(n, true)
		var total, rot180, rot90 Uint128
		perConstellation := map[Constellation]uint64{}
		for i, s := range u {
			if j, ok := indexIn(u, s); !ok || j != i {
				t.Fatalf("N=%d: indexIn(unit %d) = %d, %v", n, i, j, ok)
			}
			if b := startBoard(n, s.Constellation); (s.Row < 0) != (b.Rows == 0) {
				t.Fatalf("N=%d unit %d %+v: split %v, rows left %b", n, i, s, s.Row >= 0, b.Rows)
			}
			if s.Row >= 0 {
				perConstellation[s.Constellation] |= 1 << uint(s.Col)
			}
			got, ok, err := countSpec(n, i, s, nil)
			if !ok || err != nil {
				t.Fatalf("N=%d unit %d: %v", n, i, err)
			}
			w, _ := s.orbit(n)
			p := s.Placement(n)
			if s.Row >= 0 {
				p[s.Row] = int32(s.Col)
			}
			tot, _, _ := slowCompletions(t, p)
			want := UnitResult{Index: i, Total: uint64(w) * tot, Nodes: kernelNodes(n, s)}
			if s.first {
				_, r180, r90 := slowCompletions(t, s.Placement(n))
				if s.fixedBy(n, board.Rotate180) {
					want.Rot180 = uint64(w) * r180
				}
				if s.fixedBy(n, board.Rotate90) {
					want.Rot90 = uint64(w) * r90
				}
			}
			if got != want {
				t.Errorf("N=%d unit %d %+v: got %+v, want %+v", n, i, s, got, want)
			}
			total, _ = total.Add(U128(got.Total))
			rot180, _ = rot180.Add(U128(got.Rot180))
			rot90, _ = rot90.Add(U128(got.Rot90))
		}
		for _, s := range buildUnits(n, false) {
			b := startBoard(n, s.Constellation)
			_, avail := b.Branch()
			if b.Rows == 0 {
				continue
			}
			if perConstellation[s.Constellation] != avail {
				t.Errorf("N=%d %+v: split into columns %b, its first row has %b free", n, s.Constellation, perConstellation[s.Constellation], avail)
			}
		}
		twice, _ := rot90.Add(rot90)
		sum, _ := total.Add(rot180)
		sum, _ = sum.Add(twice)
		unique, _ := sum.div8()
		if want := ref[n]; total != want[0] || unique != want[1] {
			t.Errorf("N=%d split: total %s unique %s, want %s %s", n, total, unique, want[0], want[1])
		}
	}
}

// TestSplitEstimate checks that probes over split units estimate the nodes
// that the split units really visit.
func TestSplitEstimate(t *testing.T) {
	const n = 12
	u := buildUnits(n, true)
	var nodes float64
	for i, s := range u {
		r, _, _ := countSpec(n, i, s, nil)
		nodes += float64(r.Nodes)
	}
	e, err := estimateOver(context.Background(), n, u, 20000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(e.Nodes-nodes) > 4*e.NodesErr {
		t.Errorf("N=%d split: estimated %.0f ± %.0f nodes, counted %.0f", n, e.Nodes, e.NodesErr, nodes)
	}
	if e.Units != len(u) {
		t.Errorf("estimate over %d units, the table has %d", e.Units, len(u))
	}
}

// TestSplitTables checks the tree's tables switch to the split scheme at
// SplitFrom and stop at SplitTo (the join counts those N; the split
// tables serve the probes of CheckSpread), and that a tree N's public
// tables and fingerprint are the unsplit ones.
func TestSplitTables(t *testing.T) {
	for _, n := range []int{SplitFrom - 1, SplitFrom, SplitTo + 1} {
		u := units(n)
		s := u[len(u)-1]
		if isSplit := n >= SplitFrom && n <= SplitTo; (s.Row >= 0) != isSplit {
			t.Errorf("N=%d: last unit %+v; split should be %v", n, s, isSplit)
		}
		if j, ok := indexIn(u, s); !ok || j != len(u)-1 {
			t.Errorf("N=%d: the index of the last unit = %d, %v", n, j, ok)
		}
	}
	const n = SplitTo + 1
	if fp := Fingerprint(n); strings.Contains(fp, "-split ") || !strings.Contains(fp, "border-constellations") {
		t.Errorf("N=%d: fingerprint %q", n, fp)
	}
	if j, ok := UnitIndex(n, units(n)[0]); !ok || j != 0 {
		t.Errorf("N=%d: UnitIndex of the first unit = %d, %v", n, j, ok)
	}
}
