package board

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// streamOf reads text with a 16-byte buffer, so that every list line of 16
// bytes or more is parsed as it streams in rather than held whole.
func streamOf(text string, f Format) []Record {
	var recs []Record
	for rec := range parseAll(strings.NewReader(text), f, 16, 0) {
		recs = append(recs, rec)
	}
	return recs
}

// sameAsHeldWhole checks that a list line streamed in pieces reads as the
// same board as when held whole, or fails as it does: with the same message,
// except that a column out of range may be named by its row alone.
func sameAsHeldWhole(t *testing.T, line string) {
	t.Helper()
	text := trimSpace([]byte(line))
	if len(text) == 0 || text[0] == '#' || strings.ContainsRune(line, '\n') {
		return
	}
	lead := len(line) - len(strings.TrimLeft(line, asciiSpace))
	want, wantErr := parseList(text, lead, 0)
	recs := streamOf(line, List)
	if len(recs) != 1 {
		t.Fatalf("%q: %d records", line, len(recs))
	}
	got, err := recs[0].Board.Queens, recs[0].Err
	switch {
	case (err == nil) != (wantErr == nil):
		t.Fatalf("%q: streamed %v, %v; held whole %v, %v", line, got, err, want, wantErr)
	case err == nil && !got.Equal(want):
		t.Fatalf("%q: streamed %v, held whole %v", line, got, want)
	case err != nil && err.Error() != wantErr.Error() && !rowOnly(err, wantErr) && !strayBracket(text):
		t.Fatalf("%q: streamed error %q, held whole %q", line, err, wantErr)
	}
}

// rowOnly: a column out of range and a missing ']' are known only at the
// end of a streamed line, so a malformed entry is reported first, and the
// column by its row alone.
func rowOnly(streamed, whole error) bool {
	return strings.Contains(whole.Error(), "out of range") || strings.Contains(whole.Error(), "does not end with ']'")
}

// strayBracket: after a list's closing ']', held whole the bracket belongs to
// a malformed entry, streamed it is text after the list; both are errors.
func strayBracket(text []byte) bool {
	i := bytes.IndexByte(text, ']')
	return text[0] == '[' && i >= 0 && i < len(text)-1
}

var listLines = []string{
	"2 4 1 3 6 8 5 7 10 12 9 11",
	"   2, 4, 1, 3, 6, 8, 5, 7, 10, 12, 9, 11   \r",
	"[2,4,1,3,6,8,5,7,10,12,9,11]",
	"[ 2 ; 4 ; 1 ; 3 ; 6 ; 8 ; 5 ; 7 ]  ",
	"2 0 . 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3",
	"0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
	"0000000000000000000000000001 0 0 0",
	"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 z",
	"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17",
	"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 99",
	"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 999999999999999999999999999999",
	"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 1x2",
	"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
	"1,2,3,4,5,6,7,8,9,10,11,,12",
	",1,2,3,4,5,6,7,8,9,10,11,12",
	"[,1,2,3,4,5,6,7,8,9,10,11,12]",
	"[ ,1,2,3,4,5,6,7,8,9,10,11,12]",
	"[1,2,3,4,5,6,7,8,9,10,11,12",
	"[1,2,3,4,5,6,7,8,9,10,11,12]]",
	"[1,2,3,4,5,6,7,8,9,10,11,12],",
	"[1,2,3,4,5,6,7,8,9,10,11,12] x",
	"[1,2,3,4,5,6,7,8,9,10,11]12]",
	"1,2,3,4,5,6,7,8,9,10,11,12]",
	"1,2,3,4,5,6,7,8,9,10,11,[12",
	"[                         ]",
	"[1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35]",
	"1 2 3 4 5 6 7 8 9 10 11 12\v13\f14 15 16",
	"1 2 3 4 5 6 7 8 9 10 11 12 13\xc2\xa0",
}

