package board

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
)

// Partial is a board being filled: queens already placed ([Empty] rows have
// none) and squares on which no queen may go.
type Partial struct {
	Queens  Placement
	Blocked []Square
}

// Record is one board of a stream read by [ParseAll]. Line is the 1-based
// line on which the board starts (for a malformed board, the line at fault)
// and Format the format it was read in (detected, or the one asked for).
// Err, if not nil, says why the board is malformed; Board is then empty.
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
		return nil, fmt.Errorf("row %d, column %d: blocked squares are for partial boards only", b.Row+1, b.Col+1)
	}
	return p.Queens, nil
}

// ParsePartial reads exactly one board, with its blocked squares, in format
// f ([Auto] detects it). Errors name the line and column at fault.
func ParsePartial(text string, f Format) (Partial, error) {
	var got []Record
	for rec := range ParseAll(strings.NewReader(text), f) {
		if rec.Err != nil {
			return Partial{}, fmt.Errorf("line %d: %w", rec.Line, rec.Err)
		}
		got = append(got, rec)
		if len(got) > 1 {
			return Partial{}, fmt.Errorf("line %d: a second board; give one board only", rec.Line)
		}
	}
	if len(got) == 0 {
		return Partial{}, errors.New("no board found")
	}
	return got[0].Board, nil
}

// ParseAll reads boards one after another. Grid and dots boards are blocks
// of lines separated by blank lines or lines starting with '#' (comments);
// list and JSON boards take one line each, so a file of JSON Lines is read
// as it is. With [Auto] each board's format is detected from its first
// line. A malformed board gives a Record with Err set, and reading goes on
// with the next board; an error of the reader ends the stream with a
// Record holding it. Lines of any length are read (a list of 10^8 queens is
// one line); memory is that of the longest board.
func ParseAll(r io.Reader, f Format) iter.Seq[Record] {
	return func(yield func(Record) bool) {
		br := bufio.NewReaderSize(r, 1<<16)
		var block [][]byte // lines of the grid or dots board being read
		var blockLine int
		var blockFormat Format
		flush := func() bool {
			if len(block) == 0 {
				return true
			}
			var recs []Record
			if f == Auto && blockFormat == Grid && len(block) == 1 {
				// A one-line grid of several cells cannot be square:
				// it is a list of 0s and 1s, such as an empty board.
				rec := Record{Line: blockLine, Format: List}
				rec.Board, rec.Err = parseLine(block[0], List)
				recs = []Record{rec}
			} else {
				recs = parseBlock(block, blockLine, blockFormat)
			}
			block = block[:0]
			for _, rec := range recs {
				if !yield(rec) {
					return false
				}
			}
			return true
		}
		var line []byte
		for lineNo := 1; ; lineNo++ {
			var err error
			line, err = readLine(br, line[:0])
			if err != nil && err != io.EOF {
				if flush() {
					yield(Record{Line: lineNo, Err: err})
				}
				return
			}
			if err == io.EOF && len(line) == 0 {
				flush()
				return
			}
			text := bytes.TrimSpace(line)
			switch {
			case len(text) == 0 || text[0] == '#':
				if !flush() {
					return
				}
			case len(block) > 0:
				block = append(block, bytes.Clone(text))
			default:
				g := f
				if g == Auto {
					g = detect(text)
				}
				switch g {
				case Grid, Dots:
					block, blockLine, blockFormat = append(block, bytes.Clone(text)), lineNo, g
				default:
					rec := Record{Line: lineNo, Format: g}
					rec.Board, rec.Err = parseLine(text, g)
					if !yield(rec) {
						return
					}
				}
			}
			if err == io.EOF {
				flush()
				return
			}
		}
	}
}

// readLine appends the next line of br to buf, without its line ending.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		return buf, err
	}
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

// parseLine reads a one-line board: a list or JSON.
func parseLine(text []byte, f Format) (Partial, error) {
	switch f {
	case List:
		q, err := parseList(text)
		return Partial{Queens: q}, err
	case JSON:
		return parseJSON(text)
	case Grid, Dots:
		recs := parseBlock([][]byte{text}, 1, f)
		return recs[0].Board, recs[0].Err
	}
	return Partial{}, fmt.Errorf("format %q cannot be read", f)
}

// parseList reads "2 4 1 3", "2,4,1,3" or "[2,4,1,3]": 1-based columns, 0 or
// "." for an empty row. Cost O(len(text)), no allocation beyond the board.
func parseList(text []byte) (Placement, error) {
	body := text
	offset := 0
	if len(body) > 0 && body[0] == '[' {
		if body[len(body)-1] != ']' {
			return nil, fmt.Errorf("character %d: the list opens with '[' but does not end with ']'", len(text))
		}
		body, offset = body[1:len(body)-1], 1
	}
	n := 0
	inTok := false
	for _, c := range body {
		sep := c == ' ' || c == ',' || c == '\t' || c == ';'
		if !sep && !inTok {
			n++
		}
		inTok = !sep
	}
	if n == 0 {
		return nil, errors.New("the list holds no columns")
	}
	if n > MaxN {
		return nil, fmt.Errorf("the list has %d rows, more than %d", n, MaxN)
	}
	p := make(Placement, n)
	row := 0
	for i := 0; i < len(body); {
		c := body[i]
		if c == ' ' || c == ',' || c == '\t' || c == ';' {
			if c == ',' && (i == 0 || body[i-1] == ',') {
				return nil, fmt.Errorf("character %d: empty entry between commas (write 0 or . for an empty row)", offset+i+1)
			}
			i++
			continue
		}
		start := i
		for i < len(body) && body[i] != ' ' && body[i] != ',' && body[i] != '\t' && body[i] != ';' {
			i++
		}
		tok := body[start:i]
		col, err := listValue(tok, n)
		if err != nil {
			return nil, fmt.Errorf("character %d (row %d): %w", offset+start+1, row+1, err)
		}
		p[row] = col
		row++
	}
	return p, nil
}

