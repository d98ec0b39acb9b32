package complete

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
)

func TestCompleteSmall(t *testing.T) {
	cases := []struct {
		name  string
		p     board.Partial
		want  string // a completion, or "" for none
		count uint64
	}{
		{"empty 4", board.Partial{Queens: board.New(4)}, "2 4 1 3", 2},
		{"queen fixed", board.Partial{Queens: board.FromOneBased(3, 0, 0, 0)}, "3 1 4 2", 1},
		{"corner has none", board.Partial{Queens: board.FromOneBased(1, 0, 0, 0)}, "", 0},
		{"blocked square", board.Partial{Queens: board.New(4), Blocked: []board.Square{{Row: 0, Col: 1}}}, "3 1 4 2", 1},
		{"all blocked", board.Partial{Queens: board.New(4), Blocked: []board.Square{{Row: 0, Col: 1}, {Row: 0, Col: 2}}}, "", 0},
		{"full board given", board.Partial{Queens: board.FromOneBased(2, 4, 1, 3)}, "2 4 1 3", 1},
		{"n = 1", board.Partial{Queens: board.New(1)}, "1", 1},
		{"n = 3", board.Partial{Queens: board.New(3)}, "", 0},
		{"empty 8", board.Partial{Queens: board.New(8)}, "1 5 8 6 3 7 2 4", 92},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Complete(ctx, c.p, Options{})
			switch {
			case c.want == "" && !errors.Is(err, ErrNoCompletion):
				t.Errorf("Complete = %v, %v; want ErrNoCompletion", got, err)
			case c.want != "" && (err != nil || got.String() != c.want):
				t.Errorf("Complete = %v, %v; want %s", got, err, c.want)
			}
			k, err := Count(ctx, c.p, Options{})
			if err != nil || k != c.count {
				t.Errorf("Count = %d, %v; want %d", k, err, c.count)
			}
			var all []string
			for sol, err := range All(ctx, c.p, Options{}) {
				if err != nil {
					t.Fatal(err)
				}
				if err := board.Verify(sol); err != nil {
					t.Fatalf("All gave %v: %v", sol, err)
				}
				all = append(all, sol.String())
			}
			if uint64(len(all)) != c.count || len(slices.Compact(slices.Sorted(slices.Values(all)))) != len(all) {
				t.Errorf("All gave %d completions (%v), want %d distinct", len(all), all, c.count)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		p    board.Partial
		want string
	}{
		{"no rows", board.Partial{}, "no rows"},
		{"attack", board.Partial{Queens: board.FromOneBased(1, 0, 3, 0)}, "row 1, column 1 and row 3, column 3"},
		{"same column", board.Partial{Queens: board.FromOneBased(2, 0, 0, 2)}, "same column"},
		{"blocked queen", board.Partial{Queens: board.FromOneBased(2, 0, 0, 0), Blocked: []board.Square{{Row: 0, Col: 1}}}, "row 1, column 2"},
		{"blocked outside", board.Partial{Queens: board.New(4), Blocked: []board.Square{{Row: 4, Col: 0}}}, "off the 4×4 board"},
	}
	for _, c := range cases {
		err := Validate(c.p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate = %v, want an error mentioning %q", c.name, err, c.want)
		}
		if _, err2 := Complete(context.Background(), c.p, Options{}); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%s: Complete gave %v, want the Validate error", c.name, err2)
		}
	}
	var prob *board.Problem
	if err := Validate(board.Partial{Queens: board.FromOneBased(2, 0, 0, 0), Blocked: []board.Square{{Row: 0, Col: 1}}}); !errors.As(err, &prob) || prob.Kind != board.Blocked {
		t.Errorf("a queen on a blocked square gave %v, want a board.Problem of kind Blocked", err)
	}
}

