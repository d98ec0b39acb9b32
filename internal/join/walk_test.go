package join

import (
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testkit"
)

// The walk: the join of half boards on a board small enough to draw, made
// from the join's own layout, tables, halves and matcher, and checked
// against plain code on the way (every quarter and half placement decoded
// back to its squares, the mirrored right half's pattern against its
// squares, every key's count against the pairs compared one by one, the
// total against backtracking). docs/engine.md shows the same text between
// walkBegin and walkEnd; TestWalkDoc keeps the two equal.

const walkDoc = "../../docs/engine.md"

// walkSizes are the boards drawn: N = 6 in full, N = 7 for its separator.
var walkSizes = []int{6, 7}

func walkGolden(n int) string { return fmt.Sprintf("testdata/walk%d.txt", n) }

// walkMarkers are the lines around the copy of walkGolden(n) in the doc.
func walkMarkers(n int) (begin, end string) {
	return fmt.Sprintf("<!-- walk%d: internal/join/%s, written by go test ./internal/join -run TestWalk -update -->\n```text\n", n, walkGolden(n)),
		fmt.Sprintf("```\n<!-- walk%d end -->", n)
}

// TestWalk draws the join of N = 6 and 7 into testdata/walk6.txt and
// walk7.txt.
func TestWalk(t *testing.T) {
	for _, n := range walkSizes {
		testkit.Golden(t, walkGolden(n), []byte(walk(t, n)))
	}
}