func TestStreamListMatchesParseList(t *testing.T) {
	for _, line := range listLines {
		sameAsHeldWhole(t, line)
	}
	// The streamed messages themselves.
	tests := []struct{ line, msg string }{
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 z", `character 37 (row 16): "z" is not a column number`},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 99", "row 16: column 99 is out of range 1..16"},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 999999999999999999999999999999", "character 37 (row 16): column 99999999999999999999… is out of range 1..16"},
		{"1,2,3,4,5,6,7,8,9,10,11,,12", "character 25: empty entry between commas (write 0 or . for an empty row)"},
		{"[1,2,3,4,5,6,7,8,9,10,11,12", "character 27: the list opens with '[' but does not end with ']'"},
		{"[1,2,3,4,5,6,7,8,9,10,11,12] x", "character 30: the list opens with '[' but does not end with ']'"},
		{"[                         ]", "the list holds no columns"},
	}
	for _, tt := range tests {
		recs := streamOf(tt.line+"\n", List)
		if len(recs) != 1 || recs[0].Err == nil || recs[0].Err.Error() != tt.msg || recs[0].Line != 1 {
			t.Errorf("%q: got %+v, want error %q", tt.line, recs, tt.msg)
		}
	}
}

// FuzzStreamList: a list line reads the same streamed and held whole.
func FuzzStreamList(f *testing.F) {
	for _, l := range listLines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 1<<12 {
			return
		}
		sameAsHeldWhole(t, line)
	})
}

// longList is the list of n columns r ↦ col(r), 1-based, as one line.
func longList(n int, col func(r int) int) string {
	var b strings.Builder
	for r := range n {
		if r > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(col(r) + 1))
	}
	return b.String()
}

// TestParseAllLongLines reads lines far longer than the read buffer.
func TestParseAllLongLines(t *testing.T) {
	const n = 100_000
	rev := func(r int) int { return n - 1 - r }
	list := longList(n, rev)
	json := "[" + strings.ReplaceAll(list, " ", ",") + "]"
	zeros := strings.TrimSuffix(strings.Repeat("0 ", n), " ")
	comment := "# " + strings.Repeat("comment ", n)
	bad := list[:len(list)-1] + "z"
	far := list + "000000" // the last column is now 1000000
	text := strings.Join([]string{comment, list, `{"queens":` + json + "}", json, zeros, bad, far, "2 4 1 3"}, "\n")
	type want struct {
		line  int
		f     Format
		n     int
		err   string
		first int32
	}
	wants := []want{{2, List, n, "", n - 1}, {3, JSON, n, "", n - 1}, {4, List, n, "", n - 1}, {5, List, n, "", Empty},
		{6, List, 0, `character 588894 (row 100000): "z" is not a column number`, 0},
		{7, List, 0, "row 100000: column 1000000 is out of range 1..100000", 0}, {8, List, 4, "", 1}}
	var got []want
	for rec := range ParseAll(strings.NewReader(text), Auto) {
		w := want{line: rec.Line, f: rec.Format, n: len(rec.Board.Queens)}
		if rec.Err != nil {
			w.err = rec.Err.Error()
		} else {
			w.first = rec.Board.Queens[0]
			for r, c := range rec.Board.Queens {
				if c < Empty || int(c) >= len(rec.Board.Queens) {
					t.Fatalf("line %d, row %d: column %d", rec.Line, r+1, c+1)
				}
			}
		}
		got = append(got, w)
	}
	if len(got) != len(wants) {
		t.Fatalf("got %d records %+v, want %d", len(got), got, len(wants))
	}
	for i := range wants {
		if got[i] != wants[i] {
			t.Errorf("record %d = %+v, want %+v", i, got[i], wants[i])
		}
	}
	if len(bad) != 588894 {
		t.Fatalf("the test line is %d bytes long, the test expects 588894", len(bad))
	}
}

// countingReader produces the list "1 2 … n" without holding it.
type countingReader struct {
	i, n int
	buf  []byte
}