func TestCompleteLargeUsesLocalSearch(t *testing.T) {
	n := 1000
	p := board.Partial{Queens: board.New(n)}
	p.Queens[0], p.Queens[500], p.Queens[999] = 0, 250, 998
	for c := range n {
		if c != 5 {
			p.Blocked = append(p.Blocked, board.Square{Row: 1, Col: c})
		}
	}
	sol, err := Complete(context.Background(), p, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := board.Verify(sol); err != nil {
		t.Fatal(err)
	}
	if sol[0] != 0 || sol[500] != 250 || sol[999] != 998 || sol[1] != 5 {
		t.Errorf("fixed queens or the only free square of row 2 not kept: %d %d %d %d", sol[0], sol[500], sol[999], sol[1])
	}
	var tooLarge *TooLargeError
	if _, err := Count(context.Background(), p, Options{}); !errors.As(err, &tooLarge) {
		t.Errorf("Count on n = %d gave %v, want TooLargeError", n, err)
	}
	// A row with every square blocked: the local search fails and says the
	// exact search stops at 64.
	for c := range n {
		p.Blocked = append(p.Blocked, board.Square{Row: 7, Col: c})
	}
	if _, err := Complete(context.Background(), p, Options{}); !errors.As(err, &tooLarge) || !tooLarge.LocalTried {
		t.Errorf("an impossible 1000×1000 board gave %v, want TooLargeError after local search", err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := board.Partial{Queens: board.New(40)}
	if _, err := Count(ctx, p, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Count on a cancelled context gave %v", err)
	}
	var last error
	for _, err := range All(ctx, p, Options{}) {
		last = err
	}
	if !errors.Is(last, context.Canceled) {
		t.Errorf("All on a cancelled context ended with %v", last)
	}
}

// The hard point of the excluded-diagonals family, n = 14..18, fixed seeds:
// every answer is checked, the "none" answers for n ≤ 12 against the slow
// search, and the family must mix solvable and unsolvable boards.
func TestHardInstances(t *testing.T) {
	ctx := context.Background()
	solvable, total := 0, 0
	for n := 10; n <= 18; n++ {
		for seed := range uint64(4) {
			p, err := ExcludedDiagonals(n, HardDiagonals(n), seed)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := Complete(ctx, p, Options{})
			total++
			switch {
			case err == nil:
				solvable++
				if err := board.Verify(sol); err != nil {
					t.Fatalf("n = %d seed %d: %v", n, seed, err)
				}
				if err := board.CheckBlocked(sol, p.Blocked); err != nil {
					t.Fatalf("n = %d seed %d: %v", n, seed, err)
				}
			case !errors.Is(err, ErrNoCompletion):
				t.Fatal(err)
			}
			if n <= 12 {
				want := len(slowCompletions(toProblem(p)))
				if k, _ := Count(ctx, p, Options{}); k != uint64(want) {
					t.Errorf("n = %d seed %d: Count %d, slow search %d", n, seed, k, want)
				}
			}
		}
	}
	if solvable < total/5 || solvable > total*4/5 {
		t.Errorf("%d of %d hard boards solvable: not near the hard point", solvable, total)
	}
}

func ExampleComplete() {
	// A queen in row 1, column 2 of a 4×4 board.
	p := board.Partial{Queens: board.FromOneBased(2, 0, 0, 0)}
	sol, err := Complete(context.Background(), p, Options{})
	fmt.Println(sol, err)
	_, err = Complete(context.Background(), board.Partial{Queens: board.FromOneBased(1, 0, 0, 0)}, Options{})
	fmt.Println(err)
	// Output:
	// 2 4 1 3 <nil>
	// no completion exists
}

func ExampleCount() {
	k, _ := Count(context.Background(), board.Partial{Queens: board.New(8)}, Options{})
	fmt.Println(k)
	// Output: 92
}

var sinkCount uint64

func BenchmarkCompleteHard(b *testing.B) {
	for _, n := range []int{18, 21} {
		var boards []board.Partial
		for seed := range uint64(5) {
			p, _ := ExcludedDiagonals(n, HardDiagonals(n), seed)
			boards = append(boards, p)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				for _, p := range boards {
					if _, err := Complete(context.Background(), p, Options{}); err == nil {
						sinkCount++
					}
				}
			}
		})
	}
}

// A board past MaxLocalN is refused before any search, with the limit.
func TestCompleteRefusesPastLocalLimit(t *testing.T) {
	p := board.Partial{Queens: board.New(MaxLocalN + 1)}
	_, err := Complete(context.Background(), p, Options{})
	var se *board.SizeError
	if !errors.As(err, &se) || se.Max != MaxLocalN || se.N != MaxLocalN+1 {
		t.Errorf("got %v, want a board.SizeError with the limit %d", err, MaxLocalN)
	}
	if CheckLocalN(MaxLocalN) != nil {
		t.Error("MaxLocalN itself is refused")
	}
}
