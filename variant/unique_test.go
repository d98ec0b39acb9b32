package variant

import (
	"context"
	"fmt"
	"testing"
)

// TestUnique holds Unique against Count: as many classes as Count's
// unique, of sizes adding up to its total, each placement valid, and every
// placement of Solutions in exactly one listed class's orbit.
func TestUnique(t *testing.T) {
	for _, s := range []Spec{
		{Rows: 10, Piece: Superqueen}, {Rows: 7, Torus: true}, {Rows: 5, Torus: true, Piece: Superqueen, Queens: 3},
		{Rows: 6, Cols: 9, Queens: 4}, {Rows: 8, Cols: 5, Queens: 5}, {Rows: 4, Cols: 7}, {Rows: 7, Cols: 3},
		{Rows: 6}, {Rows: 5, Queens: 2}, {Rows: 1, Cols: 4},
	} {
		t.Run(s.String(), func(t *testing.T) {
			r, err := Count(context.Background(), s, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			owner := map[string]string{} // placement → its class's first
			classes, sum := 0, 0
			for c, err := range Unique(context.Background(), s) {
				if err != nil {
					t.Fatal(err)
				}
				if err := Verify(s, c.Placement); err != nil {
					t.Fatalf("%v: %v", c.Placement, err)
				}
				orbit, err := Orbit(s, c.Placement)
				if err != nil || len(orbit) != c.Size {
					t.Fatalf("%v: orbit %v, %v; size %d", c.Placement, orbit, err, c.Size)
				}
				for _, q := range orbit {
					if o, ok := owner[q.String()]; ok {
						t.Fatalf("%v is in the classes of %s and %v", q, o, c.Placement)
					}
					owner[q.String()] = c.Placement.String()
				}
				classes++
				sum += c.Size
			}
			if U(uint64(classes)) != r.Unique || U(uint64(sum)) != r.Total {
				t.Errorf("Unique gives %d classes of %d placements; Count %s and %s", classes, sum, r.Unique, r.Total)
			}
			for p := range Solutions(context.Background(), s) {
				if _, ok := owner[p.String()]; !ok {
					t.Errorf("%v is in no class", p)
				}
			}
		})
	}
}

func ExampleUnique() {
	for c, err := range Unique(context.Background(), Spec{Rows: 3, Cols: 5}) {
		if err != nil {
			panic(err)
		}
		fmt.Println(c.Placement, c.Size)
	}
	// Output:
	// 1 3 5 2
	// 1 4 2 4
	// 1 5 2 4
	// 2 5 3 4
}
