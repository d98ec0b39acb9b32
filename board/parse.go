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
// Record holding it. Lines of any length are read: a list line longer than
// 64 KiB (10^8 queens, say) is parsed as it streams in, so memory is that
// of the [Placement] alone; other boards are held as text while parsed.
func ParseAll(r io.Reader, f Format) iter.Seq[Record] {
	return parseAll(r, f, 1<<16)
}

// parseAll is [ParseAll] with the size of the read buffer, which is also
// the length from which list lines are streamed (tests make it tiny).
func parseAll(r io.Reader, f Format, bufSize int) iter.Seq[Record] {
	return func(yield func(Record) bool) {
		br := bufio.NewReaderSize(r, bufSize)
		var block [][]byte // lines of the grid or dots board being read
		var blockLine, blockLead int
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
				rec.Board, rec.Err = parseLine(block[0], blockLead, List)
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
			chunk, err := br.ReadSlice('\n')
			if err == bufio.ErrBufferFull && len(block) == 0 {
				switch longLine(chunk, f) {
				case "#":
					if err = skipLine(br); err == nil {
						continue
					}
					if flush() && err != io.EOF {
						yield(Record{Line: lineNo, Err: err})
					}
					return
				case List:
					rec := Record{Line: lineNo, Format: List}
					var q Placement
					q, rec.Err, err = streamList(br, chunk)
					rec.Board.Queens = q
					if err != nil && err != io.EOF {
						yield(Record{Line: lineNo, Err: err})
						return
					}
					if !yield(rec) || err == io.EOF {
						return
					}
					continue
				}
			}
			line = append(line[:0], chunk...)
			if err == bufio.ErrBufferFull {
				line, err = readLine(br, line)
			}
			line = bytes.TrimSuffix(line, []byte("\n"))
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
			text := trimSpace(line)
			lead := len(line) - len(bytes.TrimLeft(line, asciiSpace))
			switch {
			case len(text) == 0 || text[0] == '#':
				if !flush() {
					return
				}
			case len(block) > 0 && text[0] != '{' && text[0] != '[':
				block = append(block, bytes.Clone(text))
			default:
				// A line opening with '{' or '[' is never a row of a grid
				// or dots board: it ends the block before it.
				if !flush() {
					return
				}
				g := f
				if g == Auto {
					g = detect(text)
				}
				if (g == Grid || g == Dots) && text[0] != '[' {
					block, blockLine, blockLead, blockFormat = append(block, bytes.Clone(text)), lineNo, lead, g
					break
				}
				rec := Record{Line: lineNo, Format: g}
				rec.Board, rec.Err = parseLine(text, lead, g)
				if !yield(rec) {
					return
				}
			}
			if err == io.EOF {
				flush()
				return
			}
		}
	}
}

// asciiSpace is the white space trimmed from the ends of a line. Only
// ASCII, so that a line streamed in chunks and a line held whole agree.
const asciiSpace = " \t\r\v\f"

func trimSpace(b []byte) []byte { return bytes.Trim(b, asciiSpace) }

// readLine appends the rest of the line to buf, up to and including its
// '\n', however long the line is.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// skipLine reads past the rest of the line without keeping it.
func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// longLine decides, from the first buffer-full of a line too long for the
// buffer, how to read the rest: '#' for a comment to skip, [List] for a list
// to stream, "" for anything else (held whole). A long line of 0s and 1s is
// a list: a grid row that long would make a board of billions of squares.
func longLine(chunk []byte, f Format) Format {
	prefix := bytes.TrimLeft(chunk, asciiSpace)
	if len(prefix) == 0 {
		return ""
	}
	switch {
	case prefix[0] == '#':
		return "#"
	case f == List:
		return List
	case f == Auto && prefix[0] != '{':
		if g := detect(prefix); g == List || g == Grid {
			return List
		}
	}
	return ""
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

// parseLine reads a one-line board: a list or JSON (or LeetCode's dots
// array). lead is the number of bytes before text on its line, so that
// errors name the character of the line.
func parseLine(text []byte, lead int, f Format) (Partial, error) {
	switch f {
	case List:
		q, err := parseList(text, lead)
		return Partial{Queens: q}, err
	case JSON:
		return parseJSON(text, lead)
	case Dots, Grid:
		if f == Dots && text[0] == '[' {
			return parseLeetCode(text, lead)
		}
		recs := parseBlock([][]byte{text}, 1, f)
		if len(recs) > 1 {
			return Partial{}, errors.New("a board of several rows takes several lines")
		}
		return recs[0].Board, recs[0].Err
	}
	return Partial{}, fmt.Errorf("format %q cannot be read", f)
}

// isListSep reports whether c separates the entries of a list.
func isListSep(c byte) bool {
	return c == ' ' || c == ',' || c == ';' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// parseList reads "2 4 1 3", "2,4,1,3" or "[2,4,1,3]": 1-based columns, 0 or
// "." for an empty row. Cost O(len(text)), no allocation beyond the board.
// [streamList] reads the same language from a stream.
func parseList(text []byte, lead int) (Placement, error) {
	body := text
	offset := lead
	if len(body) > 0 && body[0] == '[' {
		if body[len(body)-1] != ']' {
			return nil, fmt.Errorf("character %d: the list opens with '[' but does not end with ']'", lead+len(text))
		}
		body, offset = body[1:len(body)-1], lead+1
	}
	n := 0
	inTok := false
	for _, c := range body {
		sep := isListSep(c)
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
		if isListSep(c) {
			if c == ',' && (i == 0 || body[i-1] == ',') {
				return nil, fmt.Errorf("character %d: empty entry between commas (write 0 or . for an empty row)", offset+i+1)
			}
			i++
			continue
		}
		start := i
		for i < len(body) && !isListSep(body[i]) {
			i++
		}
		tok := body[start:i]
		col, err := listValue(tok)
		if err == nil && col >= int64(n) {
			err = fmt.Errorf("column %s is out of range 1..%d", clip(tok), n)
		}
		if err != nil {
			return nil, fmt.Errorf("character %d (row %d): %w", offset+start+1, row+1, err)
		}
		p[row] = int32(col)
		row++
	}
	return p, nil
}

// listValue reads one entry of a list, a 1-based column or 0 or "." for an
// empty row, as a 0-based column or Empty. Values over MaxN come out as
// MaxN, out of range of every board, so that no int overflows.
func listValue(tok []byte) (int64, error) {
	if len(tok) == 1 && tok[0] == '.' {
		return Empty, nil
	}
	v := int64(0)
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a column number", clip(tok))
		}
		v = min(v*10+int64(c-'0'), MaxN+1)
	}
	return v - 1, nil
}

