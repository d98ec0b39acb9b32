package classic

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/solve"
)

// slowBacktrackCounters derives a backtracking strategy's counters from
// their definition, with board.Check as the only test of a square and
// tryOracle for what a try reads: P(k) is the number of attack-free boards
// with queens in rows 0..k-1 only; a search places one queen per such board
// with k ≥ 1 and tries the n squares of row k on each one with k < n,
// except bitmask, which only ever tries the free ones and reads three words
// a board with k < n plus one a placement.
func slowBacktrackCounters(name string, n int) Counters {
	var c Counters
	p := board.New(n)
	var walk func(k int)
	walk = func(k int) {
		if k == n {
			c.Solutions++
			return
		}
		if name == "bitmask" {
			c.Reads += 3
		}
		for col := range n {
			p[k] = int32(col)
			free := board.Check(p) == nil
			p[k] = board.Empty
			if name != "bitmask" {
				reads, _, _, _ := tryOracle(name, p, k, col)
				c.Reads += uint64(reads)
				c.Tries++
			}
			if !free {
				continue
			}
			if name == "bitmask" {
				c.Reads++
				c.Tries++
			}
			c.Placed++
			p[k] = int32(col)
			walk(k + 1)
			p[k] = board.Empty
		}
	}
	walk(0)
	c.Nodes = c.Placed
	c.Rejected = c.Tries - c.Placed
	c.Backtracks = c.Placed
	return c
}

func total(t *testing.T, n int) uint64 {
	t.Helper()
	row, ok, err := reference.Get(n)
	if err != nil || !ok {
		t.Fatalf("reference count for n=%d: ok=%v err=%v", n, ok, err)
	}
	return row.Total.Uint64()
}

// isBacktracker says whether s follows the backtracking conventions.
func isBacktracker(s Strategy) bool { _, ok := s.(backtracking); return ok }

func TestCountersN8(t *testing.T) {
	backtracking := Counters{Nodes: 2056, Tries: 15720, Placed: 2056, Rejected: 13664, Backtracks: 2056, Solutions: 92}
	with := func(reads uint64) Counters { c := backtracking; c.Reads = reads; return c }
	tests := []struct {
		name string
		want Counters
	}{
		{"brute-rows", Counters{Nodes: 16777216, Tries: 16777216, Reads: 76554842, Rejected: 16777216 - 92, Solutions: 92}},
		{"permutations", Counters{Nodes: 40320, Tries: 40320, Reads: 297256, Rejected: 40320 - 92, Solutions: 92}},
		{"backtrack-2d", with(81318)},
		{"backtrack-array", with(46752)},
		{"backtrack-flags", with(24648)},
		{"backtrack-flags-iterative", with(24648)},
		{"stack", with(93504)},
		{"bitmask", Counters{Nodes: 2056, Tries: 2056, Reads: 7951, Placed: 2056, Backtracks: 2056, Solutions: 92}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Lookup(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Solve(context.Background(), 8, nil)
			got.Elapsed = 0
			if err != nil || got != tt.want {
				t.Errorf("n=8: %v (err %v)\nwant %v", got, err, tt.want)
			}
		})
	}
	// brute-combinations takes minutes for n = 8: its count is checked in
	// closed form here, and run by TestDocTable with NQUEENS_LONG=1.
	bc, _ := Lookup("brute-combinations")
	if got := bc.(Estimator).Candidates(8); got.String() != "4426165368" {
		t.Errorf("C(64, 8) = %v, want 4426165368", got)
	}
}

func TestCountersSmallN(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for _, s := range All() {
			if !Enumerates(s) || n > feasibleN(s) {
				continue
			}
			got, err := s.Solve(context.Background(), n, nil)
			if err != nil {
				t.Fatalf("%s n=%d: %v", s.Name(), n, err)
			}
			got.Elapsed = 0
			var want Counters
			if e, ok := s.(Estimator); ok {
				k := e.Candidates(n).Uint64()
				sol := total(t, n)
				want = Counters{Nodes: k, Tries: k, Reads: got.Reads, Rejected: k - sol, Solutions: sol}
			} else {
				want = slowBacktrackCounters(s.Name(), n)
				if want.Solutions != total(t, n) {
					t.Fatalf("n=%d: slow reference finds %d solutions, the table says %d", n, want.Solutions, total(t, n))
				}
			}
			if got != want {
				t.Errorf("%s n=%d:\n got %v\nwant %v", s.Name(), n, got, want)
			}
		}
	}
}

