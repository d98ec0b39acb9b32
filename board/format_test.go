package board

import (
	"bytes"
	"errors"
	"image/png"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testkit"
)

// TestParseFormats reads the same boards written in every input format.
func TestParseFormats(t *testing.T) {
	four := FromOneBased(2, 4, 1, 3)
	partial := FromOneBased(2, 0, 0, 3)
	tests := []struct {
		name, text string
		f          Format
		want       Placement
		blocked    []Square
		detected   Format
	}{
		{"list spaces", "2 4 1 3", Auto, four, nil, List},
		{"list commas", "2,4,1,3", Auto, four, nil, List},
		{"list brackets", "[2, 4, 1, 3]", Auto, four, nil, List},
		{"list tabs and CRLF", "2\t4\t1\t3\r\n", Auto, four, nil, List},
		{"list empty rows", "2 0 . 3", Auto, partial, nil, List},
		{"list named", "1 0 0 0", List, FromOneBased(1, 0, 0, 0), nil, List},
		{"list one queen", "1", Auto, FromOneBased(1), nil, List},
		{"grid", "0100\n0001\n1000\n0010\n", Auto, four, nil, Grid},
		{"grid spaced", "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0", Auto, four, nil, Grid},
		{"grid partial", "0100\n0000\n0000\n0010", Grid, partial, nil, Grid},
		{"dots", ".Q..\n...Q\nQ...\n..Q.", Auto, four, nil, Dots},
		{"dots variants", "-q__\n___q\nQ---\n..Q.", Auto, four, nil, Dots},
		{"dots blocked", ".Q.x\n....\nX...\n..Q.", Auto, partial, []Square{{0, 3}, {2, 0}}, Dots},
		{"leetcode array", `[".Q..","...Q","Q...","..Q."]`, Auto, four, nil, Dots},
		{"json object", `{"n":4,"queens":[2,4,1,3]}`, Auto, four, nil, JSON},
		{"json without n", `{"queens":[2,0,0,3],"blocked":[[1,4],[3,1]]}`, Auto, partial, []Square{{0, 3}, {2, 0}}, JSON},
		{"json array", `[2,4,1,3]`, JSON, four, nil, JSON},
		{"comments and blank lines", "# a board\n\n2 4 1 3\n\n", Auto, four, nil, List},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePartial(tt.text, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Queens.Equal(tt.want) || !slices.Equal(p.Blocked, tt.blocked) {
				t.Errorf("got %v blocked %v, want %v blocked %v", p.Queens, p.Blocked, tt.want, tt.blocked)
			}
			for rec := range ParseAll(strings.NewReader(tt.text), tt.f) {
				if rec.Format != tt.detected {
					t.Errorf("format %q, want %q", rec.Format, tt.detected)
				}
			}
		})
	}
}