// clip shortens a token quoted in an error message.
func clip(b []byte) string {
	if len(b) > 24 {
		return string(b[:20]) + "…"
	}
	return string(b)
}

// streamList reads a list line too long to hold as text: first is the part
// of it already read, the rest comes from br a buffer at a time, and only
// the columns are kept. It accepts what [parseList] accepts, with the same
// errors, except that a column out of range (known only at the end, when n
// is) is named by its row alone. rerr is an error of the reader, or io.EOF
// when the line was the last.
func streamList(br *bufio.Reader, first []byte) (p Placement, err, rerr error) {
	var s listStream
	s.feed(first)
	for {
		chunk, e := br.ReadSlice('\n')
		switch e {
		case bufio.ErrBufferFull:
			s.feed(chunk)
			continue
		case nil:
			s.feed(chunk[:len(chunk)-1])
		default: // io.EOF, or the reader failed
			s.feed(chunk)
			rerr = e
		}
		break
	}
	p, err = s.end()
	return p, err, rerr
}

// listStream is the state of [streamList] between buffers.
type listStream struct {
	pos      int  // bytes of the line seen
	started  bool // past the leading white space
	bracket  bool // the list opened with '['
	closed   bool // and its ']' has been seen
	last     int  // position of the last byte that is not white space
	prev     byte // the byte before, ',' at the start so that a leading comma is an empty entry
	inTok    bool
	tokStart int      // position of the token's first byte
	tok      [24]byte // its first bytes, for messages
	tokLen   int
	notNum   bool  // the token holds something other than digits
	v        int64 // its value, capped at MaxN+1
	rows     int
	cur      Placement   // columns of the rows since the last full chunk
	full     []Placement // full chunks of columns
	over     int         // first row with a column over MaxN, or -1
	overAt   int         // and where it starts
	overTok  string
	err      error
}

// streamChunk is the number of columns a chunk of [listStream] holds: big
// enough that chunks are few, small enough to waste little.
const streamChunk = 1 << 16

func (s *listStream) feed(b []byte) {
	base := s.pos // b[i] is at position base+i+1
	s.pos += len(b)
	for i := 0; i < len(b); i++ {
		if s.err != nil {
			return
		}
		c := b[i]
		if c >= '0' && c <= '9' && s.started && !s.closed {
			// The common case, a run of digits, in a tight loop.
			if !s.inTok {
				s.inTok, s.tokStart, s.tokLen, s.notNum, s.v = true, base+i+1, 0, false, 0
			}
			j, v := i, s.v
			for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
				v = min(v*10+int64(b[j]-'0'), MaxN+1)
			}
			if s.tokLen < len(s.tok) {
				copy(s.tok[s.tokLen:], b[i:j])
			}
			s.v, s.tokLen, s.last, s.prev = v, s.tokLen+j-i, base+j, b[j-1]
			i = j - 1
			continue
		}
		pos := base + i + 1
		space := c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
		if !space {
			s.last = pos
		}
		switch {
		case !s.started:
			if space {
				continue
			}
			s.started, s.prev, s.over = true, ',', -1
			if c == '[' {
				s.bracket = true
				continue
			}
		case s.closed:
			if !space {
				s.err = fmt.Errorf("character %d: the list opens with '[' but does not end with ']'", pos)
			}
			continue
		}
		if s.bracket && c == ']' {
			s.endToken()
			s.closed = true
			continue
		}
		if isListSep(c) {
			if c == ',' && s.prev == ',' {
				s.err = fmt.Errorf("character %d: empty entry between commas (write 0 or . for an empty row)", pos)
				return
			}
			s.endToken()
			s.prev = c
			continue
		}
		s.prev = c
		if !s.inTok {
			s.inTok, s.tokStart, s.tokLen, s.notNum, s.v = true, pos, 0, false, 0
		}
		if s.tokLen < len(s.tok) {
			s.tok[s.tokLen] = c
		}
		s.tokLen++
		if c < '0' || c > '9' {
			s.notNum = true
		} else {
			s.v = min(s.v*10+int64(c-'0'), MaxN+1)
		}
	}
}

