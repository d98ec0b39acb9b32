package oeis

import (
	"strings"
	"testing"
)

// TestParseTerms: the table's reader refuses a damaged row, naming the
// line.
func TestParseTerms(t *testing.T) {
	for text, want := range map[string]string{
		"A1\tx\t1\t1,2\n":                  "oeis.tsv:1: 4 columns, want 5",
		"# c\nA1\tx\tone\t1,2\tsrc\n":      "oeis.tsv:2: first index",
		"A1\tx\t1\t1,-2\tsrc\n":            "oeis.tsv:1: strconv.ParseUint",
		"A1\tx\t1\t1\t\n":                  "oeis.tsv:1: no source",
		"A1\tx\t1\t1\ts\nA2\tx\t1\t2\ts\n": "oeis.tsv:2: a second x row",
	} {
		if _, err := parseTerms(text); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %s…", text, err, want)
		}
	}
	rows, err := parseTerms(oeisTable)
	if err != nil || len(rows) < 20 {
		t.Fatalf("the embedded table: %d rows, %v", len(rows), err)
	}
	if v, ok := rows["torus"].Term(13); !ok || v != 4524 {
		t.Errorf("torus a(13) = %d, %v", v, ok)
	}
	if _, ok := rows["queens5"].Term(4); ok {
		t.Error("queens5 has a term before its first index")
	}
}