// listValue reads one entry of a list: a 1-based column in 1..n, or 0 or
// "." for an empty row.
func listValue(tok []byte, n int) (int32, error) {
	if len(tok) == 1 && tok[0] == '.' {
		return Empty, nil
	}
	v := 0
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a column number", clip(tok))
		}
		if v > n {
			break // already out of range; stop before the int overflows
		}
		v = v*10 + int(c-'0')
	}
	if v > n {
		return 0, fmt.Errorf("column %s is out of range 1..%d", clip(tok), n)
	}
	return int32(v - 1), nil
}

// clip shortens a token quoted in an error message.
func clip(b []byte) string {
	if len(b) > 24 {
		return string(b[:20]) + "…"
	}
	return string(b)
}

// jsonBoard is the JSON form of a board, 1-based: {"n":4,"queens":[2,4,1,3]}
// with 0 for an empty row, and optional blocked squares [[row, col], …].
type jsonBoard struct {
	N       *int64     `json:"n,omitempty"`
	Queens  []int64    `json:"queens"`
	Blocked [][2]int64 `json:"blocked,omitempty"`
}

// parseJSON reads a JSON object or a plain JSON array of 1-based columns.
func parseJSON(text []byte) (Partial, error) {
	var jb jsonBoard
	if len(text) > 0 && text[0] == '[' {
		if err := json.Unmarshal(text, &jb.Queens); err != nil {
			return Partial{}, jsonError(text, err)
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&jb); err != nil {
			return Partial{}, jsonError(text, err)
		}
		if dec.More() {
			return Partial{}, fmt.Errorf("character %d: text after the JSON object", dec.InputOffset()+1)
		}
		if jb.Queens == nil {
			return Partial{}, errors.New(`the JSON object has no "queens" list`)
		}
	}
	n := len(jb.Queens)
	if n == 0 {
		return Partial{}, errors.New("the board has no rows")
	}
	if jb.N != nil && *jb.N != int64(n) {
		return Partial{}, fmt.Errorf(`"n" is %d but "queens" has %d rows`, *jb.N, n)
	}
	p := Partial{Queens: make(Placement, n)}
	for i, c := range jb.Queens {
		if c < 0 || c > int64(n) {
			return Partial{}, fmt.Errorf("queens[%d] (row %d): column %d is out of range 1..%d (0 for an empty row)", i, i+1, c, n)
		}
		p.Queens[i] = int32(c - 1)
	}
	for i, sq := range jb.Blocked {
		if sq[0] < 1 || sq[0] > int64(n) || sq[1] < 1 || sq[1] > int64(n) {
			return Partial{}, fmt.Errorf("blocked[%d] = [%d, %d] is off the %d×%d board (rows and columns are 1..%d)", i, sq[0], sq[1], n, n, n)
		}
		p.Blocked = append(p.Blocked, Square{Row: int(sq[0] - 1), Col: int(sq[1] - 1)})
	}
	return p, nil
}

// jsonError says where JSON went wrong, as a column of the line.
func jsonError(text []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("character %d: malformed JSON: %v", se.Offset, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("character %d: %s must be %s, not a JSON %s", te.Offset, fieldName(te.Field), te.Type, te.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("character %d: the JSON ends early (a board takes one line)", len(text))
	}
	return fmt.Errorf("malformed JSON: %v", err)
}

func fieldName(f string) string {
	if f == "" {
		return "the board"
	}
	return fmt.Sprintf("%q", f)
}

// parseBlock reads a grid or dots board from its lines (trimmed, non-blank);
// first is the line number of lines[0]. A block of k·n rows of length n is
// k boards written without blank lines between them.
func parseBlock(lines [][]byte, first int, f Format) []Record {
	if f == Dots && len(lines) == 1 && lines[0][0] == '[' {
		var rows []string
		if err := json.Unmarshal(lines[0], &rows); err != nil {
			return []Record{{Line: first, Format: f, Err: jsonError(lines[0], err)}}
		}
		if len(rows) == 0 {
			return []Record{{Line: first, Format: f, Err: errors.New("the board has no rows")}}
		}
		lines = make([][]byte, len(rows))
		for i, r := range rows {
			lines[i] = []byte(r)
		}
		rec := parseRows(lines, first, f)
		rec.Line = first // the whole board is on one line
		return []Record{rec}
	}
	rows := make([][]byte, len(lines))
	for i, l := range lines {
		rows[i] = cells(l)
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
				out = append(out, parseRows(rows[k:k+width], first+k, f))
			}
			return out
		}
	}
	return []Record{parseRows(rows, first, f)}
}

// cells drops the spaces between the cells of a board row ("0 1 0 0").
func cells(line []byte) []byte {
	if bytes.IndexAny(line, " \t") < 0 {
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

// parseRows reads the rows of one grid or dots board.
func parseRows(rows [][]byte, first int, f Format) Record {
	rec := Record{Line: first, Format: f}
	n := len(rows)
	fail := func(row int, format string, args ...any) Record {
		rec.Line, rec.Err = first+row, fmt.Errorf(format, args...)
		return rec
	}
	p := Partial{Queens: New(n)}
	for r, row := range rows {
		if len(row) != n {
			return fail(r, "row %d has %d squares but the board has %d rows; a board is square", r+1, len(row), n)
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