// clipped is the token as clip shows it.
func (s *listStream) clipped() string {
	if s.tokLen > len(s.tok) {
		return string(s.tok[:20]) + "…"
	}
	return string(s.tok[:s.tokLen])
}

func (s *listStream) endToken() {
	if !s.inTok || s.err != nil {
		return
	}
	s.inTok = false
	col := s.v - 1
	switch {
	case s.tokLen == 1 && s.tok[0] == '.':
		col = Empty
	case s.notNum:
		s.err = fmt.Errorf("character %d (row %d): %q is not a column number", s.tokStart, s.rows+1, s.clipped())
		return
	case s.rows == MaxN:
		s.err = fmt.Errorf("character %d: the list has more than %d rows", s.tokStart, MaxN)
		return
	case col >= MaxN:
		col = MaxN // out of range of every board; end says so
		if s.over < 0 {
			s.over, s.overAt, s.overTok = s.rows, s.tokStart, s.clipped()
		}
	}
	if len(s.cur) == streamChunk {
		s.full = append(s.full, s.cur)
		s.cur = nil
	}
	if s.cur == nil {
		s.cur = make(Placement, 0, streamChunk)
	}
	s.cur = append(s.cur, int32(col))
	s.rows++
}

// end finishes the line and returns its columns, checked against n.
func (s *listStream) end() (Placement, error) {
	s.endToken()
	switch {
	case s.err != nil:
		return nil, s.err
	case s.bracket && !s.closed:
		return nil, fmt.Errorf("character %d: the list opens with '[' but does not end with ']'", s.last)
	case s.rows == 0:
		return nil, errors.New("the list holds no columns")
	}
	n := s.rows
	p := s.cur
	if len(s.full) > 0 {
		p = make(Placement, 0, n)
		for i, c := range s.full {
			p = append(p, c...)
			s.full[i] = nil // the collector may take it back now
		}
		p = append(p, s.cur...)
	}
	s.full, s.cur = nil, nil
	for r, c := range p {
		if int(c) >= n {
			if r == s.over {
				return nil, fmt.Errorf("character %d (row %d): column %s is out of range 1..%d", s.overAt, r+1, s.overTok, n)
			}
			return nil, fmt.Errorf("row %d: column %d is out of range 1..%d", r+1, int(c)+1, n)
		}
	}
	return p, nil
}

// jsonBoard is the JSON form of a board, 1-based: {"n":4,"queens":[2,4,1,3]}
// with 0 for an empty row, and optional blocked squares [[row, col], …].
type jsonBoard struct {
	N       *int64     `json:"n,omitempty"`
	Queens  []int64    `json:"queens"`
	Blocked [][2]int64 `json:"blocked,omitempty"`
}

// parseJSON reads a JSON object or a plain JSON array of 1-based columns.
func parseJSON(text []byte, lead int) (Partial, error) {
	var jb jsonBoard
	if len(text) > 0 && text[0] == '[' {
		if err := json.Unmarshal(text, &jb.Queens); err != nil {
			return Partial{}, jsonError(text, lead, err)
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&jb); err != nil {
			return Partial{}, jsonError(text, lead, err)
		}
		if dec.More() {
			return Partial{}, fmt.Errorf("character %d: text after the JSON object", lead+int(dec.InputOffset())+1)
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
func jsonError(text []byte, lead int, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("character %d: malformed JSON: %v", int64(lead)+se.Offset, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("character %d: %s must be %s, not a JSON %s", int64(lead)+te.Offset, fieldName(te.Field), te.Type, te.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("character %d: the JSON ends early (a board takes one line)", lead+len(text))
	}
	return fmt.Errorf("malformed JSON: %v", err)
}

func fieldName(f string) string {
	if f == "" {
		return "the board"
	}
	return fmt.Sprintf("%q", f)
}

// parseLeetCode reads LeetCode's one-line dots board [".Q..","...Q",…].
func parseLeetCode(text []byte, lead int) (Partial, error) {
	var rows []string
	if err := json.Unmarshal(text, &rows); err != nil {
		return Partial{}, jsonError(text, lead, err)
	}
	if len(rows) == 0 {
		return Partial{}, errors.New("the board has no rows")
	}
	lines := make([][]byte, len(rows))
	for i, r := range rows {
		lines[i] = []byte(r)
	}
	rec := parseRows(lines, 1, Dots)
	return rec.Board, rec.Err
}

// parseBlock reads a grid or dots board from its lines (trimmed, non-blank);
// first is the line number of lines[0]. A block of k·n rows of length n is
// k boards written without blank lines between them.
func parseBlock(lines [][]byte, first int, f Format) []Record {
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
