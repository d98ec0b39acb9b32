package board

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

func TestVerifyProblems(t *testing.T) {
	tests := []struct {
		name    string
		p       Placement
		partial bool
		kind    ProblemKind
		msg     string
	}{
		{"solution", FromOneBased(2, 4, 1, 3), false, 0, ""},
		{"one queen", FromOneBased(1), false, 0, ""},
		{"empty row", FromOneBased(2, 4, 0, 3), false, EmptyRow, "row 3 has no queen"},
		{"empty row allowed", FromOneBased(2, 4, 0, 3), true, 0, ""},
		{"out of range", FromOneBased(2, 5, 1, 3), false, OutOfRange, "row 2: column 5 is out of range 1..4"},
		{"negative", FromColumns(1, -7, 0, 2), true, OutOfRange, "row 2: column -6 is out of range 1..4"},
		{"same column", FromOneBased(2, 4, 2, 0), true, SameColumn, "queens at row 1, column 2 and row 3, column 2 attack each other on the same column"},
		{"diagonal", FromOneBased(1, 2, 0, 0), true, Diagonal, "queens at row 1, column 1 and row 2, column 2 attack each other on the same diagonal"},
		{"anti-diagonal", FromOneBased(3, 0, 1, 0), true, AntiDiagonal, "queens at row 1, column 3 and row 3, column 1 attack each other on the same anti-diagonal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := Verify
			if tt.partial {
				check = Check
			}
			err := check(tt.p)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			var p *Problem
			if !errors.As(err, &p) || p.Kind != tt.kind || err.Error() != tt.msg {
				t.Fatalf("got %v, want %s: %q", err, tt.kind, tt.msg)
			}
		})
	}
}

func TestCheckBlocked(t *testing.T) {
	q := FromOneBased(2, 4, 1, 3)
	if err := CheckBlocked(q, []Square{{0, 0}, {3, 3}}); err != nil {
		t.Errorf("free squares: %v", err)
	}
	err := CheckBlocked(q, []Square{{0, 0}, {1, 3}})
	var p *Problem
	if !errors.As(err, &p) || p.Kind != Blocked || err.Error() != "queen at row 2, column 4 stands on a blocked square" {
		t.Errorf("got %v", err)
	}
}

// TestVerifyAgainstBruteForce checks Verify on every placement of one queen
// a row for n ≤ 6 against the pairwise definition.
func TestVerifyAgainstBruteForce(t *testing.T) {
	for n := 1; n <= 6; n++ {
		p := make(Placement, n)
		total := 1
		for range n {
			total *= n
		}
		for k := range total {
			for r, v := 0, k; r < n; r, v = r+1, v/n {
				p[r] = int32(v % n)
			}
			ok := true
			for a := range n {
				for b := range a {
					ok = ok && !Attacks(Square{a, int(p[a])}, Square{b, int(p[b])})
				}
			}
			if got := Verify(p) == nil; got != ok {
				t.Fatalf("Verify(%v) ok = %v, want %v", p, got, ok)
			}
		}
	}
}

// TestProblemJSON pins the one JSON form of a problem and of its kind.
func TestProblemJSON(t *testing.T) {
	tests := []struct {
		p    Placement
		want string
	}{
		{FromOneBased(2, 4, 1, 4), `{"kind":"same column","row":4,"col":4,"row2":2,"col2":4}`},
		{FromOneBased(1, 2, 0, 0), `{"kind":"same diagonal","row":2,"col":2,"row2":1,"col2":1}`},
		{FromOneBased(1, 3, 2, 4), `{"kind":"same anti-diagonal","row":3,"col":2,"row2":2,"col2":3}`},
		{FromOneBased(2, 0, 1, 3), `{"kind":"empty row","row":2,"col":0}`},
		{FromOneBased(2, 9, 1, 3), `{"kind":"column out of range","row":2,"col":9}`},
	}
	for _, tt := range tests {
		var p *Problem
		if err := Verify(tt.p); !errors.As(err, &p) {
			t.Fatalf("%v: %v", tt.p, err)
		}
		got, err := json.Marshal(p)
		if err != nil || string(got) != tt.want {
			t.Errorf("%v: %s, %v; want %s", tt.p, got, err, tt.want)
		}
	}
	for k := OutOfRange; k <= Blocked; k++ {
		b, err := json.Marshal(k)
		var back ProblemKind
		if err != nil || json.Unmarshal(b, &back) != nil || back != k || string(b) != `"`+k.String()+`"` {
			t.Errorf("%v: %s, %v, back %v", k, b, err, back)
		}
	}
	var k ProblemKind
	if err := json.Unmarshal([]byte(`"diagonal"`), &k); err == nil {
		t.Error(`"diagonal" is not a kind's name, but was read as one`)
	}
	if _, err := json.Marshal(ProblemKind(0)); err == nil {
		t.Error("the zero kind has no name, but was written")
	}
}

// TestVerifyProgress: the rows checked are reported every 2^20 rows, in
// order, and the verdict is Verify's.
func TestVerifyProgress(t *testing.T) {
	const n = 3<<20 + 5
	var got []int
	sol := make(Placement, n)
	for r := range sol {
		sol[r] = int32(r) // the diagonal: every queen attacks the next
	}
	err := VerifyProgress(context.Background(), sol, func(rows int) { got = append(got, rows) })
	if err == nil || err.Error() != Verify(sol).Error() {
		t.Errorf("VerifyProgress: %v, Verify: %v", err, Verify(sol))
	}
	// n mod 6 = 5: the even columns, then the odd ones, is a solution.
	for r := range sol {
		if r < n/2 {
			sol[r] = int32(2*r + 1)
		} else {
			sol[r] = int32(2 * (r - n/2))
		}
	}
	got = nil
	if err := VerifyProgress(context.Background(), sol, func(rows int) { got = append(got, rows) }); err != nil || !slices.Equal(got, []int{1 << 20, 2 << 20, 3 << 20}) {
		t.Errorf("a solution of %d rows: %v, progress %v", n, err, got)
	}
}