func (c *countingReader) Read(p []byte) (int, error) {
	for len(c.buf) < len(p) && c.i < c.n {
		c.i++
		c.buf = strconv.AppendInt(c.buf, int64(c.i), 10)
		c.buf = append(c.buf, ' ')
	}
	if len(c.buf) == 0 {
		return 0, io.EOF
	}
	k := copy(p, c.buf)
	c.buf = c.buf[:copy(c.buf, c.buf[k:])]
	return k, nil
}

// TestParseAllLongLineMemory: a list line of 10^6 columns (6.9 MB of text)
// takes about the memory of its Placement, 4 bytes a row, not that of the
// text: the line is never held whole.
func TestParseAllLongLineMemory(t *testing.T) {
	const n = 1_000_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	k := 0
	for rec := range ParseAll(&countingReader{n: n}, Auto) {
		k++
		if rec.Err != nil || len(rec.Board.Queens) != n || rec.Board.Queens[n-1] != n-1 || rec.Board.Queens[12345] != 12345 {
			t.Fatalf("got %d rows, %v", len(rec.Board.Queens), rec.Err)
		}
	}
	runtime.ReadMemStats(&after)
	// Columns are gathered in chunks, then copied once into the board; on
	// Linux the chunks are mapped from the OS and handed back during the
	// copy, so the heap sees only the board and the first chunk.
	limit := uint64(5*n + 1<<20)
	if runtime.GOOS != "linux" {
		limit += 4 * n
	}
	if grew := after.TotalAlloc - before.TotalAlloc; k != 1 || grew > limit {
		t.Errorf("%d records; reading %d rows allocated %d bytes, %.1f a row", k, n, grew, float64(grew)/n)
	}
}

// failingReader gives some text, then an error.
type failingReader struct{ text string }

var errDisk = errors.New("disk on fire")

func (f *failingReader) Read(p []byte) (int, error) {
	if f.text == "" {
		return 0, errDisk
	}
	k := copy(p, f.text)
	f.text = f.text[k:]
	return k, nil
}

func TestParseAllReadErrors(t *testing.T) {
	for _, text := range []string{
		"2 4 1 3\n.Q..\n...Q\n",                     // inside a dots board
		"2 4 1 3\n" + strings.Repeat("1 2 ", 1<<15), // inside a streamed list line
		"2 4 1 3\n# " + strings.Repeat("x", 1<<17),  // inside a long comment
	} {
		// The reader's error is the error of the last pair, and the only one.
		var recs []Record
		var errs []error
		for rec, err := range ParseAll(&failingReader{text}, Auto) {
			recs, errs = append(recs, rec), append(errs, err)
		}
		k := len(recs) - 1
		if k < 1 || recs[0].Err != nil || !errors.Is(errs[k], errDisk) || recs[k].Line < 2 || slices.ContainsFunc(errs[:k], func(e error) bool { return e != nil }) {
			t.Errorf("%.20q…: records %+v, errors %v", text, recs, errs)
		}
	}
}

