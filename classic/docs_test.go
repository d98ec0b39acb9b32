package classic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testkit"
)

const (
	docPath    = "../docs/algorithms.md"
	tableBegin = "<!-- begin counters n=8 -->\n"
	tableEnd   = "<!-- end counters -->"
)

// long reports whether the slow checks are asked for (NQUEENS_LONG=1).
func long() bool { return os.Getenv("NQUEENS_LONG") == "1" }

// countersTable is the doc's table of counters for n, measured by running
// each strategy, except brute-combinations for n = 8 (about a
// minute), whose row comes from its closed form and the reference count
// unless NQUEENS_LONG=1.
func countersTable(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("| strategy | nodes | tries | reads | placed | rejected | backtracks | solutions |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, s := range All() {
		var c Counters
		if e, ok := s.(Estimator); ok && s.Name() == "brute-combinations" && n == 8 && !long() {
			k := e.Candidates(n).Uint64()
			sol := total(t, n)
			c = Counters{Nodes: k, Tries: k, Reads: bruteCombinationsReads8, Rejected: k - sol, Solutions: sol}
		} else {
			var err error
			if c, err = s.Solve(context.Background(), n, nil); err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
		}
		reads := Group(c.Reads)
		if _, classic := s.(teacher); !classic {
			reads = "-"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", s.Name(), Group(c.Nodes), Group(c.Tries),
			reads, Group(c.Placed), Group(c.Rejected), Group(c.Backtracks), Group(c.Solutions))
	}
	return b.String()
}

// bruteCombinationsReads8 is what brute-combinations reads for n = 8,
// measured once with NQUEENS_LONG=1 (TestDocTable checks it then).
const bruteCombinationsReads8 = 14502246986

// TestDocTable keeps the table of docs/algorithms.md equal to what the
// program measures.
func TestDocTable(t *testing.T) {
	data, err := os.ReadFile(filepath.FromSlash(docPath))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, tableBegin), strings.Index(doc, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q … %q markers", docPath, tableBegin, tableEnd)
	}
	want := countersTable(t, 8)
	got := doc[i+len(tableBegin) : j]
	if got == want {
		return
	}
	if testkit.Update() {
		doc = doc[:i+len(tableBegin)] + want + doc[j:]
		if err := os.WriteFile(filepath.FromSlash(docPath), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the table in %s is out of date (go test ./classic -update rewrites it); want\n%s", docPath, want)
}
