package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The grid and dots grammars: a board of n lines of n cells, '0' and '1'
// in a grid, '.', '-' or '_' for a free square, 'Q' or 'q' for a queen and
// 'x' or 'X' for a blocked square in dots; cells may be spaced. LeetCode's
// one-line dots board [".Q..","...Q",…] is the dots grammar in a JSON
// array of strings.

// parseLeetCode reads LeetCode's one-line dots board [".Q..","...Q",…], of
// width columns (0: square).
func parseLeetCode(text []byte, lead, width int) (Partial, error) {
	var rows []string
	if err := json.Unmarshal(text, &rows); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return Partial{}, fmt.Errorf("character %d: malformed JSON: %v", int64(lead)+se.Offset, err)
		case errors.As(err, &te):
			return Partial{}, fmt.Errorf("character %d: a dots board in JSON is an array of strings, not of %s", int64(lead)+te.Offset, te.Value)
		}
		return Partial{}, fmt.Errorf("character %d: the JSON ends early (a board takes one line)", lead+len(text))
	}
	if len(rows) == 0 {
		return Partial{}, errors.New("the board has no rows")
	}
	lines := make([][]byte, len(rows))
	for i, r := range rows {
		lines[i] = []byte(r)
	}
	rec := parseRows(lines, 1, Dots, width)
	return rec.Board, rec.Err
}

// parseBlock reads a grid or dots board of cols columns (0: square) from
// its lines (trimmed, non-blank); first is the line number of lines[0]. A
// block of k·n rows of length n is k square boards written without blank
// lines between them; boards of a given width are one a block.
func parseBlock(lines [][]byte, first int, f Format, cols int) []Record {
	rows := make([][]byte, len(lines))
	for i, l := range lines {
		rows[i] = cells(l)
	}
	if cols > 0 {
		return []Record{parseRows(rows, first, f, cols)}
	}
	width := len(rows[0])
	if width > 0 && len(rows) > width && len(rows)%width == 0 {
		same := true
		for _, r := range rows {
			same = same && len(r) == width
		}
		if same {
			var out []Record
			for k := 0; k < len(rows); k += width {
				out = append(out, parseRows(rows[k:k+width], first+k, f, 0))
			}
			return out
		}
	}
	return []Record{parseRows(rows, first, f, 0)}
}

// cells drops the spaces between the cells of a board row ("0 1 0 0").
func cells(line []byte) []byte {
	if !bytes.ContainsAny(line, " \t") {
		return line
	}
	out := make([]byte, 0, len(line))
	for _, c := range line {
		if c != ' ' && c != '\t' {
			out = append(out, c)
		}
	}
	return out
}

// parseRows reads the rows of one grid or dots board of cols columns (0:
// square).
func parseRows(rows [][]byte, first int, f Format, cols int) Record {
	rec := Record{Line: first, Format: f}
	n := len(rows)
	fail := func(row int, format string, args ...any) Record {
		rec.Line, rec.Err = first+row, fmt.Errorf(format, args...)
		return rec
	}
	p := Partial{Queens: New(n)}
	for r, row := range rows {
		switch {
		case cols > 0 && len(row) != cols:
			return fail(r, "row %d has %d squares but the board has %d columns", r+1, len(row), cols)
		case cols == 0 && len(row) != n:
			rows := "rows"
			if n == 1 {
				rows = "row"
			}
			return fail(r, "row %d has %d squares but the board has %d %s; a board is square", r+1, len(row), n, rows)
		}
		for c, ch := range row {
			queen, blocked := false, false
			switch {
			case f == Grid && ch == '1', f == Dots && (ch == 'Q' || ch == 'q'):
				queen = true
			case f == Grid && ch == '0', f == Dots && (ch == '.' || ch == '-' || ch == '_'):
			case f == Dots && (ch == 'x' || ch == 'X'):
				blocked = true
			default:
				want := "'0' or '1'"
				if f == Dots {
					want = "'Q', '.', '-', '_' or 'x'"
				}
				return fail(r, "row %d, square %d: unexpected %q in a %s board (want %s)", r+1, c+1, rune(ch), f, want)
			}
			if queen {
				if p.Queens[r] != Empty {
					return fail(r, "row %d has two queens, in columns %d and %d", r+1, p.Queens[r]+1, c+1)
				}
				p.Queens[r] = int32(c)
			}
			if blocked {
				p.Blocked = append(p.Blocked, Square{Row: r, Col: c})
			}
		}
	}
	if f == Grid && len(p.Blocked) > 0 {
		return fail(0, "a grid cannot mark blocked squares")
	}
	rec.Board = p
	return rec
}
