package join

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/nqueens/nqueens/internal/reference"
)

// solutions lists every solution of n queens as the column of each row,
// by plain backtracking: the slow, obviously correct side of the tests.
func solutions(n int) [][]int {
	var out [][]int
	cols := make([]int, n)
	var rec func(r int, used, d, a uint64)
	rec = func(r int, used, d, a uint64) {
		if r == n {
			out = append(out, slices.Clone(cols))
			return
		}
		for c := range n {
			if used>>c&1 != 0 || d>>(c-r+n)&1 != 0 || a>>(c+r)&1 != 0 {
				continue
			}
			cols[r] = c
			rec(r+1, used|1<<c, d|1<<(c-r+n), a|1<<(c+r))
		}
	}
	rec(0, 0, 0, 0)
	return out
}

// keyOf returns the rows of the left half's queens of a solution and the
// code of its separator placement.
func (l *Layout) keyOf(sol []int) (e, code uint32) {
	for j := range l.S {
		for r, c := range sol {
			if c == l.CL+j {
				code = code<<5 | uint32(r)
			}
		}
	}
	for r, c := range sol {
		if c < l.CL {
			e |= 1 << r
		}
	}
	return e, code
}

// TestKeysAgainstSolutions counts every key of every layout of N ≤ 11 (and
// 12 outside -short) with every implementation, and compares each count
// with the solutions that have that key, found by plain backtracking; the
// weights must make every solution count once.
func TestKeysAgainstSolutions(t *testing.T) {
	maxN := 12
	if testing.Short() {
		maxN = 10
	}
	for n := 4; n <= maxN; n++ {
		sols := solutions(n)
		for s := n % 2; s <= 2; s += 2 {
			l, err := NewLayout(n, s)
			if err != nil {
				continue // too many bits for the separator
			}
			byKey := map[[2]uint32]uint64{}
			for _, sol := range sols {
				e, code := l.keyOf(sol)
				byKey[[2]uint32{e, code}]++
			}
			tb, err := NewTables(l, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			var weighted uint64
			for _, k := range l.Keys() {
				want := byKey[[2]uint32{k.E, l.seps[k.Sep].code}]
				weighted += uint64(k.Weight) * want
				for _, o := range allOps {
					w := NewWorker(tb)
					w.ops = o
					got, _, ok := w.CountKeys([]Key{k}, nil)
					if !ok || got != uint64(k.Weight)*want {
						t.Fatalf("%s N=%d s=%d key %+v: %d, want %d × %d", o.name, n, s, k, got, k.Weight, want)
					}
				}
			}
			if weighted != uint64(len(sols)) {
				t.Errorf("N=%d s=%d: the weighted keys hold %d solutions, want %d", n, s, weighted, len(sols))
			}
		}
	}
}

// TestTotals counts N = 4 … 14 (16 outside -short) unit by unit with every
// implementation against the published table.
func TestTotals(t *testing.T) {
	ref, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	maxN := 16
	if testing.Short() {
		maxN = 14
	}
	for n := 4; n <= maxN; n++ {
		l, err := NewLayout(n, n%2)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := NewTables(l, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range allOps {
			if o == &goOps && n > 14 {
				continue // the Go loops are slow; they are held to the others on smaller boards
			}
			w := NewWorker(tb)
			w.ops = o
			var total uint64
			for u := range l.Units() {
				c, _, ok := w.CountUnit(u, nil)
				if !ok {
					t.Fatal("stopped without a stop flag")
				}
				total += c
			}
			if want := ref[n].Total.Uint64(); total != want {
				t.Errorf("%s N=%d: %d, want %d", o.name, n, total, want)
			}
		}
	}
}

// TestLayoutKeys checks that the keys of small layouts are sorted, grouped
// into units without splitting a rows set, and that their weights cover
// every (rows, separator) pair exactly once.
func TestLayoutKeys(t *testing.T) {
	for n := 4; n <= 13; n++ {
		for s := n % 2; s <= 2; s += 2 {
			l, err := NewLayout(n, s)
			if err != nil {
				continue
			}
			var weights, pairs int
			for i, k := range l.keys {
				weights += int(k.Weight)
				if i > 0 && (k.E < l.keys[i-1].E || k.E == l.keys[i-1].E && k.Sep <= l.keys[i-1].Sep) {
					t.Fatalf("N=%d s=%d: keys %d and %d out of order", n, s, i-1, i)
				}
			}
			for _, sp := range l.seps {
				free := (uint32(1)<<n - 1) &^ sp.rows
				for range subsetsOf(free, l.CL) {
					pairs++
				}
			}
			if weights != pairs {
				t.Errorf("N=%d s=%d: weights add up to %d, there are %d keys", n, s, weights, pairs)
			}
			for u := range l.Units() {
				k := l.UnitKeys(u)
				if len(k) == 0 || u > 0 && l.UnitKeys(u - 1)[len(l.UnitKeys(u-1))-1].E == k[0].E {
					t.Fatalf("N=%d s=%d: unit %d is empty or splits a rows set", n, s, u)
				}
			}
		}
	}
}

// TestOpsAgree runs each implementation's inner loops against the Go ones
// on random input.
func TestOpsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(k int, density uint64) []uint64 {
		out := make([]uint64, k)
		for i := range out {
			out[i] = rng.Uint64() & rng.Uint64() & density
		}
		return out
	}
	for _, o := range allOps[1:] {
		for trial := range 200 {
			nt, nb := rng.IntN(20), rng.IntN(40)
			t0, t1, b0, b1 := random(nt, ^uint64(0)), random(nt, ^uint64(0)), random(nb, ^uint64(0)), random(nb, ^uint64(0))
			if nt == 0 || nb == 0 {
				continue
			}
			inner, sm := rng.Uint64()>>rng.IntN(64), rng.Uint64()&rng.Uint64()&rng.Uint64()
			var want0, got0 []uint64
			wantOut := goOps.join(nil, &want0, t0, t1, inner, sm, b0, b1)
			gotOut := o.join(nil, &got0, t0, t1, inner, sm, b0, b1)
			if !slices.Equal(gotOut, wantOut) || !slices.Equal(got0, want0) {
				t.Fatalf("%s join, trial %d: %v %v, want %v %v", o.name, trial, gotOut, got0, wantOut, want0)
			}
			if got := o.filter(nil, wantOut, want0, sm>>3); !slices.Equal(got, goOps.filter(nil, wantOut, want0, sm>>3)) {
				t.Fatalf("%s filter, trial %d", o.name, trial)
			}
			shift := rng.IntN(40)
			a, b := slices.Clone(t0), slices.Clone(t0)
			goOps.reverse(a, shift)
			o.reverse(b, shift)
			if !slices.Equal(a, b) {
				t.Fatalf("%s reverse, trial %d: %x, want %x", o.name, trial, b, a)
			}
		}
		checkPasses(t, o.name, rng, 1<<63-1, 8, o.partition, o.lacking)
		checkPasses(t, o.name+" narrow", rng, 1<<32-1, 16, o.partition32, o.lacking32)
		for trial := range 100 {
			j := randomBits(rng, 1+rng.IntN(32))
			xs := random(rng.IntN(200), 1<<63-1)
			want, got := make([]uint32, len(xs)), make([]uint32, len(xs))
			var mt matcher
			compress32Go(&mt, want, xs, j)
			o.compress32(&mt, got, xs, j)
			if !slices.Equal(got, want) {
				t.Fatalf("%s compress32, trial %d: %x, want %x", o.name, trial, got, want)
			}
			// Widened back, with the room past the end that widen may write.
			wide := make([]uint64, len(got)+8)
			o.widen(wide[:len(got)], slices.Grow(got, 8))
			for i, x := range want {
				if wide[i] != uint64(x) {
					t.Fatalf("%s widen, trial %d: %x, want %x", o.name, trial, wide[:len(got)], want)
				}
			}
		}
		for trial := range 100 {
			m := 1 + rng.IntN(63)
			j := randomBits(rng, m)
			xs := random(1+rng.IntN(1500), 1<<63-1)
			ys := random(1+rng.IntN(300), 1<<63-1)
			var a, b matcher
			want, _, _ := a.countDisjoint(&goOps, xs, ys, nil)
			got, _, _ := b.countDisjoint(o, xs, ys, nil)
			if brute := bruteDisjoint(xs, ys); want != brute || got != brute {
				t.Fatalf("%s countDisjoint, trial %d (m=%d, j=%x): %d, Go %d, brute force %d", o.name, trial, m, j, got, want, brute)
			}
			// The same through every chunking of j's bits.
			xs2 := random(len(xs), j)
			ys2 := random(len(ys), j)
			want, _, _ = a.countDisjoint(&goOps, xs2, ys2, nil)
			got, _, _ = b.countDisjoint(o, xs2, ys2, nil)
			if brute := bruteDisjoint(xs2, ys2); want != brute || got != brute {
				t.Fatalf("%s countDisjoint on %d bits, trial %d: %d, Go %d, brute force %d", o.name, m, trial, got, want, brute)
			}
		}
	}
}

// checkPasses runs the sieve's two passes, partition and lacking, on
// patterns of one width (mask: the bits they may have; lanes: a vector's
// patterns, the room the outputs have past n) against the split written
// out: the patterns without the bit and with it, each in order.
func checkPasses[T pattern](t *testing.T, name string, rng *rand.Rand, mask T, lanes int,
	partition func(xs, ones []T, b uint8) (int, T, T), lacking func(dst, src []T, b uint8) (int, T)) {
	t.Helper()
	random := func(k int) []T {
		out := make([]T, k)
		for i := range out {
			out[i] = T(rng.Uint64()&rng.Uint64()) & mask
		}
		return out
	}
	for trial := range 300 {
		// A part of a larger list, so that what lies past it must stay.
		n := rng.IntN(100)
		buf := random(n + 2*lanes)
		before := slices.Clone(buf)
		b := uint8(rng.IntN(bits.Len64(uint64(mask))))
		var zeros, ones []T
		var wor0, wor1 T
		for _, x := range buf[4 : 4+n] {
			if x>>b&1 == 0 {
				zeros, wor0 = append(zeros, x), wor0|x
			} else {
				ones, wor1 = append(ones, x), wor1|x
			}
		}
		// Room for n + lanes in both outputs, then a guard.
		out := random(n + lanes + 4)
		guard := slices.Clone(out[n+lanes:])
		n0, or0, or1 := partition(buf[4:4+n], out[:n+lanes], b)
		if n0 != len(zeros) || or0 != wor0 || or1 != wor1 || !slices.Equal(buf[4:4+n0], zeros) || !slices.Equal(out[:n-n0], ones) {
			t.Fatalf("%s partition, trial %d: %d %x %x %x %x, want %d %x %x %x %x", name, trial, n0, or0, or1, buf[4:4+n0], out[:n-n0], len(zeros), wor0, wor1, zeros, ones)
		}
		if !slices.Equal(buf[:4], before[:4]) || !slices.Equal(buf[4+n:], before[4+n:]) || !slices.Equal(out[n+lanes:], guard) {
			t.Fatalf("%s partition, trial %d: wrote outside its part", name, trial)
		}
		copy(buf, before)
		m, or := lacking(out[:n+lanes], buf[4:4+n], b)
		if m != len(zeros) || or != wor0 || !slices.Equal(out[:m], zeros) {
			t.Fatalf("%s lacking, trial %d: %d %x %x, want %d %x %x", name, trial, m, or, out[:m], len(zeros), wor0, zeros)
		}
		if !slices.Equal(buf, before) || !slices.Equal(out[n+lanes:], guard) {
			t.Fatalf("%s lacking, trial %d: wrote outside its output", name, trial)
		}
	}
}

// randomBits returns a random mask of m bits.
func randomBits(rng *rand.Rand, m int) uint64 {
	var j uint64
	for bits.OnesCount64(j) < m {
		j |= 1 << rng.IntN(64)
	}
	return j
}

// TestStop sets the stop flag: the tables and a unit's count give up.
func TestStop(t *testing.T) {
	l, err := NewLayout(16, 0)
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	stop.Store(true)
	if _, err := NewTables(l, 0, &stop); err != ErrStopped {
		t.Errorf("tables built under a stop: %v", err)
	}
	tb, err := NewTables(l, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorker(tb)
	// The unit with the most pairs has many blocks.
	best, most := 0, uint64(0)
	for u := range l.Units() {
		if _, p, _ := w.CountUnit(u, nil); p > most {
			best, most = u, p
		}
	}
	if _, _, ok := w.CountUnit(best, &stop); ok {
		t.Errorf("unit %d (%d pairs) finished under a stop", best, most)
	}
}

// TestMemoryLimit refuses tables over the limit with a MemoryError.
func TestMemoryLimit(t *testing.T) {
	l, err := NewLayout(14, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewTables(l, 1000, nil)
	me, ok := err.(*MemoryError)
	if !ok || me.N != 14 || me.Need <= 1000 {
		t.Fatalf("tables of N = 14 within 1000 bytes: %v", err)
	}
	if want := "the join of N = 14 needs"; len(me.Error()) < len(want) || me.Error()[:len(want)] != want {
		t.Errorf("message %q", me.Error())
	}
}

func ExampleWorker_CountUnit() {
	l, _ := NewLayout(12, 0)
	t, _ := NewTables(l, 0, nil)
	w := NewWorker(t)
	var total uint64
	for u := range l.Units() {
		c, _, _ := w.CountUnit(u, nil)
		total += c
	}
	fmt.Println(total)
	// Output: 14200
}

// TestNewWords takes words below and above the size that is mapped apart
// from the Go heap: zeroed, writable to the last word, and given back.
func TestNewWords(t *testing.T) {
	for _, n := range []int{0, 1, hugeWords - 1, hugeWords, 3*hugeWords + 5} {
		w, free := newWords(n)
		if len(w) != n {
			t.Fatalf("newWords(%d): %d words", n, len(w))
		}
		for i := range w {
			if w[i] != 0 {
				t.Fatalf("newWords(%d): word %d is %#x", n, i, w[i])
			}
			w[i] = uint64(i)
		}
		if n > 0 && w[n-1] != uint64(n-1) {
			t.Fatalf("newWords(%d): the last word did not keep its value", n)
		}
		free()
	}
}

// TestMirroredQuarter holds the bottom quarter that even N copy from the
// top one, mirrored, to the bottom quarter walked: the same placements
// (words) for every rows and columns index.
func TestMirroredQuarter(t *testing.T) {
	maxN := 16
	if testing.Short() {
		maxN = 12
	}
	for n := 4; n <= maxN; n += 2 {
		l, err := NewLayout(n, 0)
		if err != nil {
			t.Fatal(err)
		}
		mirrored, err := newTables(l, 0, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		walked, err := newTables(l, 0, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		m, w := &mirrored.bot, &walked.bot
		if !slices.Equal(m.off, w.off) {
			t.Fatalf("N=%d: the mirrored quarter's index differs from the walked one's", n)
		}
		for i := range len(w.off) - 1 {
			lo, hi := w.off[i], w.off[i+1]
			pairs := func(q *quarter) [][2]uint64 {
				var out [][2]uint64
				for x := lo; x < hi; x++ {
					out = append(out, [2]uint64{q.w0[x], q.w1[x]})
				}
				slices.SortFunc(out, func(a, b [2]uint64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
				return out
			}
			if got, want := pairs(m), pairs(w); !slices.Equal(got, want) {
				t.Fatalf("N=%d index %#x: mirrored %x, walked %x", n, i, got, want)
			}
		}
	}
}

// TestSieve counts lists large enough to be split many times, whose
// patterns share dense bits as the halves' do, with every implementation,
// against a comparison of every pair; the sieve must compare fewer pairs
// than there are.
func TestSieve(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 6 {
		m := 30 + rng.IntN(30)
		pattern := func() uint64 {
			// Bits set with probabilities from 0.05 to 0.6.
			var x uint64
			for b := range m {
				if rng.Float64() < 0.05+0.55*float64(b%7)/6 {
					x |= 1 << b
				}
			}
			return x
		}
		xs := make([]uint64, 8000+rng.IntN(6000))
		ys := make([]uint64, 2000+rng.IntN(4000))
		for i := range xs {
			xs[i] = pattern()
		}
		for i := range ys {
			ys[i] = pattern()
		}
		want := bruteDisjoint(xs, ys)
		for _, o := range allOps {
			var mt matcher
			got, compared, ok := mt.countDisjoint(o, slices.Clone(xs), slices.Clone(ys), nil)
			if !ok || got != want {
				t.Fatalf("%s, trial %d (%d × %d, m = %d): %d, want %d", o.name, trial, len(xs), len(ys), m, got, want)
			}
			if all := uint64(len(xs)) * uint64(len(ys)); compared >= all || compared < want {
				t.Errorf("%s, trial %d: %d pairs compared of %d, for %d disjoint", o.name, trial, compared, all, want)
			}
		}
	}
}