// feasibleN is the largest n a test runs a strategy for, to keep the suite
// fast under -race: brute force grows as C(n², n), n^n and n!. With
// NQUEENS_LONG=1 brute force goes one or two sizes further; n = 10 would
// take hours for brute-rows and days for brute-combinations.
func feasibleN(s Strategy) int {
	switch s.Name() {
	case "brute-combinations":
		if long() {
			return 7 // C(49, 7) = 85,900,584
		}
		return 6 // C(36, 6) = 1,947,792
	case "brute-rows":
		if long() {
			return 9 // 387,420,489
		}
		return 7 // 823,543
	}
	return 10 // permutations: 3,628,800
}

// TestSolutionsAgree checks every strategy's solutions, as a sorted set,
// against solve.All, and that each is a valid, distinct solution.
func TestSolutionsAgree(t *testing.T) {
	for n := 1; n <= 10; n++ {
		var want []board.Placement
		for p, err := range solve.All(n) {
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, p)
		}
		for _, s := range All() {
			if n > feasibleN(s) {
				continue
			}
			var got []board.Placement
			c, err := s.Solve(context.Background(), n, func(p board.Placement) bool {
				if err := board.Verify(p); err != nil {
					t.Errorf("%s n=%d: visited %v: %v", s.Name(), n, p, err)
				}
				got = append(got, p.Clone())
				return true
			})
			if err != nil {
				t.Fatalf("%s n=%d: %v", s.Name(), n, err)
			}
			if c.Solutions != uint64(len(want)) {
				t.Errorf("%s n=%d: counted %d solutions, want %d", s.Name(), n, c.Solutions, len(want))
			}
			if !Enumerates(s) {
				continue
			}
			if isBacktracker(s) && !slices.EqualFunc(got, want, board.Placement.Equal) {
				t.Errorf("%s n=%d: solutions not in lexicographic order or not the same", s.Name(), n)
			}
			slices.SortFunc(got, func(a, b board.Placement) int {
				if a.Less(b) {
					return -1
				}
				if b.Less(a) {
					return 1
				}
				return 0
			})
			if !slices.EqualFunc(got, want, board.Placement.Equal) {
				t.Errorf("%s n=%d: %d solutions differ from solve.All's %d", s.Name(), n, len(got), len(want))
			}
		}
	}
}

func TestStopsWhenVisitSaysSo(t *testing.T) {
	for _, s := range All() {
		if !Enumerates(s) {
			continue
		}
		calls := 0
		c, err := s.Solve(context.Background(), 6, func(board.Placement) bool { calls++; return false })
		if err != nil || calls != 1 || c.Solutions != 1 {
			t.Errorf("%s: stopped after %d calls, %d solutions, err %v; want 1, 1, nil", s.Name(), calls, c.Solutions, err)
		}
	}
}

func TestCancel(t *testing.T) {
	for _, s := range All() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Solve(ctx, 8, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err %v, want context.Canceled", s.Name(), err)
		}
	}
	// Every strategy must notice a deadline in the middle of a search too
	// (a count-only engine has its own tests and limits).
	for _, s := range All() {
		if !Enumerates(s) {
			continue
		}
		// The deadline is how the search is stopped: n = 30 never ends.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		start := time.Now()
		c, err := s.Solve(ctx, 30, nil)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || c.Nodes == 0 {
			t.Errorf("%s n=30: err %v after %v nodes, want the deadline and some work", s.Name(), err, c.Nodes)
		}
		if d := time.Since(start); d > 5*time.Second { // a bound for a loaded machine, not for the search's speed
			t.Errorf("%s took %v to notice a 20ms deadline", s.Name(), d)
		}
	}
}

func TestSizeError(t *testing.T) {
	for _, s := range All() {
		for _, n := range []int{0, -1, MaxN + 1} {
			if n > MaxN && !Enumerates(s) {
				continue // a count-only engine has its own upper limit
			}
			_, err := s.Solve(context.Background(), n, nil)
			var se *SizeError
			if !errors.As(err, &se) || se.N != n {
				t.Errorf("%s n=%d: err %v, want a *SizeError", s.Name(), n, err)
			}
		}
	}
}

