package variant

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestFind: Find gives a valid placement wherever Count finds some, and
// none (with the reason) wherever Count finds none, on every small
// variant; the reason names how.
func TestFind(t *testing.T) {
	var specs []Spec
	for n := 1; n <= 11; n++ {
		for _, torus := range []bool{false, true} {
			for _, p := range []Piece{Queen, Superqueen} {
				for _, k := range []int{0, 2, n - 1, n + 1} {
					if k >= 0 {
						specs = append(specs, Spec{Rows: n, Torus: torus, Piece: p, Queens: k})
					}
				}
			}
		}
	}
	for r := 1; r <= 6; r++ {
		for c := 1; c <= 9; c++ {
			for _, p := range []Piece{Queen, Superqueen} {
				specs = append(specs, Spec{Rows: r, Cols: c, Piece: p}, Spec{Rows: c, Cols: r, Piece: p, Queens: min(r, c)})
			}
		}
	}
	for _, s := range specs {
		r, err := Count(context.Background(), s, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		f, err := Find(context.Background(), s, FindOptions{Seed: 1})
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		switch {
		case f.Placement == nil && r.Total != (Uint128{}):
			t.Errorf("%v: none (%s), but Count finds %s", s, f.How, r.Total)
		case f.Placement != nil && r.Total == (Uint128{}):
			t.Errorf("%v: %v, but Count finds none", s, f.Placement)
		case f.Placement != nil && Verify(s, f.Placement) != nil:
			t.Errorf("%v: %v: %v", s, f.Placement, Verify(s, f.Placement))
		case f.How == "":
			t.Errorf("%v: no reason given", s)
		}
	}
}

// TestFindHow: the known cases are made as the doc says, the large ones
// too.
func TestFindHow(t *testing.T) {
	for _, tc := range []struct {
		s   Spec
		how string // in Found.How
	}{
		{Spec{Rows: 7, Torus: true}, "column = 2·row mod 7"},
		{Spec{Rows: 61, Torus: true}, "column = 2·row mod 61"},
		{Spec{Rows: 11, Torus: true, Piece: Superqueen}, "column = 3·row mod 11"},
		{Spec{Rows: 49, Piece: Superqueen}, "column = 3·row mod 49"},
		{Spec{Rows: 12, Torus: true}, "gcd(N, 6) = 1 (Pólya), and gcd(12, 6) = 6"},
		{Spec{Rows: 9, Torus: true, Piece: Superqueen}, "a superqueen is a queen too"},
		{Spec{Rows: 8}, "package solve"},
		{Spec{Rows: 40, Cols: 64}, "package solve (cases on N mod 6) on 40 × 40, in the top left corner"},
		{Spec{Rows: 30, Queens: 11, Piece: Superqueen}, "column = 3·row mod 11 on 11 × 11"},
		{Spec{Rows: 9, Queens: 10}, "cannot stand"},
		{Spec{Rows: 9, Piece: Superqueen}, "a search through every placement"},
		{Spec{Rows: 12, Piece: Superqueen}, "a search ("},
		{Spec{Rows: 64, Piece: Superqueen}, "a search ("},
		{Spec{Rows: 16, Torus: true, Queens: 14}, "a search ("},
	} {
		f, err := Find(context.Background(), tc.s, FindOptions{Seed: 1})
		if err != nil || !strings.Contains(f.How, tc.how) || (f.Placement != nil && Verify(tc.s, f.Placement) != nil) {
			t.Errorf("%v: %v, %q, %v; want %q", tc.s, f.Placement, f.How, err, tc.how)
		}
	}
}

// TestFindSeed: the same seed gives the same placement.
func TestFindSeed(t *testing.T) {
	s := Spec{Rows: 20, Piece: Superqueen}
	a, _ := Find(context.Background(), s, FindOptions{Seed: 3})
	b, _ := Find(context.Background(), s, FindOptions{Seed: 3})
	if a.Placement == nil || !a.Placement.Equal(b.Placement) {
		t.Errorf("seed 3 twice: %v, %v", a.Placement, b.Placement)
	}
}

// TestFindStops: a cancelled context and MaxNodes stop the search with
// their errors. 14 queens on a 15 × 15 torus are beyond the search.
func TestFindStops(t *testing.T) {
	s := Spec{Rows: 15, Torus: true, Queens: 14}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Find(ctx, s, FindOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	calls := 0
	_, err := Find(context.Background(), s, FindOptions{MaxNodes: 3 << 20, Progress: func(uint64, int) { calls++ }})
	if !errors.Is(err, ErrMaxNodes) || calls != 3 {
		t.Errorf("MaxNodes: %v, %d progress calls", err, calls)
	}
}

func ExampleFind() {
	f, err := Find(context.Background(), Spec{Rows: 7, Torus: true}, FindOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Placement, "by", f.How)
	f, _ = Find(context.Background(), Spec{Rows: 8, Torus: true}, FindOptions{})
	fmt.Println(f.Placement == nil, f.How)
	// Output:
	// 1 3 5 7 2 4 6 by the construction column = 2·row mod 7
	// true N queens fit on an N × N torus only when gcd(N, 6) = 1 (Pólya), and gcd(8, 6) = 2
}