// TestParseAllBoundaries: where one board ends and the next begins.
func TestParseAllBoundaries(t *testing.T) {
	tests := []struct {
		name, text string
		f          Format
		want       []string // boards, "!" for a malformed one
		lines      []int
	}{
		{"leetcode lines", "[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]\n[\"Q\"]\n", Auto, []string{"2 4 1 3", "1"}, []int{1, 2}},
		{"leetcode named", "[\".Q\",\"..\"]\n[\"Q\"]\n", Dots, []string{"2 0", "1"}, []int{1, 2}},
		{"json after dots", ".Q..\n...Q\nQ...\n..Q.\n{\"queens\":[1]}\n", Auto, []string{"2 4 1 3", "1"}, []int{1, 5}},
		{"list after grid", "0100\n0001\n1000\n0010\n[3,1,4,2]\n", Auto, []string{"2 4 1 3", "3 1 4 2"}, []int{1, 5}},
		{"boards back to back", "10\n01\n01\n10\n", Grid, []string{"1 2", "2 1"}, []int{1, 3}},
		{"lone zero-one line", "1 0 1\n", Auto, []string{"1 0 1"}, []int{1}},
		{"lone grid row", "0100\n", Auto, []string{"!"}, []int{1}},
		{"grid rows as lists", "0 1\n1 0\n", List, []string{"0 1", "1 0"}, []int{1, 2}},
		{"spaced lead", "   2 4 x 3\n", Auto, []string{"!"}, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var lines []int
			for rec := range ParseAll(strings.NewReader(tt.text), tt.f) {
				s := rec.Board.Queens.String()
				if rec.Err != nil {
					s = "!"
				}
				got, lines = append(got, s), append(lines, rec.Line)
			}
			if !slices.Equal(got, tt.want) || !slices.Equal(lines, tt.lines) {
				t.Errorf("got %q at lines %v, want %q at %v", got, lines, tt.want, tt.lines)
			}
		})
	}
	// Error positions count the line's leading white space.
	if _, err := Parse("   2 4 x 3", Auto); err == nil || err.Error() != `line 1: character 8 (row 3): "x" is not a column number` {
		t.Errorf("got %v", err)
	}
}

// repeated is a reader that gives text again and again, for ever.
type repeated struct{ text []byte }

func (r repeated) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], r.text)
	}
	return n, nil
}

// TestEndlessStreams: a stream that never ends is read a board at a time,
// and a board or line that never ends is an error: `yes .Q.. | nqueens
// show`, `yes 0101 | nqueens verify` and a line of x's without a newline
// held all they read until memory ran out.
func TestEndlessStreams(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       string // the first records, as "line: board or error"
	}{
		{"stacked dots boards", ".Q..\n", "1: 2 2 2 2|5: 2 2 2 2|9: 2 2 2 2"},
		{"stacked grid boards", "0101\n", "1: error|5: error|9: error"},
		{"rows wider than the first", "", "1: the dots board has more than 4096 rows, the most read in that format"},
		{"a line without end", "x", "1: the line is longer than 1 MiB, the longest a grid or dots row can be"},
	} {
		var got []string
		var r io.Reader = repeated{[]byte(tc.text)}
		if tc.text == "" {
			r = io.MultiReader(strings.NewReader(".Q.\n"), repeated{[]byte(".Q..\n")})
		}
		for rec, err := range ParseAll(r, Auto) {
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			s := strconv.Itoa(rec.Line) + ": "
			switch {
			case rec.Err != nil && strings.Contains(tc.want, "error"):
				s += "error"
			case rec.Err != nil:
				s += rec.Err.Error()
			default:
				s += strings.TrimSpace(rec.Board.Queens.String())
			}
			if got = append(got, s); len(got) == strings.Count(tc.want, "|")+1 {
				break
			}
		}
		if g := strings.Join(got, "|"); !strings.HasPrefix(g, tc.want) && !strings.Contains(tc.want, "error") || strings.Contains(tc.want, "error") && g != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, g, tc.want)
		}
	}
	// After a board too long, the stream goes on with the next board.
	text := ".Q.\n" + strings.Repeat(".Q..\n", 4200) + "\n2 4 1 3\n" + strings.Repeat("x", 2<<20) + "\n1\n"
	var got []string
	for rec, err := range ParseAll(strings.NewReader(text), Auto) {
		if err != nil {
			t.Fatal(err)
		}
		if rec.Err != nil {
			got = append(got, strconv.Itoa(rec.Line)+": error")
		} else {
			got = append(got, strconv.Itoa(rec.Line)+": "+rec.Board.Queens.String())
		}
	}
	if want := "1: error|4203: 2 4 1 3|4204: error|4205: 1"; strings.Join(got, "|") != want {
		t.Errorf("boards after a board and a line too long: %q, want %q", strings.Join(got, "|"), want)
	}
}
