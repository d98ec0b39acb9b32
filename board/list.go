package board

import (
	"bufio"
	"errors"
	"strconv"

	"github.com/nqueens/nqueens/i18n"
)

// The list grammar: "2 4 1 3", "2,4,1,3" or "[2,4,1,3]", 1-based columns,
// 0 or "." for an empty row, entries separated by white space, commas or
// semicolons. It has one reader, [listScanner], which takes the line a
// piece at a time, so that a line held whole and a line too long to hold
// are read alike.

// isListSep reports whether c separates the entries of a list.
func isListSep(c byte) bool {
	return c == ' ' || c == ',' || c == ';' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// clipLen is how many bytes of a token an error message quotes; longer
// tokens are cut to clipKeep bytes and "…".
const (
	clipLen  = 24
	clipKeep = 20
)

// clip shortens a token quoted in an error message.
func clip(b []byte) string {
	if len(b) > clipLen {
		return string(b[:clipKeep]) + "…"
	}
	return string(b)
}

// listScanner reads one list line from the pieces given to feed, keeping
// only the columns. Positions in messages are 1-based bytes of the line.
type listScanner struct {
	pos      int  // bytes of the line seen
	started  bool // past the leading white space
	bracket  bool // the list opened with '['
	closed   bool // and its ']' has been seen
	last     int  // position of the last byte that is not white space
	prev     byte // the byte before, ',' at the start so that a leading comma is an empty entry
	inTok    bool
	tokStart int           // position of the token's first byte
	tok      [clipLen]byte // its first bytes, for messages
	tokLen   int
	notNum   bool  // the token holds something other than digits
	v        int64 // its value, capped at MaxN+1
	cols     columnBuffer
	// limit is the largest 1-based column not worth noting: MaxN while n
	// is unknown; n when a line held whole is read again to find where
	// its first column out of range stands.
	limit int64
	// width is the board's number of columns, 0 when it has as many as
	// rows (known only at the end).
	width  int
	over   int // first row whose column is over limit, or -1
	overAt int // and where its token starts
	// overTok is that token as messages quote it.
	overTok string
	err     error
}

// newListScanner starts a line whose first byte fed is at position lead+1,
// of a board of width columns (0: square).
func newListScanner(lead int, limit int64, width int) *listScanner {
	if width > 0 {
		limit = int64(width)
	}
	return &listScanner{pos: lead, limit: limit, width: width, over: -1}
}

// parseList reads a list held whole, of a board of width columns (0:
// square); lead is the number of bytes before text on its line. Cost
// O(len(text)), no allocation beyond the board. A column out of range is
// named by its character, on a square board found by a second pass once n
// is known.
func parseList(text []byte, lead, width int) (Placement, error) {
	s := newListScanner(lead, MaxN, width)
	s.feed(text)
	p, err := s.end()
	var re *columnRangeError
	if errors.As(err, &re) {
		s = newListScanner(lead, int64(re.n), width)
		s.feed(text)
		_, err = s.end()
	}
	return p, err
}

// streamList reads a list line too long to hold as text: first is the part
// of it already read, the rest comes from br a buffer at a time. A column
// out of range (known only at the end, when n is) is named by its row
// alone, unless it is out of range of every board. rerr is an error of the
// reader, or io.EOF when the line was the last.
func streamList(br *bufio.Reader, first []byte, width int) (p Placement, err, rerr error) {
	s := newListScanner(0, MaxN, width)
	s.feed(first)
	rerr = feedLine(br, s.feed)
	p, err = s.end()
	return p, err, rerr
}

// feedLine hands the rest of the line, without its '\n', to feed a buffer
// at a time. It returns nil at the end of the line, or io.EOF or the error
// of the reader.
func feedLine(br *bufio.Reader, feed func([]byte)) error {
	for {
		chunk, err := br.ReadSlice('\n')
		switch err {
		case bufio.ErrBufferFull:
			feed(chunk)
			continue
		case nil:
			feed(chunk[:len(chunk)-1])
		default: // io.EOF, or the reader failed
			feed(chunk)
		}
		return err
	}
}

func (s *listScanner) feed(b []byte) {
	base := s.pos // b[i] is at position base+i+1
	s.pos += len(b)
	for i := 0; i < len(b); i++ {
		if s.err != nil {
			return
		}
		c := b[i]
		if c >= '0' && c <= '9' && s.started && !s.closed {
			i = s.digits(b, i, base) - 1
			continue
		}
		s.other(c, base+i+1)
	}
}

// digits reads the run of digits starting at b[i], the common case, in a
// tight loop, and returns where the run ends.
func (s *listScanner) digits(b []byte, i, base int) int {
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
	return j
}

// other reads any byte but a digit inside the list, at position pos.
func (s *listScanner) other(c byte, pos int) {
	space := c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
	if !space {
		s.last = pos
	}
	switch {
	case !s.started:
		if space {
			return
		}
		s.started, s.prev = true, ','
		if c == '[' {
			s.bracket = true
			return
		}
	case s.closed:
		if !space {
			s.err = atChar(pos, errT("board.list.bracket", nil))
		}
		return
	}
	if s.bracket && c == ']' {
		s.endToken()
		s.closed = true
		return
	}
	if isListSep(c) {
		if c == ',' && s.prev == ',' {
			s.err = atChar(pos, errT("board.list.emptyentry", nil))
			return
		}
		s.endToken()
		s.prev = c
		return
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

// clipped is the token as clip shows it.
func (s *listScanner) clipped() string {
	if s.tokLen > len(s.tok) {
		return string(s.tok[:clipKeep]) + "…"
	}
	return string(s.tok[:s.tokLen])
}

func (s *listScanner) endToken() {
	if !s.inTok || s.err != nil {
		return
	}
	s.inTok = false
	col := s.v - 1
	rows := s.cols.n
	switch {
	case s.tokLen == 1 && s.tok[0] == '.':
		col = Empty
	case s.notNum:
		s.err = atCharRow(s.tokStart, rows+1, errT("board.list.notcolumn", i18n.Args{"Text": strconv.Quote(s.clipped())}))
		return
	case rows == MaxN:
		s.err = atChar(s.tokStart, errT("board.list.toomany", i18n.Args{"Max": itoa(MaxN)}))
		return
	case s.v > s.limit && s.over < 0:
		s.over, s.overAt, s.overTok = rows, s.tokStart, s.clipped()
	}
	s.cols.add(int32(min(col, MaxN))) // MaxN is out of range of every board
}

// columnRangeError is a column out of range that the scanner can name by
// its row only.
type columnRangeError struct{ row, col, n int }

func (e *columnRangeError) Error() string { return e.Unwrap().Error() }

// Unwrap is the [Problem] the column is: a well-formed list whose column is
// past n is a board with a column out of range, as verify reports it.
func (e *columnRangeError) Unwrap() error {
	return &Problem{Kind: OutOfRange, N: e.n, Row: e.row, Col: e.col}
}

// locatedProblem is a [Problem] named by where it stands in the text.
type locatedProblem struct {
	msg error // an i18n.Error
	p   *Problem
}

func (e *locatedProblem) Error() string { return e.msg.Error() }
func (e *locatedProblem) Unwrap() error { return e.p }

// Localize is the message in p's language.
func (e *locatedProblem) Localize(p *i18n.Printer) string { return p.Err(e.msg) }

// Localize is the message in p's language: the Problem's.
func (e *columnRangeError) Localize(p *i18n.Printer) string { return p.Err(e.Unwrap()) }

// end finishes the line and returns its columns, checked against n.
func (s *listScanner) end() (Placement, error) {
	s.endToken()
	switch {
	case s.err != nil:
		s.cols.discard()
		return nil, s.err
	case s.bracket && !s.closed:
		s.cols.discard()
		return nil, atChar(s.last, errT("board.list.bracket", nil))
	case s.cols.n == 0:
		return nil, errT("board.list.nocolumns", nil)
	}
	p := s.cols.finish()
	n := len(p)
	if s.width > 0 {
		n = s.width
	}
	for r, c := range p {
		if int(c) < n {
			continue
		}
		if r == s.over {
			msg := atCharRow(s.overAt, r+1, errT("board.list.colrange", i18n.Args{"Col": s.overTok, "N": itoa(n)}))
			if c == MaxN { // clipped: the number is past every board's columns
				return nil, msg
			}
			return nil, &locatedProblem{msg, &Problem{Kind: OutOfRange, N: n, Row: r, Col: int(c)}}
		}
		return nil, &columnRangeError{row: r, col: int(c), n: n}
	}
	return p, nil
}
