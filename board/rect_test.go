package board

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readRect reads the one board of text, cols columns wide.
func readRect(t testing.TB, text string, f Format, cols int) (Partial, error) {
	t.Helper()
	var got []Record
	for rec, err := range ParseAllRect(strings.NewReader(text), f, cols) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec)
	}
	if len(got) != 1 {
		t.Fatalf("%q: %d boards, want 1", text, len(got))
	}
	return got[0].Board, got[0].Err
}

// TestRectRoundTrip writes boards that are not square in every readable
// format and reads them back, detected and named, with their width.
func TestRectRoundTrip(t *testing.T) {
	for _, b := range []Partial{
		{Queens: FromOneBased(1, 3, 5), Cols: 5},
		{Queens: FromOneBased(2, 4, 0, 1, 0, 3), Cols: 4},
		{Queens: FromOneBased(0, 9, 0), Cols: 9},
		{Queens: FromOneBased(2, 0, 0, 0, 1, 0, 0), Blocked: []Square{{1, 0}, {6, 1}}, Cols: 2},
		{Queens: FromOneBased(1, 2), Cols: 2}, // square, with Cols given
	} {
		for _, f := range InputFormats {
			var buf bytes.Buffer
			if err := WritePartial(&buf, b, f); err != nil {
				if len(b.Blocked) > 0 && (f == List || f == Grid) {
					continue
				}
				t.Fatalf("%v × %d as %s: %v", b.Queens, b.Cols, f, err)
			}
			for _, read := range []Format{f, Auto} {
				if f == Grid && read == Auto && len(b.Queens) == 1 {
					continue // a one-line grid reads as a list
				}
				got, err := readRect(t, buf.String(), read, b.Cols)
				if err != nil || !got.Queens.Equal(b.Queens) || got.Cols != b.Cols || !sameSquares(got.Blocked, b.Blocked) {
					t.Errorf("%q read as %s: %v × %d, %v, %v; want %v × %d", buf.String(), read, got.Queens, got.Cols, got.Blocked, err, b.Queens, b.Cols)
				}
			}
		}
	}
}

// TestRectParseErrors: a board of the wrong width is refused, and says
// where.
func TestRectParseErrors(t *testing.T) {
	for _, tt := range []struct {
		text string
		cols int
		want string
		kind ProblemKind // of a well-formed board with a column past the width
	}{
		{"1 3 6\n", 5, "character 5 (row 3): column 6 is out of range 1..5", OutOfRange},
		{"Q....\n..Q..\n...Q\n", 5, "row 3 has 4 squares but the board has 5 columns", 0},
		{`{"n":3,"cols":4,"queens":[1,3,5]}`, 5, `"cols" is 4 but the board has 5 columns`, 0},
		{`{"n":3,"queens":[1,3,6]}`, 5, "queens[2] (row 3): column 6 is out of range 1..5", OutOfRange},
		{`{"queens":[1,3],"blocked":[[1,6]]}`, 5, "blocked[0] = [1, 6] is off the 2×5 board (rows 1..2, columns 1..5)", 0},
	} {
		_, err := readRect(t, tt.text, Auto, tt.cols)
		var p *Problem
		if err == nil || !strings.Contains(err.Error(), tt.want) || (tt.kind != 0) != errors.As(err, &p) {
			t.Errorf("%q, %d columns: %v, want %q", tt.text, tt.cols, err, tt.want)
		}
	}
	// A square board is read as before; "cols" must then be its size.
	if _, err := ParsePartial(`{"n":3,"cols":5,"queens":[1,3,5]}`, Auto); err == nil || !strings.Contains(err.Error(), `"cols" is 5 but the board is square, with 3 rows`) {
		t.Errorf("a rectangle read as a square: %v", err)
	}
	if p, err := ParsePartial(`{"n":4,"cols":4,"queens":[2,4,1,3]}`, Auto); err != nil || p.Cols != 0 || Verify(p.Queens) != nil {
		t.Errorf("a square with cols: %v, %v", p, err)
	}
}

