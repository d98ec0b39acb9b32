package board

import "fmt"

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

// end returns the number, or what is wrong with it.
func (n *jsonNumber) end() (int64, error) {
	n.active = false
	switch {
	case n.bad || n.digits == 0 || n.tok[0] == '+':
		return 0, fmt.Errorf("is not a JSON number: %s", n.text())
	case n.frac:
		return 0, fmt.Errorf("must be a whole number, not %s", n.text())
	case n.tok[0] == '-':
		return -n.v, nil
	}
	return n.v, nil
}