// TestParseErrors: every malformed input gets a message saying where.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text string
		f          Format
		msg        string
	}{
		{"empty", "", Auto, "no board found"},
		{"only comments", "# nothing\n\n", Auto, "no board found"},
		{"letter in list", "2 4 z 3", Auto, `line 1: character 5 (row 3): "z" is not a column number`},
		{"column too large", "2 5 1 3", Auto, "line 1: character 3 (row 2): column 5 is out of range 1..4"},
		{"huge column", "2 999999999999999999999999999999 1", Auto, "column 99999999999999999999… is out of range 1..3"},
		{"negative", "2 -1 1", List, `"-1" is not a column number`},
		{"double comma", "2,,1", Auto, "character 3: empty entry between commas"},
		{"unclosed bracket", "[2,4,1,3", Auto, "does not end with ']'"},
		{"two boards", "2 4 1 3\n3 1 4 2", Auto, "line 2: a second board"},
		{"ragged grid", "0100\n001\n1000\n0010", Auto, "line 2: row 2 has 3 squares but the board has 4 rows"},
		{"not square", "0100\n0001\n1000", Auto, "row 1 has 4 squares but the board has 3 rows"},
		{"two queens in a row", ".QQ.\n....\n....\n....", Auto, "line 1: row 1 has two queens, in columns 2 and 3"},
		{"bad dot", ".Q..\n..*Q\nQ...\n..Q.", Dots, `line 2: row 2, square 3: unexpected '*' in a dots board`},
		{"bad grid cell", "0100\n0002\n1000\n0010", Grid, `row 2, square 4: unexpected '2' in a grid board (want '0' or '1')`},
		{"json syntax", `{"n":4,"queens":[2,4,1,3}`, Auto, "character 25: malformed JSON"},
		{"json type", `{"queens":"2 4 1 3"}`, Auto, `"queens" must be an array of column numbers, not a JSON string`},
		{"json n mismatch", `{"n":5,"queens":[2,4,1,3]}`, Auto, `"n" is 5 but "queens" has 4 rows`},
		{"json column range", `{"queens":[2,4,9,3]}`, Auto, "queens[2] (row 3): column 9 is out of range 1..4"},
		{"json blocked off board", `{"queens":[2,4,1,3],"blocked":[[5,1]]}`, Auto, "blocked[0] = [5, 1] is off the 4×4 board"},
		{"json unknown field", `{"queens":[1],"colour":"red"}`, Auto, `unknown field "colour"`},
		{"json no queens", `{"n":4}`, Auto, `has no "queens"`},
		{"json trailing", `{"queens":[1]} {"queens":[1]}`, Auto, "text after the JSON object"},
		{"json empty", `[]`, JSON, "the board has no rows"},
		{"grid blocked", "x0\n00", Grid, "unexpected 'x' in a grid board"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePartial(tt.text, tt.f)
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got error %v, want one containing %q", err, tt.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	if _, err := Parse(".Q.x\n....\n....\n....", Auto); err == nil || !strings.Contains(err.Error(), "blocked squares are for partial boards") {
		t.Errorf("Parse with a blocked square: %v", err)
	}
}

// TestParseAllStream reads several boards of mixed formats, one malformed.
func TestParseAllStream(t *testing.T) {
	text := "# solution 1\n.Q..\n...Q\nQ...\n..Q.\n# solution 2\n..Q.\nQ...\n...Q\n.Q..\n\n" +
		"2 4 1 3\n2 4 x 3\n{\"queens\":[3,1,4,2]}\n0100\n0001\n1000\n0010\n0010\n1000\n0001\n0100\n"
	type want struct {
		line int
		f    Format
		p    string
		err  bool
	}
	wants := []want{{2, Dots, "2 4 1 3", false}, {7, Dots, "3 1 4 2", false}, {12, List, "2 4 1 3", false},
		{13, List, "", true}, {14, JSON, "3 1 4 2", false}, {15, Grid, "2 4 1 3", false}, {19, Grid, "3 1 4 2", false}}
	var got []want
	for rec := range ParseAll(strings.NewReader(text), Auto) {
		got = append(got, want{rec.Line, rec.Format, rec.Board.Queens.String(), rec.Err != nil})
	}
	if len(got) != len(wants) {
		t.Fatalf("got %d records %v, want %d", len(got), got, len(wants))
	}
	for i := range wants {
		if got[i] != wants[i] {
			t.Errorf("record %d = %+v, want %+v", i, got[i], wants[i])
		}
	}
	// Stopping early is allowed.
	for range ParseAll(strings.NewReader(text), Auto) {
		break
	}
}

