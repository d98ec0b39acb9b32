package complete

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/solve"
)

// slowCompletions is the obviously correct reference: row by row, every
// column, explicit checks against every queen placed so far and the list of
// blocked squares. It returns every completion as a 1-based column string.
func slowCompletions(p problem) []string {
	blocked := map[[2]int]bool{}
	for _, sq := range p.blocked {
		blocked[sq] = true
	}
	cols := slices.Clone(p.queens)
	var out []string
	var place func(r int)
	place = func(r int) {
		if r == p.n {
			out = append(out, board.Placement(slices.Clone(cols)).String())
			return
		}
		if p.queens[r] >= 0 {
			place(r + 1)
			return
		}
		for c := range p.n {
			if blocked[[2]int{r, c}] {
				continue
			}
			ok := true
			for r2, c2 := range cols {
				if r2 != r && c2 >= 0 && board.Attacks(board.Square{Row: r, Col: c}, board.Square{Row: r2, Col: int(c2)}) {
					ok = false
					break
				}
			}
			if ok {
				cols[r] = int32(c)
				place(r + 1)
				cols[r] = -1
			}
		}
	}
	place(0)
	slices.Sort(out)
	return out
}

func exactCompletions(p problem) []string {
	e := newExact(context.Background(), p.n, p.queens, p.blocked)
	var out []string
	e.search(func() bool {
		out = append(out, board.Placement(e.columns()).String())
		return true
	})
	slices.Sort(out)
	return out
}

// randomProblem places up to q non-attacking queens and b blocked squares
// (never under a queen) on an n×n board.
func randomProblem(rng *rand.Rand, n, q, b int) problem {
	p := problem{n: n, queens: make([]int32, n)}
	for r := range p.queens {
		p.queens[r] = -1
	}
	for range q {
		r, c := rng.IntN(n), rng.IntN(n)
		if p.queens[r] >= 0 {
			continue
		}
		p.queens[r] = int32(c)
		if board.Check(board.Placement(p.queens)) != nil {
			p.queens[r] = -1
		}
	}
	for range b {
		r, c := rng.IntN(n), rng.IntN(n)
		if int(p.queens[r]) != c {
			p.blocked = append(p.blocked, [2]int{r, c})
		}
	}
	return p
}

func TestExactMatchesSlow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 9; n++ {
		for trial := range 60 {
			p := randomProblem(rng, n, rng.IntN(3), rng.IntN(2*n))
			if trial%3 == 0 {
				p = excludedDiagonals(n, rng.IntN(n+1), uint64(trial))
			}
			got, want := exactCompletions(p), slowCompletions(p)
			if !slices.Equal(got, want) {
				t.Fatalf("n = %d, queens %v, blocked %v: exact found %d completions, slow %d\n%v\n%v",
					n, p.queens, p.blocked, len(got), len(want), got, want)
			}
		}
	}
}

func TestExactCountsMatchReference(t *testing.T) {
	rows, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 11; n++ {
		p := problem{n: n, queens: board.New(n)}
		e := newExact(context.Background(), n, p.queens, nil)
		count := int64(0)
		e.search(func() bool { count++; return true })
		if want := rows[n].Total; want.Int64() != count {
			t.Errorf("n = %d: %d completions of the empty board, want %v", n, count, want)
		}
	}
}

// The exact search handles the full width of a word: a 64×64 board with a
// queen in most rows (a constructed solution with 8 rows emptied).
func TestExactWidth64(t *testing.T) {
	for _, n := range []int{63, 64} {
		sol, err := solve.Construct(n)
		if err != nil {
			t.Fatal(err)
		}
		queens := []int32(board.Collect(sol))
		for r := 3; r < n; r += n / 8 {
			queens[r] = -1
		}
		e := newExact(context.Background(), n, queens, nil)
		found := 0
		e.search(func() bool {
			if err := board.Verify(board.Placement(e.columns())); err != nil {
				t.Fatalf("n = %d: invalid completion: %v", n, err)
			}
			found++
			return true
		})
		if found == 0 {
			t.Errorf("n = %d: the constructed solution was not found", n)
		}
	}
}

func TestLocalSearchLargeBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{65, 100, 500, 3000} {
		p := randomProblem(rng, n, 5, 3*n)
		got, ok, err := localSearch(context.Background(), n, p.queens, p.blocked, 1)
		if err != nil || !ok {
			t.Fatalf("n = %d: local search failed: ok=%v err=%v", n, ok, err)
		}
		if err := board.Verify(board.Placement(got)); err != nil {
			t.Fatalf("n = %d: %v", n, err)
		}
		for r, c := range p.queens {
			if c >= 0 && got[r] != c {
				t.Fatalf("n = %d: moved the fixed queen of row %d", n, r+1)
			}
		}
		for _, sq := range p.blocked {
			if int(got[sq[0]]) == sq[1] {
				t.Fatalf("n = %d: queen on blocked square %v", n, sq)
			}
		}
	}
}

// A board whose only free row is fully blocked makes every attempt fail.
func TestLocalSearchGivesUp(t *testing.T) {
	n := 70
	queens := []int32(board.New(n))
	var blocked [][2]int
	for c := range n {
		blocked = append(blocked, [2]int{5, c})
	}
	_, ok, err := localSearch(context.Background(), n, queens, blocked, 1)
	if ok || err != nil {
		t.Fatalf("ok=%v err=%v, want a plain failure", ok, err)
	}
}

func TestExcludedDiagonals(t *testing.T) {
	a := excludedDiagonals(12, 10, 5)
	b := excludedDiagonals(12, 10, 5)
	if !slices.Equal(a.blocked, b.blocked) {
		t.Error("the same seed gave two instances")
	}
	// Every blocked square lies on one of exactly k whole blocked lines.
	lines := map[int]bool{}
	blocked := map[[2]int]bool{}
	for _, sq := range a.blocked {
		blocked[sq] = true
	}
	n := a.n
	for l := range 4*n - 2 {
		whole, any := true, false
		for r := range n {
			c := r - l + n - 1
			if l >= 2*n-1 {
				c = l - (2*n - 1) - r
			}
			if c < 0 || c >= n {
				continue
			}
			if blocked[[2]int{r, c}] {
				any = true
			} else {
				whole = false
			}
		}
		if whole && any {
			lines[l] = true
		}
	}
	if len(lines) < 10 {
		t.Errorf("found %d whole blocked lines, want at least 10", len(lines))
	}
}
