package board

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedCorpus adds the text golden files to a fuzz target's corpus.
func seedCorpus(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range paths {
		if strings.HasSuffix(p, ".png") || strings.HasSuffix(p, ".svg") || strings.HasSuffix(p, ".unicode") {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{"2 4 1 3", "[2,0,.,3]", ".Q.x\n....\n", `{"n":2,"queens":[1,0],"blocked":[[2,2]]}`, `[".Q","Q."]`, "0 1\n1 0", "# c\n\n1"} {
		f.Add(s)
	}
}

// FuzzParsePartial: no input panics, and whatever is accepted writes out
// and reads back as the same board in every readable format.
func FuzzParsePartial(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePartial(text, Auto)
		if err != nil {
			return
		}
		if len(p.Queens) > 200 {
			return // keep each round trip fast
		}
		for _, format := range InputFormats {
			var buf bytes.Buffer
			if err := WritePartial(&buf, p, format); err != nil {
				if len(p.Blocked) > 0 && (format == List || format == Grid) {
					continue
				}
				t.Fatalf("%q read as %v but not written as %s: %v", text, p.Queens, format, err)
			}
			q, err := ParsePartial(buf.String(), format)
			if err != nil || !q.Queens.Equal(p.Queens) || len(q.Blocked) != len(p.Blocked) {
				t.Fatalf("%q → %s %q → %v, %v", text, format, buf.String(), q.Queens, err)
			}
		}
	})
}

// FuzzParse: no input panics in any format, and a board that is accepted
// reads back the same from its list.
func FuzzParse(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, format := range append([]Format{Auto}, InputFormats...) {
			p, err := Parse(text, format)
			if err != nil {
				continue
			}
			if len(p) == 0 {
				t.Fatalf("%q as %s: an empty board without an error", text, format)
			}
			roundTrip(t, text, Partial{Queens: p})
		}
	})
}

// roundTrip writes b as a list (dots if it has blocked squares) and checks
// that it reads back the same.
func roundTrip(t *testing.T, text string, b Partial) {
	t.Helper()
	if len(b.Queens) > 1000 {
		return // keep each round trip fast
	}
	f := List
	if len(b.Blocked) > 0 {
		f = Dots
	}
	var buf bytes.Buffer
	if err := WritePartial(&buf, b, f); err != nil {
		t.Fatalf("%q read as %v but not written as %s: %v", text, b.Queens, f, err)
	}
	q, err := ParsePartial(buf.String(), Auto)
	if err != nil || !q.Queens.Equal(b.Queens) || !sameSquares(q.Blocked, b.Blocked) {
		t.Fatalf("%q read as %v %v, written as %q, read back as %v %v, %v", text, b.Queens, b.Blocked, buf.String(), q.Queens, q.Blocked, err)
	}
}

// sameSquares compares blocked squares as sets: dots shows each once, in
// row order.
func sameSquares(a, b []Square) bool { return maps.Equal(squareSet(a), squareSet(b)) }

func squareSet(s []Square) map[Square]bool {
	m := map[Square]bool{}
	for _, x := range s {
		m[x] = true
	}
	return m
}

// FuzzParseAll: a stream never panics, every record has a line number
// within the text, a malformed record has no board, and every board read
// reads back the same from its list.
func FuzzParseAll(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Count(text, "\n") + 1
		// A 16-byte buffer streams the long list lines a fuzzer makes.
		for _, bufSize := range []int{1 << 16, 16} {
			for _, format := range append([]Format{Auto}, InputFormats...) {
				checkStream(t, text, format, bufSize, lines)
			}
		}
	})
}

func checkStream(t *testing.T, text string, format Format, bufSize, lines int) {
	for rec := range parseAll(strings.NewReader(text), format, bufSize, 0) {
		if rec.Line < 1 || rec.Line > lines {
			t.Fatalf("record at line %d of %d", rec.Line, lines)
		}
		if rec.Err != nil && rec.Board.Queens != nil {
			t.Fatalf("malformed record with a board: %v", rec.Err)
		}
		if rec.Err == nil && len(rec.Board.Queens) == 0 {
			t.Fatalf("empty board without an error")
		}
		if rec.Err == nil {
			roundTrip(t, text, rec.Board)
		}
	}
}
