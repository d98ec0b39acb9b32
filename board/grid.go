package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/nqueens/nqueens/i18n"
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
			return Partial{}, atChar(lead+int(se.Offset), errT("board.leetcode.malformed", i18n.Args{"Detail": err.Error()}))
		case errors.As(err, &te):
			return Partial{}, atChar(lead+int(te.Offset), errT("board.leetcode.type", i18n.Args{"Type": jsonType(te.Value)}))
		}
		return Partial{}, atChar(lead+len(text), errT("board.json.early", nil))
	}
	if len(rows) == 0 {
		return Partial{}, errT("board.norows", nil)
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
	fail := func(row int, err error) Record {
		rec.Line, rec.Err = first+row, err
		return rec
	}
	p := Partial{Queens: New(n)}
	for r, row := range rows {
		switch {
		case cols > 0 && len(row) != cols:
			return fail(r, errT("board.grid.width", i18n.Args{"Row": itoa(r + 1), "Got": itoa(len(row)), "Cols": itoa(cols)}))
		case cols == 0 && len(row) != n:
			return fail(r, i18n.NewPluralError("board.grid.square", itoa(n), i18n.Args{"Row": itoa(r + 1), "Got": itoa(len(row))}))
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
				key := "board.grid.char"
				if f == Dots {
					key = "board.dots.char"
				}
				return fail(r, errT(key, i18n.Args{"Row": itoa(r + 1), "Square": itoa(c + 1), "Char": strconv.QuoteRune(rune(ch))}))
			}
			if queen {
				if p.Queens[r] != Empty {
					return fail(r, errT("board.grid.twoqueens", i18n.Args{"Row": itoa(r + 1), "A": itoa(int(p.Queens[r]) + 1), "B": itoa(c + 1)}))
				}
				p.Queens[r] = int32(c)
			}
			if blocked {
				p.Blocked = append(p.Blocked, Square{Row: r, Col: c})
			}
		}
	}
	if f == Grid && len(p.Blocked) > 0 {
		return fail(0, errT("board.grid.noblocked", nil))
	}
	rec.Board = p
	return rec
}