// TestRoundTrip writes every solution for n ≤ 8 and a partial board in each
// readable format and reads it back.
func TestRoundTrip(t *testing.T) {
	var boards []Partial
	for n := 1; n <= 8; n++ {
		for _, p := range solutions(n) {
			boards = append(boards, Partial{Queens: p})
		}
	}
	boards = append(boards, Partial{Queens: FromOneBased(0, 3, 0, 0, 5)}, Partial{Queens: New(3)},
		Partial{Queens: FromOneBased(2, 0, 0, 3), Blocked: []Square{{1, 0}, {3, 3}}})
	for _, b := range boards {
		for _, f := range InputFormats {
			var buf bytes.Buffer
			err := WritePartial(&buf, b, f)
			if len(b.Blocked) > 0 && (f == List || f == Grid) {
				if err == nil {
					t.Errorf("%s wrote blocked squares", f)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%v as %s: %v", b.Queens, f, err)
			}
			got, err := ParsePartial(buf.String(), f)
			if err != nil {
				t.Fatalf("%v as %s: %q: %v", b.Queens, f, buf.String(), err)
			}
			if !got.Queens.Equal(b.Queens) || !slices.Equal(got.Blocked, b.Blocked) {
				t.Errorf("%v as %s came back as %v", b.Queens, f, got.Queens)
			}
			// Detection finds the format again, except for a one-row board
			// whose grid "1" reads the same as the list "1".
			if auto, err := ParsePartial(buf.String(), Auto); err != nil || !auto.Queens.Equal(b.Queens) {
				t.Errorf("%v as %s, detected: %v, %v", b.Queens, f, auto.Queens, err)
			}
		}
	}
}

// TestGolden writes an 8-queens solution, a partial board and two boards
// that are not square (3 rows × 5 columns; 6 rows × 4 columns with a
// blocked square) in every format.
func TestGolden(t *testing.T) {
	boards := map[string]Partial{
		"solution8": {Queens: FromOneBased(1, 5, 8, 6, 3, 7, 2, 4)},
		"partial6":  {Queens: FromOneBased(0, 3, 0, 0, 0, 6), Blocked: []Square{{0, 0}, {4, 2}}},
		"rect3x5":   {Queens: FromOneBased(1, 3, 5), Cols: 5},
		"rect6x4":   {Queens: FromOneBased(2, 4, 0, 1, 0, 3), Blocked: []Square{{2, 0}}, Cols: 4},
	}
	for _, f := range Formats {
		for name, b := range boards {
			var buf bytes.Buffer
			err := WritePartial(&buf, b, f)
			if len(b.Blocked) > 0 && (f == List || f == Grid) {
				if err == nil {
					t.Errorf("%s wrote blocked squares", f)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			testkit.Golden(t, "testdata/"+name+"."+string(f), buf.Bytes())
		}
	}
}

// bigPattern is a closed-form board for the streaming tests: a queen in
// column 2r mod n (not a solution, which Write does not need).
type bigPattern int

func (b bigPattern) N() int          { return int(b) }
func (b bigPattern) Col(row int) int { return 2 * row % int(b) }

// TestWriteStreams: writing a list of 10^7 rows needs no memory for the
// board.
func TestWriteStreams(t *testing.T) {
	n := 10_000_000
	if testing.Short() {
		n = 1_000_000
	}
	var cw countingWriter
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := Write(&cw, bigPattern(n), List); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("writing %d rows allocated %d bytes", n, grew)
	}
	if cw.lines != 1 || cw.bytes < int64(n) {
		t.Errorf("wrote %d bytes in %d lines", cw.bytes, cw.lines)
	}
}

type countingWriter struct{ bytes, lines int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.bytes += int64(len(p))
	c.lines += int64(bytes.Count(p, []byte("\n")))
	return len(p), nil
}

// TestDensityPicture: a huge board is drawn at most 1024 pixels wide, and
// every queen lands in some pixel.
func TestDensityPicture(t *testing.T) {
	const n = 1_000_000
	var buf bytes.Buffer
	if err := Write(&buf, bigPattern(n), PNG); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() > densityPixels || b.Dx() != b.Dy() || b.Dx() < 512 {
		t.Errorf("picture is %v", b)
	}
	g, block, err := density(bigPattern(n))
	if err != nil {
		t.Fatal(err)
	}
	dark := 0
	for _, v := range g.Pix {
		if v < 255 {
			dark++
		}
	}
	// Column 2r mod n puts the queens of each block of rows in two runs of
	// pixels: about 2 dark pixels a pixel row.
	if side := g.Bounds().Dx(); dark < side || dark > 3*side || block != (n+densityPixels-1)/densityPixels {
		t.Errorf("%d dark pixels of %d×%d, block %d", dark, side, side, block)
	}
	buf.Reset()
	if err := Write(&buf, bigPattern(n), SVG); err != nil || !strings.Contains(buf.String(), "drawn as density") {
		t.Errorf("SVG of a huge board: %v", err)
	}
}

func TestWriteErrors(t *testing.T) {
	var buf bytes.Buffer
	tests := []struct {
		name string
		err  error
		msg  string
	}{
		{"too large for dots", Write(&buf, bigPattern(MaxBoardN+1), Dots), "too large for the dots format (limit 1000)"},
		{"column out of range", Write(&buf, FromColumns(0, 7), List), "row 2: column 8 is out of range 1..2"},
		{"no rows", Write(&buf, Placement{}, JSON), "at least one row"},
		{"unknown format", Write(&buf, FromColumns(0), Format("bmp")), `format "bmp" cannot be written`},
		{"blocked in list", WritePartial(&buf, Partial{Queens: New(2), Blocked: []Square{{0, 0}}}, List), "cannot show blocked squares"},
		{"blocked off board", WritePartial(&buf, Partial{Queens: New(2), Blocked: []Square{{2, 0}}}, Dots), "off the 2×2 board"},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.msg) {
			t.Errorf("%s: got %v, want %q", tt.name, tt.err, tt.msg)
		}
	}
	if MaxWriteN(List) != MaxN || MaxWriteN(Unicode) != MaxBoardN || MaxWriteN(PNG) != MaxN {
		t.Error("MaxWriteN")
	}
}

func TestParseFormatNames(t *testing.T) {
	for _, f := range Formats {
		if g, err := ParseFormat(strings.ToUpper(string(f))); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, g, err)
		}
	}
	if f, err := ParseFormat("auto"); err != nil || f != Auto {
		t.Errorf("auto: %q, %v", f, err)
	}
	if _, err := ParseFormat("bmp"); err == nil || !strings.Contains(err.Error(), "want one of list, grid") {
		t.Errorf("bmp: %v", err)
	}
}