func TestCandidatesClosedForm(t *testing.T) {
	tests := []struct {
		name string
		n    int
		want string
	}{
		{"brute-combinations", 8, "4426165368"},
		{"brute-combinations", 1, "1"},
		{"brute-combinations", 11, "1276749965026536"},
		{"brute-combinations", 20, "2788360983670896737872851072994080"},
		{"brute-rows", 8, "16777216"},
		{"brute-rows", 20, "104857600000000000000000000"},
		{"permutations", 8, "40320"},
		{"permutations", 25, "15511210043330985984000000"},
	}
	for _, tt := range tests {
		s, _ := Lookup(tt.name)
		if got := s.(Estimator).Candidates(tt.n); got.Cmp(mustBig(tt.want)) != 0 {
			t.Errorf("%s: candidates(%d) = %v, want %s", tt.name, tt.n, got, tt.want)
		}
		// The formula is the one the strategy's description and title name.
		f := s.(Estimator).Formula()
		if l, _ := LessonOf(s); !strings.Contains(s.Description(), f+" candidates") || !strings.Contains(l.Title, f) {
			t.Errorf("%s: formula %q, description %q, title %q", tt.name, f, s.Description(), l.Title)
		}
	}
}

func mustBig(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}

func TestRegistry(t *testing.T) {
	want := []string{"brute-combinations", "brute-rows", "permutations", "backtrack-2d", "backtrack-array",
		"backtrack-flags", "backtrack-flags-iterative", "stack", "bitmask"}
	if got := Names(); !slices.Equal(got[:len(want)], want) {
		t.Errorf("Names() = %v, want %v first", got, want)
	}
	if _, err := Lookup("quantum"); err == nil {
		t.Error("Lookup of an unknown name succeeded")
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a second bitmask did not panic")
		}
	}()
	Register(bitmask)
}

func TestCountOnly(t *testing.T) {
	// A count-only strategy over a real counter: bitmask without visit.
	s := CountOnly("bitmask-count", "bitmask, counting only", 12, func(ctx context.Context, n int) (Counters, error) {
		return bitmask.Solve(ctx, n, nil)
	})
	if Enumerates(s) {
		t.Error("a CountOnly strategy claims to enumerate")
	}
	c, err := s.Solve(context.Background(), 8, func(board.Placement) bool { t.Error("visit called"); return true })
	if err != nil || c.Solutions != 92 || c.Elapsed <= 0 {
		t.Errorf("count-only n=8: %v, %v, err %v", c, c.Elapsed, err)
	}
	var se *SizeError
	if _, err := s.Solve(context.Background(), 13, nil); !errors.As(err, &se) || se.Max != 12 {
		t.Errorf("n=13 beyond max 12: err %v", err)
	}
}

func TestGroup(t *testing.T) {
	for v, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 4426165368: "4,426,165,368", 100000: "100,000"} {
		if got := Group(v); got != want {
			t.Errorf("Group(%d) = %q, want %q", v, got, want)
		}
	}
	// Past 64 bits: C(400, 20)-sized candidate counts.
	if got, want := GroupDigits("104857600000000000000000000"), "104,857,600,000,000,000,000,000,000"; got != want {
		t.Errorf("GroupDigits = %q, want %q", got, want)
	}
}

// TestConcurrentSolve runs every strategy in parallel with itself: a
// Strategy keeps no state between calls (run with -race).
func TestConcurrentSolve(t *testing.T) {
	for _, s := range All() {
		t.Run(s.Name(), func(t *testing.T) {
			t.Parallel()
			done := make(chan Counters, 2)
			for range 2 {
				go func() {
					c, _ := s.Solve(context.Background(), 6, nil)
					done <- c
				}()
			}
			if a, b := <-done, <-done; a.Solutions != 4 || b.Solutions != 4 {
				t.Errorf("%d and %d solutions, want 4", a.Solutions, b.Solutions)
			}
		})
	}
}

var sink Counters

func BenchmarkSolve8(b *testing.B) {
	for _, s := range All() {
		if s.Name() == "brute-combinations" {
			continue
		}
		b.Run(s.Name(), func(b *testing.B) {
			for b.Loop() {
				sink, _ = s.Solve(context.Background(), 8, nil)
			}
		})
	}
}
