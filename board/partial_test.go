package board

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestPartialVerifyAndCheck(t *testing.T) {
	q := FromOneBased // 1-based columns, 0 for an empty row
	cases := []struct {
		name  string
		p     Partial
		full  string // error of Verify, substring; "" for nil
		check string // error of Check
		kind  ProblemKind
	}{
		{"solution", Partial{Queens: q(2, 4, 1, 3)}, "", "", 0},
		{"solution, blocked elsewhere", Partial{Queens: q(2, 4, 1, 3), Blocked: []Square{{0, 0}}}, "", "", 0},
		{"empty row", Partial{Queens: q(2, 0, 1, 3)}, "row 2 has no queen", "", 0},
		{"no rows", Partial{}, "no rows", "no rows", 0},
		{"attack", Partial{Queens: q(1, 2, 0, 0)}, "same diagonal", "same diagonal", Diagonal},
		{"queen on blocked", Partial{Queens: q(2, 0, 0, 0), Blocked: []Square{{0, 1}}}, "row 2 has no queen", "stands on a blocked square", Blocked},
		{"full, queen on blocked", Partial{Queens: q(2, 4, 1, 3), Blocked: []Square{{2, 0}}}, "row 3, column 1 stands on a blocked square", "row 3, column 1 stands", Blocked},
		{"blocked off the board", Partial{Queens: q(2, 4, 1, 3), Blocked: []Square{{0, 0}, {4, 0}}}, "blocked square 2, (row 5, col 1), is off the 4×4 board", "off the 4×4 board", 0},
		{"blocked at a negative column", Partial{Queens: q(0, 0, 0, 0), Blocked: []Square{{0, -1}}}, "off the 4×4 board", "off the 4×4 board", 0},
		// An attack is found before a blocked square.
		{"attack and blocked", Partial{Queens: q(1, 1, 0, 0), Blocked: []Square{{0, 0}}}, "same column", "same column", SameColumn},
	}
	for _, c := range cases {
		for _, mode := range []struct {
			name string
			f    func(Partial) error
			want string
		}{{"Verify", Partial.Verify, c.full}, {"Check", Partial.Check, c.check}} {
			err := mode.f(c.p)
			if (err == nil) != (mode.want == "") || (err != nil && !strings.Contains(err.Error(), mode.want)) {
				t.Errorf("%s: %s = %v, want %q", c.name, mode.name, err, mode.want)
				continue
			}
			var p *Problem
			if mode.name == "Check" && c.kind != 0 && (!errors.As(err, &p) || p.Kind != c.kind) {
				t.Errorf("%s: Check = %v, want a Problem of kind %v", c.name, err, c.kind)
			}
		}
	}
}

func TestVerifyCompletion(t *testing.T) {
	p := Partial{Queens: FromOneBased(2, 0, 0, 0), Blocked: []Square{{3, 1}}}
	for _, c := range []struct {
		sol  Placement
		want string
	}{
		{FromOneBased(2, 4, 1, 3), ""},
		{FromOneBased(3, 1, 4, 2), "the queen placed in column 2 moved to column 3"},
		{FromOneBased(2, 4, 1, 0), "row 4 has no queen"},
		{FromOneBased(2, 4, 1, 3, 5), "5 rows, the board 4"},
		{FromOneBased(2, 4, 3, 1), "attack each other"},
	} {
		err := VerifyCompletion(c.sol, p)
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("VerifyCompletion(%v) = %v, want %q", c.sol, err, c.want)
		}
	}
	// The blocked square (row 4, column 2) forbids 3 1 4 2's last queen.
	q := Partial{Queens: New(4), Blocked: []Square{{3, 1}}}
	if err := VerifyCompletion(FromOneBased(3, 1, 4, 2), q); err == nil || !strings.Contains(err.Error(), "blocked") {
		t.Errorf("a completion on a blocked square passed: %v", err)
	}
}

func ExamplePartial_Check() {
	p := Partial{Queens: FromOneBased(2, 0, 0, 0), Blocked: []Square{{Row: 0, Col: 1}}}
	fmt.Println(p.Check())
	p.Blocked[0].Col = 4
	fmt.Println(p.Check())
	// Output:
	// queen at row 1, column 2 stands on a blocked square
	// blocked square 1, (row 1, col 5), is off the 4×4 board (rows and columns are 1..4)
}
