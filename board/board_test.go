package board

import (
	"slices"
	"testing"
)

// solutions lists every solution of the n×n board by the plainest search
// there is: one queen a row, each checked against all earlier ones. Tests
// use it as the slow, obviously correct reference.
func solutions(n int) []Placement {
	var out []Placement
	p := make(Placement, n)
	var place func(r int)
	place = func(r int) {
		if r == n {
			out = append(out, p.Clone())
			return
		}
		for c := range n {
			ok := true
			for r2 := range r {
				c2 := int(p[r2])
				if c2 == c || r-r2 == c-c2 || r-r2 == c2-c {
					ok = false
					break
				}
			}
			if ok {
				p[r] = int32(c)
				place(r + 1)
			}
		}
	}
	place(0)
	return out
}

func TestPlacement(t *testing.T) {
	p := FromOneBased(2, 4, 1, 3)
	if p.String() != "2 4 1 3" || p.N() != 4 || p.Col(0) != 1 || p.Queens() != 4 {
		t.Errorf("FromOneBased(2,4,1,3) = %v (n %d, col(0) %d, queens %d)", p, p.N(), p.Col(0), p.Queens())
	}
	if !p.Equal(FromColumns(1, 3, 0, 2)) || p.Equal(FromColumns(1, 3, 0)) || p.Equal(FromColumns(1, 3, 2, 0)) {
		t.Error("Equal disagrees with FromColumns")
	}
	if got := FromOneBased(2, 0, 1).OneBased(); !slices.Equal(got, []int32{2, 0, 1}) {
		t.Errorf("OneBased after FromOneBased(2, 0, 1) = %v", got)
	}
	q := p.Clone()
	q[0] = 0
	if p[0] != 1 {
		t.Error("Clone shares memory")
	}
	if !q.Less(p) || p.Less(q) || p.Less(p) || !FromColumns(1).Less(FromColumns(1, 0)) {
		t.Error("Less is not lexicographic")
	}
	e := New(3)
	if e.Queens() != 0 || e.String() != "0 0 0" {
		t.Errorf("New(3) = %v", e)
	}
	if got := Collect(p); !got.Equal(p) || &got[0] == &p[0] {
		t.Error("Collect of a Placement must copy it")
	}
	if got := (Square{Row: 2, Col: 0}).String(); got != "(row 3, col 1)" {
		t.Errorf("Square.String = %q", got)
	}
}