// countingColumns counts the rows a writer asks for.
type countingColumns struct {
	Placement
	asked int
}

func (c *countingColumns) Col(r int) int { c.asked++; return c.Placement.Col(r) }

// failingWriter refuses every write, like a connection whose reader left.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("reader went away") }

// TestWriteStopsAtFirstError checks that a board stops being formatted
// once its writer has failed: a server drew a refused 130 MB SVG to the
// end before.
func TestWriteStopsAtFirstError(t *testing.T) {
	for _, tc := range []struct {
		f Format
		n int
	}{{List, 200000}, {JSON, 200000}, {Dots, 1000}} {
		c := &countingColumns{Placement: New(tc.n)}
		for r := range tc.n {
			c.Placement[r] = int32(r)
		}
		err := Write(failingWriter{}, c, tc.f)
		if err == nil || !strings.Contains(err.Error(), "reader went away") {
			t.Errorf("%s: %v", tc.f, err)
		}
		if c.asked > tc.n/2 {
			t.Errorf("%s: asked for %d of %d rows after the writer failed", tc.f, c.asked, tc.n)
		}
	}
	// Blocked squares are drawn one by one, each a few allocations.
	p := Partial{Queens: New(1000)}
	for k := range 100000 {
		p.Blocked = append(p.Blocked, Square{k / 1000, k % 1000})
	}
	allocs := testing.AllocsPerRun(1, func() { _ = WritePartial(failingWriter{}, p, SVG) })
	if allocs > 10000 {
		t.Errorf("%.0f allocations drawing 100000 blocked squares into a failed writer", allocs)
	}
}
