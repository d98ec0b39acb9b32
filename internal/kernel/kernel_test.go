package kernel

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/nqueens/nqueens/internal/reference"
)

// brute counts completions of b row by row, the obvious way.
func brute(b *Board) uint64 {
	if b.Rows == 0 {
		return 1
	}
	r := 0
	for b.Rows&(1<<uint(r)) == 0 {
		r++
	}
	var s uint64
	for c := 0; c < b.N; c++ {
		if b.Free(r)&(1<<uint(c)) != 0 {
			child := *b
			child.Place(r, c)
			s += brute(&child)
		}
	}
	return s
}

// randomBoard places up to k non-attacking queens at random.
func randomBoard(rng *rand.Rand, n, k int) Board {
	b := Board{N: n}
	for r := range n {
		b.Rows |= 1 << uint(r)
	}
	for range k {
		r := rng.IntN(n)
		if b.Rows&(1<<uint(r)) == 0 {
			continue
		}
		if a := b.Free(r); a != 0 {
			cs := []int{}
			for c := range n {
				if a&(1<<uint(c)) != 0 {
					cs = append(cs, c)
				}
			}
			b.Place(r, cs[rng.IntN(len(cs))])
		}
	}
	return b
}

func TestCountMatchesBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		n := 1 + rng.IntN(11)
		b := randomBoard(rng, n, rng.IntN(5))
		checkKernels(t, &b, brute(&b))
	}
}

// TestEmptyBoards runs every kernel on whole empty boards, where all rows
// take part in the choice of the next row, against OEIS A000170.
func TestEmptyBoards(t *testing.T) {
	rows, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 13; n++ {
		b := Board{N: n, Rows: 1<<uint(n) - 1}
		checkKernels(t, &b, rows[n].Total.Uint64())
	}
}

// runnable returns the implementations this CPU runs.
func runnable() []implementation {
	var out []implementation
	for _, k := range implementations {
		if k.ok {
			out = append(out, k)
		}
	}
	return out
}

// checkKernels checks that every implementation able to take b finds want
// completions, and that they all visit the same number of nodes.
func checkKernels(t *testing.T, b *Board, want uint64) {
	t.Helper()
	var nodes0 uint64
	var first string
	for _, k := range runnable() {
		if b.N > k.maxN {
			continue
		}
		s, nodes, ok := k.count(b, nil)
		if !ok || s != want {
			t.Fatalf("N=%d board %+v: %s finds %d completions, brute force %d", b.N, *b, k.name, s, want)
		}
		if first != "" && nodes != nodes0 {
			t.Fatalf("N=%d board %+v: %s visits %d nodes, %s %d", b.N, *b, k.name, nodes, first, nodes0)
		}
		first, nodes0 = k.name, nodes
	}
}

func TestStop(t *testing.T) {
	var stop atomic.Bool
	stop.Store(true)
	for _, n := range []int{20, 24} {
		b := Board{N: n, Rows: 1<<uint(n) - 1}
		if _, _, ok := Count(&b, &stop); ok {
			t.Errorf("N=%d finished although stop was set", n)
		}
	}
	w := Board{N: 40, Rows: 1<<40 - 1}
	if _, _, ok := Count(&w, &stop); ok {
		t.Error("N=40 finished although stop was set")
	}
}

// TestProbeMean checks Knuth's estimator averages to the true values.
func TestProbeMean(t *testing.T) {
	b := Board{N: 9, Rows: 1<<9 - 1}
	sols, nodes, _ := Count(&b, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	const probes = 200000
	var sn, ss float64
	for range probes {
		n, s := Probe(&b, func(k int) int { return rng.IntN(k) })
		sn += n
		ss += s
	}
	if m := sn / probes; m < 0.95*float64(nodes) || m > 1.05*float64(nodes) {
		t.Errorf("mean node estimate %.0f, true %d", m, nodes)
	}
	if m := ss / probes; m < 0.9*float64(sols) || m > 1.1*float64(sols) {
		t.Errorf("mean solution estimate %.1f, true %d", m, sols)
	}
}

var sinkSols uint64

// BenchmarkKernels times each loop on the empty board of N = 13, where they
// visit the same nodes (count32Loop is the assembly loop on amd64).
func BenchmarkKernels(b *testing.B) {
	board := Board{N: 13, Rows: 1<<13 - 1}
	for _, k := range runnable() {
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				sinkSols, _, _ = k.count(&board, nil)
			}
		})
	}
}

// TestCountNearlyFull checks the closed forms of the last rows and the
// column pruning on boards with only a few empty rows, up to N = 32.
func TestCountNearlyFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tried := 0
	for tried < 300 {
		n := 4 + rng.IntN(29)
		b := randomBoard(rng, n, 4*n)
		if tried%2 == 0 {
			b = fromSolution(t, rng, n)
		}
		empty := 0
		for r := range n {
			if b.Rows&(1<<uint(r)) != 0 {
				empty++
			}
		}
		if empty < 3 || empty > 7 {
			continue
		}
		tried++
		checkKernels(t, &b, brute(&b))
	}
}

// fromSolution empties 3 to 7 random rows of a full solution (the classic
// evens-then-odds one), so the board has at least one completion.
func fromSolution(t *testing.T, rng *rand.Rand, n int) Board {
	for n%6 == 2 || n%6 == 3 {
		n--
	}
	var cols []int
	for c := 1; c < n; c += 2 {
		cols = append(cols, c)
	}
	for c := 0; c < n; c += 2 {
		cols = append(cols, c)
	}
	b := Board{N: n}
	for r, c := range cols {
		if b.Free(r)&(1<<uint(c)) == 0 {
			t.Fatalf("N=%d: %v is not a solution", n, cols)
		}
		b.Place(r, c)
	}
	for _, r := range rng.Perm(n)[:min(n, 3+rng.IntN(5))] {
		b = remove(b, cols, r)
	}
	return b
}

// remove takes the queen of row r off b, a board filled from cols.
func remove(b Board, cols []int, r int) Board {
	out := Board{N: b.N, Rows: b.Rows | 1<<uint(r)}
	for rr, c := range cols {
		if out.Rows&(1<<uint(rr)) == 0 {
			out.Place(rr, c)
		}
	}
	return out
}
