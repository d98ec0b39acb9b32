package solve

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/nqueens/nqueens/board"
)

func TestConstructEveryNUpTo2000(t *testing.T) {
	for n := 1; n <= 2000; n++ {
		p, err := Construct(n)
		if n == 2 || n == 3 {
			var e *NoSolutionError
			if !errors.As(err, &e) || e.N != n {
				t.Fatalf("n=%d: got %v, want NoSolutionError", n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if err := board.Verify(p); err != nil {
			t.Fatalf("n=%d (n mod 6 = %d): %v", n, n%6, err)
		}
	}
}

// Huge boards are verified straight from the pattern, never stored.
func TestConstructHuge(t *testing.T) {
	sizes := []int{1_000_000, 10_000_000}
	if os.Getenv("NQUEENS_LONG") != "" {
		sizes = append(sizes, 1_000_000_000)
	}
	for _, n := range sizes {
		for _, m := range []int{n, n + 1, n + 2, n + 3, n + 4, n + 5} { // every n mod 6
			p, err := Construct(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := board.Verify(p); err != nil {
				t.Fatalf("n=%d: %v", m, err)
			}
		}
	}
}

func TestConstructBadN(t *testing.T) {
	for _, n := range []int{0, -5, board.MaxN + 1} {
		if _, err := Construct(n); err == nil {
			t.Errorf("Construct(%d) accepted", n)
		}
	}
}

func TestPlacementMatchesPattern(t *testing.T) {
	p, _ := Construct(10)
	q := p.Placement()
	for r := range 10 {
		if q.Col(r) != p.Col(r) {
			t.Fatalf("row %d: %d vs %d", r, q.Col(r), p.Col(r))
		}
	}
}

func ExampleConstruct() {
	for _, n := range []int{4, 8, 9} {
		p, _ := Construct(n)
		fmt.Println(n, p.Placement())
	}
	_, err := Construct(3)
	fmt.Println(err)
	// Output:
	// 4 2 4 1 3
	// 8 2 4 6 8 3 1 7 5
	// 9 4 6 8 2 5 7 9 1 3
	// there is no solution for n = 3: every placement of 3 queens has two on one line (only n = 1 and n ≥ 4 are solvable)
}

// TestConstructHalf: the article's construction is a solution for every n
// it takes, prints the article's board for n = 8, and equals Construct
// where n mod 6 is neither 2 nor 3.
func TestConstructHalf(t *testing.T) {
	for n := 1; n <= 2000; n++ {
		got, err := ConstructHalf(n)
		if n == 2 || n == 3 {
			var e *NoSolutionError
			if !errors.As(err, &e) {
				t.Fatalf("n=%d: got %v, want NoSolutionError", n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if err := board.Verify(got); err != nil {
			t.Fatalf("n=%d (n mod 6 = %d): %v: %v", n, n%6, got, err)
		}
		p, _ := Construct(n)
		if same := got.Equal(p.Placement()); same != (n%6 != 2 && n%6 != 3) || same != p.SameAsHalf() {
			t.Fatalf("n=%d (n mod 6 = %d): the same board as Construct: %v", n, n%6, same)
		}
	}
	got, _ := ConstructHalf(8)
	if s := fmt.Sprint(got.OneBased()); s != "[4 6 8 2 7 1 3 5]" {
		t.Fatalf("n=8: %s, the article prints 4 6 8 2 7 1 3 5", s)
	}
}
