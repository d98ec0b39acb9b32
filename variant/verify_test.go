package variant

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nqueens/nqueens/board"
)

// TestSolutions checks that Solutions gives Count's total, every placement
// valid by Verify and none twice, on boards of every shape.
func TestSolutions(t *testing.T) {
	specs := []Spec{
		{Rows: 10, Piece: Superqueen}, {Rows: 7, Torus: true}, {Rows: 7, Torus: true, Piece: Superqueen, Queens: 3},
		{Rows: 6, Cols: 9, Queens: 4}, {Rows: 8, Cols: 5, Queens: 5}, {Rows: 6, Queens: 3, Piece: Superqueen}, {Rows: 8},
	}
	for _, s := range specs {
		t.Run(s.String(), func(t *testing.T) {
			r, err := Count(context.Background(), s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for p, err := range Solutions(context.Background(), s) {
				if err != nil {
					t.Fatal(err)
				}
				if err := Verify(s, p); err != nil {
					t.Fatalf("%v: %v", p, err)
				}
				if seen[p.String()] {
					t.Fatalf("%v twice", p)
				}
				seen[p.String()] = true
			}
			if U(uint64(len(seen))) != r.Total {
				t.Errorf("Solutions gives %d, Count %s", len(seen), r.Total)
			}
		})
	}
}

// TestVerify holds Verify's verdict against the brute-force rule on every
// pair of squares of small boards, and checks the kinds it names.
func TestVerify(t *testing.T) {
	for _, s := range []Spec{{Rows: 5, Torus: true, Piece: Superqueen}, {Rows: 4, Cols: 6, Piece: Superqueen}, {Rows: 5, Torus: true}, {Rows: 6}} {
		s = s.Normal()
		s.Queens = 2
		for r1 := range s.Rows {
			for r2 := r1 + 1; r2 < s.Rows; r2++ {
				for c1 := range s.Cols {
					for c2 := range s.Cols {
						p := board.New(s.Rows)
						p[r1], p[r2] = int32(c1), int32(c2)
						err := Verify(s, p)
						if want := bruteAttacks(s, r1, c1, r2, c2); want != (err != nil) {
							t.Errorf("%v: %v: Verify says %v, brute force %v", s, p, err, want)
						}
					}
				}
			}
		}
	}
	cases := []struct {
		s    Spec
		p    board.Placement
		kind board.ProblemKind
	}{
		{Spec{Rows: 5, Torus: true}, board.FromOneBased(1, 3, 5, 2, 4), 0},
		{Spec{Rows: 7}, board.FromOneBased(1, 3, 5, 7, 2, 4, 6), 0},
		{Spec{Rows: 4}, board.FromOneBased(2, 4, 1, 3), 0},
		{Spec{Rows: 4, Piece: Superqueen}, board.FromOneBased(2, 4, 1, 3), board.KnightMove},
		{Spec{Rows: 4, Cols: 6, Queens: 2}, board.FromOneBased(1, 0, 0, 6), 0},
		{Spec{Rows: 4, Cols: 6, Queens: 2}, board.FromOneBased(1, 0, 0, 7), board.OutOfRange},
		{Spec{Rows: 4}, board.FromOneBased(2, 4, 1, 0), board.EmptyRow},
	}
	for _, c := range cases {
		err := Verify(c.s, c.p)
		var pr *board.Problem
		switch {
		case c.kind == 0 && err != nil:
			t.Errorf("%v %v: %v", c.s, c.p, err)
		case c.kind != 0 && (!errors.As(err, &pr) || pr.Kind != c.kind):
			t.Errorf("%v %v: %v, want %v", c.s, c.p, err, c.kind)
		}
	}
	// The 40 solutions of 7 × 7 less the 28 of the torus fail on a
	// diagonal that wraps round the edge.
	wrapped := 0
	for p := range Solutions(context.Background(), Spec{Rows: 7}) {
		var pr *board.Problem
		if err := Verify(Spec{Rows: 7, Torus: true}, p); errors.As(err, &pr) && (pr.Kind == board.Diagonal || pr.Kind == board.AntiDiagonal) {
			wrapped++
		} else if err != nil {
			t.Errorf("%v: %v", p, err)
		}
	}
	if wrapped != 40-28 {
		t.Errorf("%d solutions of 7 × 7 fail on the torus, want 12", wrapped)
	}
	if err := Verify(Spec{Rows: 4, Queens: 2}, board.FromOneBased(2, 4, 1, 0)); err == nil {
		t.Error("3 pieces pass for 2")
	}
	if err := Verify(Spec{Rows: 4, Cols: 0}, board.FromOneBased(2, 4, 1)); err == nil {
		t.Error("3 rows pass for 4")
	}
}

// TestSpecErrors checks the refusals and the zero with a sentence.
func TestSpecErrors(t *testing.T) {
	for _, s := range []Spec{{Rows: 0}, {Rows: 65}, {Rows: 4, Cols: -1}, {Rows: 4, Cols: 65}, {Rows: 4, Queens: -2}, {Rows: 4, Cols: 5, Torus: true}, {Rows: 4, Piece: 7}} {
		if _, err := Count(context.Background(), s, Options{}); !errors.Is(err, ErrSpec) {
			t.Errorf("%+v: %v, want ErrSpec", s, err)
		}
	}
	r, err := Count(context.Background(), Spec{Rows: 8, Queens: 9}, Options{})
	if err != nil || r.Total != U(0) || r.Note == "" {
		t.Errorf("9 queens on 8 × 8: %v, %+v", err, r)
	}
}

// TestCountStops checks that a count ends with the context's error.
func TestCountStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Count(ctx, Spec{Rows: 13, Torus: true}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

// TestNoneFitTorus: N queens or superqueens on an N × N torus with gcd(N,
// 6) ≠ 1 are counted 0 by Pólya's rule, without a search: even with a
// context that has ended (count 20 --torus searched for 14.7 s to print
// 0). The rule agrees with the search where the search is short.
func TestNoneFitTorus(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	for _, piece := range []Piece{Queen, Superqueen} {
		for n := 2; n <= 24; n++ {
			s := Spec{Rows: n, Torus: true, Piece: piece}
			r, err := Count(ended, s, Options{})
			if gcd(n, 6) == 1 {
				if s.NoneFit() != "" {
					t.Errorf("%v: NoneFit %q, but gcd(%d, 6) = 1", s, s.NoneFit(), n)
				}
				continue
			}
			if err != nil || r.Total != U(0) || !strings.Contains(r.Note, "Pólya") {
				t.Errorf("%v: %v, total %v, note %q; want 0 by Pólya's rule", s, err, r.Total, r.Note)
			}
			if e, err := EstimateTree(ended, s, 100, 1); err != nil || e.Nodes != 0 {
				t.Errorf("%v: estimate %+v, %v; want none", s, e, err)
			}
			if n <= 10 { // the search, without the rule, finds none too
				g, total := newGeom(s.Normal()), uint64(0)
				for i := range unitsOf(s.Normal()) {
					u, ok, err := countUnit(s.Normal(), &g, i, new(atomic.Bool))
					if err != nil || !ok {
						t.Fatalf("%v: unit %d: %v", s, i, err)
					}
					total += u.Total
				}
				if total != 0 {
					t.Errorf("%v: the search finds %d placements, the rule none", s, total)
				}
			}
		}
	}
}

// TestEstimate checks that Knuth's probes are near the exact count.
func TestEstimate(t *testing.T) {
	for _, s := range []Spec{{Rows: 12, Piece: Superqueen}, {Rows: 9, Queens: 4}, {Rows: 13, Torus: true}} {
		e, err := EstimateTree(context.Background(), s, 20000, 1)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Count(context.Background(), s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := e.Total - r.Total.Float64(); d*d > 25*e.TotalErr*e.TotalErr+1 {
			t.Errorf("%v: estimate %.4g ± %.2g, exact %s", s, e.Total, e.TotalErr, r.Total)
		}
	}
}

func ExampleCount() {
	r, err := Count(context.Background(), Spec{Rows: 10, Piece: Superqueen}, Options{})
	if err != nil {
		panic(err)
	}
	total, unique := r.Spec.OEIS()
	fmt.Println(r.Spec, r.Total, total.ID, r.Unique, unique.ID)
	// Output: 10 superqueens on a 10 × 10 board 4 A051223 1 A051224
}

func ExampleSolutions() {
	for p, err := range Solutions(context.Background(), Spec{Rows: 5, Torus: true}) {
		if err != nil {
			panic(err)
		}
		if p[0] == 0 {
			fmt.Println(p)
		}
	}
	// Output:
	// 1 3 5 2 4
	// 1 4 2 5 3
}

// TestCheckBoard checks boards of the command line and the API by a
// variant's rules: whole and partial, wrapped diagonals, knight moves,
// blocked squares.
func TestCheckBoard(t *testing.T) {
	const e = board.Empty
	for _, tc := range []struct {
		name    string
		p       board.Partial
		torus   bool
		piece   Piece
		full    bool
		problem board.ProblemKind // 0 for none
	}{
		{"a torus solution", board.Partial{Queens: board.Placement{0, 2, 4, 1, 3}}, true, Queen, true, 0},
		{"a wrapped diagonal", board.Partial{Queens: board.Placement{4, 0, e, e, e}}, true, Queen, false, board.Diagonal},
		{"no wrap on the plain board", board.Partial{Queens: board.Placement{4, 0, e, e, e}}, false, Queen, false, 0},
		{"a knight's move", board.Partial{Queens: board.Placement{0, 2, e, e, e, e, e, e}}, false, Superqueen, false, board.KnightMove},
		{"a queen's board is no superqueen's", board.Partial{Queens: board.Placement{0, 2, e, e, e, e, e, e}}, false, Queen, false, 0},
		{"a knight's move round the edge", board.Partial{Queens: board.Placement{0, e, e, e, e, e, e, 2}}, true, Superqueen, false, board.KnightMove},
		{"an empty row", board.Partial{Queens: board.Placement{0, 2, e, e, e}}, true, Queen, true, board.EmptyRow},
		{"a blocked square", board.Partial{Queens: board.Placement{0, e, e, e, e}, Blocked: []board.Square{{Row: 0, Col: 0}}}, true, Queen, false, board.Blocked},
		// An empty partial board breaks no rule, as on the plain board (it
		// was checked as a full one: "row 1 has no queen").
		{"an empty partial torus", board.Partial{Queens: board.Placement{e, e, e, e, e}}, true, Queen, false, 0},
	} {
		err := CheckBoard(tc.p, tc.torus, tc.piece, tc.full)
		var p *board.Problem
		switch {
		case tc.problem == 0 && err != nil:
			t.Errorf("%s: %v, want none", tc.name, err)
		case tc.problem != 0 && (!errors.As(err, &p) || p.Kind != tc.problem):
			t.Errorf("%s: %v, want a problem of kind %v", tc.name, err, tc.problem)
		}
	}
}

// TestSolutionsStopsWithoutSolutions: a listing that finds no placement
// for a long while still ends with the context's error. 11 queens on a
// 12 × 12 torus have no placement, which takes millions of nodes to see;
// the cancelled search must say so rather than end as if the tree had
// been searched through.
func TestSolutionsStopsWithoutSolutions(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var last error
	n := 0
	for _, err := range Solutions(ctx, Spec{Rows: 12, Torus: true, Queens: 11}) {
		last = err
		n++
	}
	if n != 1 || !errors.Is(last, context.Canceled) {
		t.Errorf("%d pairs, last error %v; want one pair with context.Canceled", n, last)
	}
}

// TestCheck checks boards by the rules a Spec names, the board's size
// its own: the number of pieces, exact or at most, and boards of N rows
// × M columns.
func TestCheck(t *testing.T) {
	const e = board.Empty
	rect := func(cols int, q ...int32) board.Partial { return board.Partial{Queens: q, Cols: cols} }
	for _, tc := range []struct {
		name    string
		p       board.Partial
		s       Spec
		partial bool
		want    string // "" for none; else in the error
	}{
		{"3 queens of 3", board.Partial{Queens: board.Placement{0, e, 4, e, 1}}, Spec{Queens: 3}, false, ""},
		{"2 queens for 3", board.Partial{Queens: board.Placement{0, e, 4, e, e}}, Spec{Queens: 3}, false, "2 pieces, not 3"},
		{"2 queens of at most 3", board.Partial{Queens: board.Placement{0, e, 4, e, e}}, Spec{Queens: 3}, true, ""},
		{"4 queens of at most 3", board.Partial{Queens: board.Placement{0, e, 2, 4, 1}}, Spec{Queens: 3}, true, "4 pieces, more than 3"},
		{"an empty partial torus", board.Partial{Queens: board.Placement{e, e, e, e}}, Spec{Torus: true}, true, ""},
		{"an empty full torus", board.Partial{Queens: board.Placement{e, e, e, e}}, Spec{Torus: true}, false, "row 1 has no queen"},
		{"3 rows × 5 columns", rect(5, 0, 2, 4), Spec{}, false, ""},
		{"a column past 5", rect(5, 0, 2, 5), Spec{}, false, "out of range 1..5"},
		{"4 on 6 × 9", rect(9, 0, e, 3, 8, e, 7), Spec{Queens: 4}, false, ""},
		{"a knight's move on 3 × 5", rect(5, 0, 2, e), Spec{Piece: Superqueen}, true, "knight's move"},
		{"a torus must be square", rect(5, 0, 2, 4), Spec{Torus: true}, false, "square"},
		{"past 64 rows", board.Partial{Queens: board.New(65)}, Spec{Torus: true}, true, "65 rows is out of range"},
	} {
		err := Check(tc.p, tc.s, tc.partial)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want none", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
