package board

import (
	"bytes"
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

// FuzzParseAll: a stream never panics, every record has a line number
// within the text, and a malformed record has no board.
func FuzzParseAll(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Count(text, "\n") + 1
		for _, format := range append([]Format{Auto}, InputFormats...) {
			for rec := range ParseAll(strings.NewReader(text), format) {
				if rec.Line < 1 || rec.Line > lines {
					t.Fatalf("record at line %d of %d", rec.Line, lines)
				}
				if rec.Err != nil && rec.Board.Queens != nil {
					t.Fatalf("malformed record with a board: %v", rec.Err)
				}
				if rec.Err == nil && len(rec.Board.Queens) == 0 {
					t.Fatalf("empty board without an error")
				}
			}
		}
	})
}
