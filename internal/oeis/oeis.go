// Package oeis holds the published terms of the OEIS sequences that the
// counts of package variant and the minima of package dominate are checked
// against: one table, oeis.tsv, embedded, which says where each term was
// read. The tests of both packages read the same table.
package oeis

import (
	"bufio"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// oeisTable holds the published terms the counts are checked against,
// with where each came from.
//
//go:embed oeis.tsv
var oeisTable string

// Terms are the published terms of an OEIS sequence: one row of the
// embedded table oeis.tsv.
type Terms struct {
	ID     string   // "A051906"
	What   string   // the row's name: "torus", "super-unique", "queens3", "rect-5", "dominate"
	From   int      // the index of Values[0]
	Values []uint64 // the terms from From on
	Source string   // where they were read
}

// Term returns the term of index i, and false outside those published.
func (t Terms) Term(i int) (uint64, bool) {
	if k := i - t.From; k >= 0 && k < len(t.Values) {
		return t.Values[k], true
	}
	return 0, false
}

var published = sync.OnceValue(func() map[string]Terms {
	rows, err := parseTerms(oeisTable)
	if err != nil {
		// The table is embedded and read by the tests; a damaged copy must
		// not pass for "no published term".
		panic("oeis: the embedded table of OEIS terms is unreadable: " + err.Error())
	}
	return rows
})

// Published returns the row named what of the table of published terms
// (see oeis.tsv for the names), and false when there is none. Cost O(1)
// after the first call.
func Published(what string) (Terms, bool) {
	t, ok := published()[what]
	return t, ok
}

// parseTerms reads the table: comment lines start with #; a row is five
// tab-separated columns, the ID, the row's name, the first index, the
// terms separated by commas and the source.
func parseTerms(text string) (map[string]Terms, error) {
	out := map[string]Terms{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 5 {
			return nil, fmt.Errorf("oeis.tsv:%d: %d columns, want 5", line, len(cols))
		}
		from, err := strconv.Atoi(cols[2])
		if err != nil {
			return nil, fmt.Errorf("oeis.tsv:%d: first index: %v", line, err)
		}
		row := Terms{ID: cols[0], What: cols[1], From: from, Source: cols[4]}
		for _, s := range strings.Split(cols[3], ",") {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("oeis.tsv:%d: %v", line, err)
			}
			row.Values = append(row.Values, v)
		}
		if row.Source == "" {
			return nil, fmt.Errorf("oeis.tsv:%d: no source", line)
		}
		if _, dup := out[row.What]; dup {
			return nil, fmt.Errorf("oeis.tsv:%d: a second %s row", line, row.What)
		}
		out[row.What] = row
	}
	return out, sc.Err()
}