// TestWalkDoc checks that docs/engine.md shows testdata/walk6.txt and
// walk7.txt as they are (with -update it copies them there).
func TestWalkDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.FromSlash(walkDoc))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, n := range walkSizes {
		want := walk(t, n)
		begin, end := walkMarkers(n)
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("%s: no %q … %q markers", walkDoc, begin, end)
		}
		if doc[i+len(begin):j] == want {
			continue
		}
		if !testkit.Update() {
			t.Errorf("the walk of N = %d in %s differs from %s (go test ./internal/join -run TestWalk -update rewrites both)", n, walkDoc, walkGolden(n))
			continue
		}
		doc = doc[:i+len(begin)] + want + doc[j:]
		if err := os.WriteFile(filepath.FromSlash(walkDoc), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// walkPlacement is a placement of queens: the column of the queen of each
// row, −1 for none.
type walkPlacement []int

// walkBoard draws queens, and marks squares, on an n×n board: one line a
// row, the halves and the separator set apart by bars.
func walkBoard(l *Layout, queens walkPlacement, mark func(r, c int) bool) []string {
	var out []string
	for r := range l.N {
		var b strings.Builder
		for c := range l.N {
			if c == l.CL || (l.S > 0 && c == l.CL+l.S) {
				b.WriteString("| ")
			}
			switch {
			case queens[r] == c:
				b.WriteString("Q ")
			case mark != nil && mark(r, c):
				b.WriteString("* ")
			default:
				b.WriteString(". ")
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

// sideBySide writes blocks of lines next to each other, each under its
// caption, gap spaces apart.
func sideBySide(w *strings.Builder, captions []string, blocks [][]string) {
	width := make([]int, len(blocks))
	rows := 0
	for i, bl := range blocks {
		width[i] = len([]rune(captions[i]))
		for _, s := range bl {
			width[i] = max(width[i], len([]rune(s)))
		}
		rows = max(rows, len(bl))
	}
	line := func(cell func(i int) string) {
		var b strings.Builder
		for i := range blocks {
			s := cell(i)
			b.WriteString(s)
			if i < len(blocks)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(s))+3))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(func(i int) string { return captions[i] })
	for r := range rows {
		line(func(i int) string {
			if r < len(blocks[i]) {
				return blocks[i][r]
			}
			return ""
		})
	}
}

// inRows writes blocks side by side, per at most a line.
func inRows(w *strings.Builder, captions []string, blocks [][]string, per int) {
	for i := 0; i < len(blocks); i += per {
		j := min(i+per, len(blocks))
		sideBySide(w, captions[i:j], blocks[i:j])
		if j < len(blocks) {
			fmt.Fprintln(w)
		}
	}
}

// rowSet writes a set of rows as {0,2,5}.
func rowSet(e uint32) string {
	var s []string
	for x := e; x != 0; x &= x - 1 {
		s = append(s, fmt.Sprint(bits.TrailingZeros32(x)))
	}
	return "{" + strings.Join(s, ",") + "}"
}

// patternBits writes a pattern of the layout as its two families of
// diagonals, bit 0 first: d the diagonals c − r = 1−CL … CL−1, a the
// anti-diagonals c + r = CL+S … CL+N−2 (see [Layout.contrib]).
func patternBits(l *Layout, x uint64) string {
	var b strings.Builder
	b.WriteString("d ")
	for i := range l.M {
		if i == 2*l.CL-1 {
			b.WriteString(" a ")
		}
		b.WriteByte(byte('0' + x>>i&1))
	}
	return b.String()
}

// onPattern reports whether square (r, c) lies on a diagonal of the
// pattern x (in the left half's numbering).
func onPattern(l *Layout, x uint64, r, c int) bool {
	if v := c - r; v >= 1-l.CL && v <= l.CL-1 && x>>uint(v+l.CL-1)&1 != 0 {
		return true
	}
	w := c + r
	return w >= l.CL+l.S && w <= l.CL+l.N-2 && x>>uint(2*l.CL-1+w-l.CL-l.S)&1 != 0
}

// attacks reports whether queens at (r1, c1) and (r2, c2) share a row, a
// column or a diagonal.
func attacks(r1, c1, r2, c2 int) bool {
	return r1 == r2 || c1 == c2 || r1-c1 == r2-c2 || r1+c1 == r2+c2
}

// placementsOn lists, by plain search, the placements of one queen in each
// row of rows, on distinct columns of cols, none attacking another or the
// queens of fixed: the slow side that the tables and halves are decoded
// against.
func placementsOn(n int, rows []int, cols []int, fixed walkPlacement) []walkPlacement {
	var out []walkPlacement
	cur := make(walkPlacement, n)
	for i := range cur {
		cur[i] = -1
	}
	var rec func(i int, used uint64)
	rec = func(i int, used uint64) {
		if i == len(rows) {
			out = append(out, slices.Clone(cur))
			return
		}
		r := rows[i]
	next:
		for _, c := range cols {
			if used>>c&1 != 0 {
				continue
			}
			for r2, c2 := range cur {
				if c2 >= 0 && attacks(r, c, r2, c2) {
					continue next
				}
			}
			for r2, c2 := range fixed {
				if c2 >= 0 && attacks(r, c, r2, c2) {
					continue next
				}
			}
			cur[r] = c
			rec(i+1, used|1<<c)
			cur[r] = -1
		}
	}
	rec(0, 0)
	return out
}

// words returns the words of a placement of the left half, from the
// layout's contrib.
func (l *Layout) words(p walkPlacement) (w0, w1 uint64) {
	for r, c := range p {
		if c >= 0 {
			a, b := l.contrib(r, c)
			w0, w1 = w0|a, w1|b
		}
	}
	return w0, w1
}

// decode finds the one placement of ps with the words w0 and w1.
func (l *Layout) decode(t *testing.T, ps []walkPlacement, w0, w1 uint64) walkPlacement {
	t.Helper()
	var found []walkPlacement
	for _, p := range ps {
		if a, b := l.words(p); a == w0 && b == w1 {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		t.Fatalf("N = %d: %d placements have the words %#x %#x, want 1", l.N, len(found), w0, w1)
	}
	return found[0]
}

func bitList(set uint32) []int {
	var out []int
	for x := set; x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros32(x))
	}
	return out
}

func empty(n int) walkPlacement {
	p := make(walkPlacement, n)
	for i := range p {
		p[i] = -1
	}
	return p
}

// sepQueens returns the queens of separator placement si.
func (l *Layout) sepQueens(si int) walkPlacement {
	p := empty(l.N)
	code := l.seps[si].code
	for j := l.S - 1; j >= 0; j-- {
		p[code&31] = l.CL + j
		code >>= 5
	}
	return p
}

// walkLine writes a section title.
func walkLine(w *strings.Builder, title string) {
	fmt.Fprintf(w, "\n== %s ==\n\n", title)
}

// TestDocMap checks that every repository path docs/engine.md names in
// backquotes exists, and that every name of its map of ideas (the table
// under "## The map", Go or assembly) is defined in one of the files of
// its row: a renamed function fails here until the page follows.
func TestDocMap(t *testing.T) {
	root := filepath.FromSlash("../..")
	data, err := os.ReadFile(filepath.FromSlash(walkDoc))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	quoted := regexp.MustCompile("`([^`]+)`")
	path := regexp.MustCompile(`^(count|internal|cmd|docs|bench|scripts|web|cluster)/[A-Za-z0-9_./*-]+$`)
	// Outside the fenced blocks, whose ``` would pair the quotes wrongly.
	var prose strings.Builder
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		} else if !fenced {
			prose.WriteString(line + "\n")
		}
	}
	for _, m := range quoted.FindAllStringSubmatch(prose.String(), -1) {
		if !path.MatchString(m[1]) {
			continue
		}
		if got, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(m[1]))); len(got) == 0 {
			t.Errorf("%s names %s, which does not exist", walkDoc, m[1])
		}
	}
	_, table, ok := strings.Cut(doc, "\n## The map")
	if !ok {
		t.Fatalf("%s: no section \"## The map\"", walkDoc)
	}
	table, _, _ = strings.Cut(table, "\n\n## ")
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.Contains(cells[2], "`") {
			continue
		}
		rows++
		var src strings.Builder
		for _, f := range quoted.FindAllStringSubmatch(cells[2], -1) {
			files, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(f[1])))
			for _, name := range files {
				b, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				src.Write(b)
			}
		}
		for _, m := range quoted.FindAllStringSubmatch(cells[3], -1) {
			recv, name, method := strings.Cut(m[1], ".")
			q := regexp.QuoteMeta(recv)
			def := `(?m)^(func ` + q + `[(\[]|type ` + q + `\b|var ` + q + `\b|const ` + q + `\b|\t` + q + `\b[^\n]*=|TEXT ·` + q + `\(SB\))`
			if method {
				def = `(?m)^func \(\w+ \*?` + regexp.QuoteMeta(recv) + `\) ` + regexp.QuoteMeta(name) + `\(`
			}
			if !regexp.MustCompile(def).MatchString(src.String()) {
				t.Errorf("%s, the map: %s is not defined in %s", walkDoc, m[1], strings.TrimSpace(cells[2]))
			}
		}
	}
	if rows == 0 {
		t.Errorf("%s: the map has no rows", walkDoc)
	}
}
