package solve

import (
	"strings"
	"testing"
)

// TestRuns checks that the staircases hold every queen of the pattern, in
// order, and that the plain rule's n have exactly two.
func TestRuns(t *testing.T) {
	for n := 4; n <= 200; n++ {
		p, err := Construct(n)
		if err != nil {
			t.Fatal(err)
		}
		runs := p.Runs()
		r := 0
		for _, run := range runs {
			for i := range run.Count {
				if run.Row+i != r || p.Col(r) != run.Col+2*i {
					t.Fatalf("n=%d: run %+v does not hold row %d, column %d", n, run, r+1, p.Col(r)+1)
				}
				r++
			}
		}
		if r != n || len(runs) > 7 || (n%6 != 2 && n%6 != 3 && len(runs) != 2) {
			t.Fatalf("n=%d: %d runs over %d rows", n, len(runs), r)
		}
		if rule := p.Rule(); !strings.Contains(rule, "mod 6") {
			t.Fatalf("n=%d: rule %q", n, rule)
		}
	}
}
