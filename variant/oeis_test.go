package variant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/oeis"
)

// TestOEIS counts every variant of the table of published terms within
// reach (less under -short) and compares it with the published terms, and
// checks that Spec.OEIS names the same sequence and Spec.Reference gives
// the same term.
func TestOEIS(t *testing.T) {
	short := testing.Short()
	limit := func(full, quick int) int {
		if short {
			return quick
		}
		return full
	}
	type check struct {
		what   string
		spec   func(i int) Spec
		max    int
		unique bool
	}
	checks := []check{
		{"torus", func(n int) Spec { return Spec{Rows: n, Torus: true} }, limit(17, 13), false},
		{"super", func(n int) Spec { return Spec{Rows: n, Piece: Superqueen} }, limit(15, 12), false},
		{"super-unique", func(n int) Spec { return Spec{Rows: n, Piece: Superqueen} }, limit(15, 12), true},
		{"torus2", func(n int) Spec { return Spec{Rows: n, Torus: true, Queens: 2} }, 12, false},
	}
	for k := 2; k <= 5; k++ {
		checks = append(checks, check{fmt.Sprintf("queens%d", k), func(n int) Spec { return Spec{Rows: n, Queens: k} }, limit(10, 8), false})
	}
	for r := 1; r <= 10; r++ {
		checks = append(checks, check{fmt.Sprintf("rect-%d", r), func(m int) Spec { return Spec{Rows: r, Cols: m} }, limit(10, 8), false})
	}
	for _, c := range checks {
		row, ok := oeis.Published(c.what)
		if !ok {
			t.Fatalf("oeis.tsv has no %s row", c.what)
		}
		for i, want := range row.Values {
			n := row.From + i
			if n > c.max {
				break
			}
			s := c.spec(n)
			total, unique := s.OEIS()
			// N pieces on N × N: the plain problem or the torus, named as such.
			diagonal := s.Normal().Queens == s.Rows && s.Square() && c.what != "torus" && !strings.HasPrefix(c.what, "super")
			if seq := map[bool]Sequence{false: total, true: unique}[c.unique]; seq.ID != row.ID && !diagonal {
				t.Errorf("%v: OEIS() names %q, the table %s", s, seq.ID, row.ID)
			}
			ref := s.Reference()
			switch {
			case ref == nil:
				t.Errorf("%v: no reference, the table has %s(%d) = %d", s, row.ID, n, want)
			case !c.unique && ref.Total != U(want), c.unique && (ref.Unique == nil || *ref.Unique != U(want)):
				t.Errorf("%v: reference %+v, the table has %s(%d) = %d", s, *ref, row.ID, n, want)
			}
			r, err := Count(context.Background(), s, Options{})
			if err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			got := r.Total
			if c.unique {
				got = r.Unique
			}
			if got != U(want) {
				t.Errorf("%v: %s, %s(%d) = %d", s, got, row.ID, n, want)
			}
		}
	}
}

// TestReference: the published count of a variant, from the embedded
// table (or package count's for the plain problem), nil where no sequence
// has the term.
func TestReference(t *testing.T) {
	u := func(v uint64) *Uint128 { x := U(v); return &x }
	for _, tc := range []struct {
		spec Spec
		want *Reference
	}{
		{Spec{Rows: 13, Torus: true}, &Reference{Total: U(4524)}},
		{Spec{Rows: 12, Piece: Superqueen}, &Reference{Total: U(156), Unique: u(22)}},
		{Spec{Rows: 8}, &Reference{Total: U(92), Unique: u(12)}},
		{Spec{Rows: 8, Queens: 3}, &Reference{Total: U(10320)}},
		{Spec{Rows: 5, Cols: 7}, &Reference{Total: U(164)}},
		{Spec{Rows: 7, Cols: 5, Queens: 5}, &Reference{Total: U(164)}}, // T(7, 5) the other way round
		{Spec{Rows: 30, Torus: true, Queens: 2}, nil},                  // past the published terms
		{Spec{Rows: 3, Queens: 5}, nil},                                // before A108792's offset
		{Spec{Rows: 6, Cols: 9, Queens: 4}, nil},                       // no sequence
		{Spec{Rows: 8, Torus: true, Piece: Superqueen}, nil},
	} {
		got := tc.spec.Reference()
		if (got == nil) != (tc.want == nil) || got != nil && (got.Total != tc.want.Total || (got.Unique == nil) != (tc.want.Unique == nil) ||
			got.Unique != nil && *got.Unique != *tc.want.Unique) {
			t.Errorf("%v: reference %+v, want %+v", tc.spec, got, tc.want)
		}
	}
}

// TestMismatch: a count that differs from its published term is an error
// naming the term, never a result; its JSON has the reference and a match
// flag, as the plain count's.
func TestMismatch(t *testing.T) {
	r, err := Count(context.Background(), Spec{Rows: 12, Piece: Superqueen}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Matches(); m == nil || !*m || r.checkPublished() != nil {
		t.Fatalf("a right count: matches %v, check %v", m, r.checkPublished())
	}
	line, _ := json.Marshal(r.JSON())
	if !strings.HasSuffix(string(line), `"units":1756,"reference":{"total":156,"unique":22},"matches":true}`) {
		t.Errorf("JSON %s: want the reference and matches after units", line)
	}
	r.Total = U(164)
	err = r.checkPublished()
	var me *MismatchError
	want := "12 superqueens on a 12 × 12 board: the total 164 does not match the published term 156 (OEIS A051223 a(12)); the result is wrong, and was not printed"
	if !errors.As(err, &me) || err.Error() != want {
		t.Errorf("a count 8 too high: %v, want %s", err, want)
	}
	r.Total, r.Unique = U(156), U(23)
	if err := r.checkPublished(); err == nil || !strings.Contains(err.Error(), "the unique count 23 does not match the published term 22 (OEIS A051224 a(12))") {
		t.Errorf("a unique count 1 too high: %v", err)
	}
	r.Spec = Spec{Rows: 30, Torus: true, Queens: 2}
	if m := r.Matches(); m != nil || r.checkPublished() != nil {
		t.Errorf("no published term: matches %v, check %v", m, r.checkPublished())
	}
	line, _ = json.Marshal(r.JSON())
	if !strings.Contains(string(line), `"reference":null,"matches":null`) {
		t.Errorf("JSON %s: want a null reference and match", line)
	}
}
