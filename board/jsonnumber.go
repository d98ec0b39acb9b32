package board

import (
	"fmt"

	"github.com/nqueens/nqueens/i18n"
)

// jsonNumber reads a JSON number, which must be whole: -?(0|[1-9][0-9]*).
type jsonNumber struct {
	active bool
	at     int // position of its first byte
	tok    [clipLen]byte
	tokLen int
	v      int64 // its magnitude, capped at MaxN+1
	digits int
	frac   bool // a '.', 'e' or 'E': JSON, but not a whole number
	bad    bool // a sign after the start, or a leading zero
}

func (n *jsonNumber) start(c byte, pos int) {
	*n = jsonNumber{active: true, at: pos}
	b := [1]byte{c}
	n.read(b[:])
}

// read takes the bytes of the number at the start of b and returns how
// many there were.
func (n *jsonNumber) read(b []byte) int {
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			if n.digits == 1 && n.v == 0 && !n.frac {
				n.bad = true // a leading zero
			}
			n.digits++
			n.v = min(n.v*10+int64(c-'0'), MaxN+1)
		case c == '.' || c == 'e' || c == 'E':
			n.frac = true
		case c == '-' || c == '+':
			n.bad = n.bad || n.tokLen > 0 && !n.frac
		default:
			return i
		}
		if n.tokLen < len(n.tok) {
			n.tok[n.tokLen] = c
		}
		n.tokLen++
	}
	return len(b)
}

// text is the number as written, clipped for messages.
func (n *jsonNumber) text() string {
	if n.tokLen > len(n.tok) {
		return string(n.tok[:clipKeep]) + "…"
	}
	return string(n.tok[:n.tokLen])
}

// end returns the number, or the key of the message that says what is
// wrong with it ("" if nothing).
func (n *jsonNumber) end() (int64, string) {
	n.active = false
	switch {
	case n.bad || n.digits == 0 || n.tok[0] == '+':
		return 0, "board.json.notnumber"
	case n.frac:
		return 0, "board.json.notwhole"
	case n.tok[0] == '-':
		return -n.v, ""
	}
	return n.v, ""
}

// startNumber begins a number at c, or says why c cannot begin one.
func (s *jsonScanner) startNumber(c byte, pos int) {
	if c != '-' && (c < '0' || c > '9') {
		key := "board.json.wantcol"
		switch {
		case s.field == fieldN || s.field == fieldCols || s.field == fieldOrbit:
			key = "board.json.wantwhole"
		case s.field == fieldBlocked:
			key = "board.json.wantrowcol"
		}
		s.fail(pos, key, i18n.Args{"Where": s.where(), "Got": describe(c)})
		return
	}
	s.num.start(c, pos)
}

// where names the value being read, for messages: "n", queens[3], blocked[1].
func (s *jsonScanner) where() string {
	switch {
	case s.field == fieldN || s.field == fieldCols || s.field == fieldOrbit:
		return fieldNames[s.field]
	case s.field == fieldBlocked:
		return fmt.Sprintf("blocked[%d]", len(s.blocked))
	case s.array:
		return fmt.Sprintf("[%d]", s.cols.n)
	}
	return fmt.Sprintf("queens[%d]", s.cols.n)
}

// endNumber stores the number just read.
func (s *jsonScanner) endNumber() {
	v, bad := s.num.end()
	s.last = s.num.at + s.num.tokLen - 1
	if bad != "" {
		s.fail(s.num.at, bad, i18n.Args{"Where": s.where(), "Text": s.num.text()})
		return
	}
	switch s.field {
	case fieldN:
		s.n, s.nTok, s.state = v, s.num.text(), jsMemberEnd
	case fieldCols:
		s.width, s.wTok, s.state = v, s.num.text(), jsMemberEnd
	case fieldOrbit:
		if v < 1 || v > 8 {
			s.fail(s.num.at, "board.json.orbit", i18n.Args{"Value": s.num.text()})
		}
		s.state = jsMemberEnd
	case fieldQueens:
		if (v < 0 || v > MaxN) && s.bad < 0 {
			s.bad, s.badTok = s.cols.n, s.num.text()
		}
		col := int32(Empty - 1) // negative: out of range of every board
		if v >= 0 {
			col = int32(min(v, MaxN+1) - 1)
		}
		s.cols.add(col)
		s.state = jsColsNext
	case fieldBlocked:
		if v < 1 || v > MaxN {
			s.pairOff = true
		}
		s.pairTok[s.inPair] = s.num.text()
		s.pair[s.inPair] = max(min(v, MaxN+1), 0) // 0 and MaxN+1 are off every board
		s.inPair++
		s.state = jsSquareComma
		if s.inPair == 2 {
			s.state = jsSquareClose
		}
	}
}
