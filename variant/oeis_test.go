package variant

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// sequenceRow is one line of testdata/oeis.tsv.
type sequenceRow struct {
	ID, What string
	From     int
	Terms    []uint64
	Source   string
}

// readSequences reads testdata/oeis.tsv; package dominate reads it too.
func readSequences(t testing.TB, path string) map[string]sequenceRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]sequenceRow{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 5 {
			t.Fatalf("%s:%d: %d columns, want 5", path, line, len(cols))
		}
		from, err := strconv.Atoi(cols[2])
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		row := sequenceRow{ID: cols[0], What: cols[1], From: from, Source: cols[4]}
		for _, s := range strings.Split(cols[3], ",") {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			row.Terms = append(row.Terms, v)
		}
		if row.Source == "" {
			t.Fatalf("%s:%d: no source", path, line)
		}
		out[row.What] = row
	}
	return out
}

// TestOEIS counts every variant of testdata/oeis.tsv within reach (less
// under -short) and compares it with the published terms, and checks that
// Spec.OEIS names the same sequence.
func TestOEIS(t *testing.T) {
	seqs := readSequences(t, "testdata/oeis.tsv")
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
		row, ok := seqs[c.what]
		if !ok {
			t.Fatalf("testdata/oeis.tsv has no %s row", c.what)
		}
		for i, want := range row.Terms {
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