// TestRectNotVerified: the N-Queens rules of this package refuse a board
// that is not square rather than check it by the square's.
func TestRectNotVerified(t *testing.T) {
	p := Partial{Queens: FromOneBased(1, 3), Cols: 5}
	for name, err := range map[string]error{"Verify": p.Verify(), "Check": p.Check()} {
		if err == nil || !strings.Contains(err.Error(), "2 rows and 5 columns") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRectSymmetries: a rectangle has the identity, the half turn and the
// two mirrors, and each maps it onto itself as its picture does.
func TestRectSymmetries(t *testing.T) {
	p := FromOneBased(1, 0, 4) // 3 rows × 5 columns
	want := map[Symmetry]string{Identity: "1 0 4", Rotate180: "2 0 5", MirrorCols: "5 0 2", MirrorRows: "4 0 1"}
	for _, s := range Symmetries {
		q, err := s.ApplyRect(p, 5)
		w, ok := want[s]
		switch {
		case ok && (err != nil || q.String() != w):
			t.Errorf("%v: %v, %v; want %s", s, q, err, w)
		case !ok && err == nil:
			t.Errorf("%v maps a 3 × 5 board: %v", s, q)
		}
		if s.OnRect(3, 5) != ok || !s.OnRect(4, 4) {
			t.Errorf("%v: OnRect wrong", s)
		}
	}
	// On a square, ApplyRect is Apply.
	sol := FromOneBased(2, 4, 1, 3)
	for _, s := range Symmetries {
		a, err1 := s.Apply(sol)
		b, err2 := s.ApplyRect(sol, 4)
		if err1 != nil || err2 != nil || !a.Equal(b) {
			t.Errorf("%v: %v %v, %v %v", s, a, err1, b, err2)
		}
	}
}

// FuzzParseAllRect: no input panics for any width, and every board read
// has the width asked for, its pieces on it, and writes out and reads back
// the same in every readable format.
func FuzzParseAllRect(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "rect*"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && !strings.HasSuffix(p, ".png") && !strings.HasSuffix(p, ".svg") {
			f.Add(string(b), uint8(4))
			f.Add(string(b), uint8(5))
		}
	}
	for _, s := range []string{"1 3 5", "[2,0,.,9]", ".Q.x..\n......\n", `{"n":2,"cols":7,"queens":[1,0],"blocked":[[2,7]]}`, `["..Q..","Q...."]`, "00100\n10000"} {
		f.Add(s, uint8(6))
	}
	f.Fuzz(func(t *testing.T, text string, cols uint8) {
		width := int(cols%12) + 1
		for rec, err := range ParseAllRect(strings.NewReader(text), Auto, width) {
			if err != nil || rec.Err != nil {
				continue
			}
			b := rec.Board
			if b.Cols != width || len(b.Queens) > 200 {
				if b.Cols != width {
					t.Fatalf("%q: width %d, want %d", text, b.Cols, width)
				}
				continue
			}
			for r, c := range b.Queens {
				if c != Empty && (c < 0 || int(c) >= width) {
					t.Fatalf("%q: row %d, column %d off a board of %d columns", text, r+1, c+1, width)
				}
			}
			for _, format := range InputFormats {
				var buf bytes.Buffer
				if err := WritePartial(&buf, b, format); err != nil {
					if len(b.Blocked) > 0 && (format == List || format == Grid) {
						continue
					}
					t.Fatalf("%q not written as %s: %v", text, format, err)
				}
				got, err := readRect(t, buf.String(), format, width)
				// A queen on a blocked square is drawn as a queen.
				lost := CheckBlocked(b.Queens, b.Blocked) != nil
				if err != nil || !got.Queens.Equal(b.Queens) || (!lost && !sameSquares(got.Blocked, b.Blocked)) {
					t.Fatalf("%q → %s %q → %v, %v", text, format, buf.String(), got.Queens, err)
				}
			}
		}
	})
}
