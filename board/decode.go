package board

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/i18n"
)

// Record is one board of a stream read by [ParseAll]. Line is the 1-based
// line on which the board starts (for a malformed board, the line at fault)
// and Format the format it was read in (detected, or the one asked for).
// Err, if not nil, says why the board is malformed; Board is then empty.
// A malformed board is a finding about the text, like a board that is not a
// solution, not a failure of the reading, which goes on after it.
type Record struct {
	Line   int
	Board  Partial
	Format Format
	Err    error
}

// Parse reads one board in format f ([Auto] detects it). Empty rows are
// allowed ([Empty]); blocked squares are not, as a Placement cannot hold
// them (use [ParsePartial]). Cost O(length of text).
func Parse(text string, f Format) (Placement, error) {
	p, err := ParsePartial(text, f)
	if err != nil {
		return nil, err
	}
	if len(p.Blocked) > 0 {
		b := p.Blocked[0]
		return nil, errT("board.partialonly", i18n.Args{"Row": itoa(b.Row + 1), "Col": itoa(b.Col + 1)})
	}
	return p.Queens, nil
}

// ParsePartial reads exactly one board, with its blocked squares, in format
// f ([Auto] detects it). Errors name the line and column at fault.
func ParsePartial(text string, f Format) (Partial, error) {
	var got []Record
	for rec, err := range ParseAll(strings.NewReader(text), f) {
		if err != nil {
			return Partial{}, err // a strings.Reader does not fail
		}
		if rec.Err != nil {
			return Partial{}, AtLine(rec.Line, rec.Err)
		}
		got = append(got, rec)
		if len(got) > 1 {
			return Partial{}, errT("board.second", i18n.Args{"Line": itoa(rec.Line)})
		}
	}
	if len(got) == 0 {
		return Partial{}, errT("board.none", nil)
	}
	return got[0].Board, nil
}

// detect guesses the format of a board from its first non-blank line. A
// line of 0s and 1s with two or more cells starts a grid, unless it is the
// board's only line.
func detect(line []byte) Format {
	switch line[0] {
	case '{':
		return JSON
	case '[':
		if bytes.IndexByte(line, '"') >= 0 {
			return Dots // LeetCode's [".Q..","...Q",…]
		}
		return List
	}
	grid, dots := true, true
	for _, c := range line {
		switch c {
		case '0', '1':
			dots = false
		case 'Q', 'q', '.', '-', '_', 'x', 'X':
			grid = false
		case ' ', '\t':
		default:
			return List
		}
	}
	switch {
	case dots:
		return Dots
	case grid && len(cells(line)) > 1:
		return Grid
	}
	return List
}

// parseLine reads a one-line board of width columns (0: square): a list
// or JSON (or LeetCode's dots array). lead is the number of bytes before
// text on its line, so that errors name the character of the line.
func parseLine(text []byte, lead int, f Format, width int) (Partial, error) {
	switch f {
	case List:
		q, err := parseList(text, lead, width)
		return Partial{Queens: q}, err
	case JSON:
		return parseJSON(text, lead, width)
	case Dots, Grid:
		if f == Dots && text[0] == '[' {
			return parseLeetCode(text, lead, width)
		}
		recs := parseBlock([][]byte{text}, 1, f, width)
		if len(recs) > 1 {
			return Partial{}, errT("board.severallines", nil)
		}
		return recs[0].Board, recs[0].Err
	}
	return Partial{}, errT("board.format.unreadable", i18n.Args{"Format": strconv.Quote(string(f))})
}
