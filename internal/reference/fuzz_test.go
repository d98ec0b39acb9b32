package reference

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParse: no table panics the parser, and every row it accepts prints
// back as the same three fields.
func FuzzParse(f *testing.F) {
	f.Add(table)
	f.Add("# n total unique\n8\t92\t12\n")
	f.Add("8 92\n")
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := parse(strings.NewReader(text), "fuzz")
		if err != nil {
			return
		}
		for n, r := range rows {
			if r.N != n || r.Total == nil || r.Unique == nil {
				t.Fatalf("row %d = %+v", n, r)
			}
			again, err := parse(strings.NewReader(fmt.Sprintf("%d %s %s\n", r.N, r.Total, r.Unique)), "again")
			if err != nil || again[n].Total.Cmp(r.Total) != 0 || again[n].Unique.Cmp(r.Unique) != 0 {
				t.Fatalf("row %d does not round-trip: %v", n, err)
			}
		}
	})
}
