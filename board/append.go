package board

import "strconv"

// The text formats, row by row. Every text that nqueens writes for a board
// is made here, by appending to a byte slice without fmt: [Write] drives
// these functions a row at a time through its buffer, and fast writers of
// many boards (the ordered listing of package solve) build their own
// tables of rows from [AppendRow] once and copy from them.
//
// A board in format f is the concatenation of [AppendOpen], [AppendRow] for
// every row in order, and [AppendClose]. The appenders do not check their
// arguments: columns are assumed in range 0..n-1 or [Empty] (Write checks),
// and the board formats assume n ≤ [MaxBoardN].

// AppendList appends c in the list format with its newline: "2 4 1 3\n".
// Cost O(n).
func AppendList(dst []byte, c Columns) []byte {
	for r := range c.N() {
		dst = appendListRow(dst, r, c.Col(r))
	}
	return append(dst, '\n')
}

// AppendJSON appends c as one line of JSON Lines, {"n":4,"queens":[2,4,1,3]};
// orbit > 0 adds the size of its symmetry class, as a listing of one
// solution per class writes it: {"n":4,"queens":[2,4,1,3],"orbit":2}. A
// board that is not square (a [Rect]) has its columns after n:
// {"n":3,"cols":5,"queens":[1,3,5]}. The text is exactly what
// encoding/json writes for the same fields. Cost O(n).
func AppendJSON(dst []byte, c Columns, orbit int) []byte {
	n := c.N()
	dst = appendJSONOpen(dst, n, ColsOf(c))
	for r := range n {
		dst = appendJSONRow(dst, r, c.Col(r))
	}
	return AppendClose(dst, JSON, orbit)
}

// AppendBoard appends c drawn square by square in f (grid, dots or
// unicode), one line a row of [ColsOf](c) squares. Cost O(rows · columns).
func AppendBoard(dst []byte, c Columns, f Format) []byte {
	n, width := c.N(), ColsOf(c)
	for r := range n {
		dst = appendBoardRow(dst, f, width, r, c.Col(r), nil)
	}
	return dst
}

// AppendHeader appends the comment line that comes before solution k
// (1-based) in a stream of boards in a board format: "# solution 3", or
// with orbit > 0, the size of its symmetry class, "# solution 3 (class of
// 8)". Readers skip it as a comment.
func AppendHeader(dst []byte, k uint64, orbit int) []byte {
	dst = append(dst, "# solution "...)
	dst = strconv.AppendUint(dst, k, 10)
	if orbit > 0 {
		dst = append(dst, " (class of "...)
		dst = strconv.AppendInt(dst, int64(orbit), 10)
		dst = append(dst, ')')
	}
	return append(dst, '\n')
}

// AppendOpen appends what comes before the first row of an n-row board in
// text format f: `{"n":4,"queens":[` in JSON, nothing in the others.
func AppendOpen(dst []byte, f Format, n int) []byte {
	if f == JSON {
		return appendJSONOpen(dst, n, n)
	}
	return dst
}

// AppendRow appends row r of an n-row board in text format f, the queen in
// column col (0-based, or [Empty]), with the separator that comes before
// it: "4" or " 4" in a list, "4" or ",4" in JSON (0 for an empty row), the
// row's squares and a newline in grid, dots and unicode (nothing in the
// picture formats). Cost O(1), O(n) for the board formats.
func AppendRow(dst []byte, f Format, n, r, col int) []byte {
	switch f {
	case List:
		return appendListRow(dst, r, col)
	case JSON:
		return appendJSONRow(dst, r, col)
	}
	return appendBoardRow(dst, f, n, r, col, nil)
}

// AppendClose appends what comes after the last row in text format f:
// the newline of a list, the end of the JSON object (with "orbit" when
// orbit > 0, see [AppendJSON]) and its newline, nothing in the board
// formats.
func AppendClose(dst []byte, f Format, orbit int) []byte {
	switch f {
	case List:
		return append(dst, '\n')
	case JSON:
		dst = append(dst, ']')
		if orbit > 0 {
			dst = append(dst, `,"orbit":`...)
			dst = strconv.AppendInt(dst, int64(orbit), 10)
		}
		return append(dst, "}\n"...)
	}
	return dst
}

func appendListRow(dst []byte, r, col int) []byte {
	if r > 0 {
		dst = append(dst, ' ')
	}
	return strconv.AppendInt(dst, int64(col+1), 10)
}

// appendJSONOpen opens the JSON object of a board of n rows and cols
// columns; "cols" is written only when they differ.
func appendJSONOpen(dst []byte, n, cols int) []byte {
	dst = append(dst, `{"n":`...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	if cols != n {
		dst = append(dst, `,"cols":`...)
		dst = strconv.AppendInt(dst, int64(cols), 10)
	}
	return append(dst, `,"queens":[`...)
}

func appendJSONRow(dst []byte, r, col int) []byte {
	if r > 0 {
		dst = append(dst, ',')
	}
	return strconv.AppendInt(dst, int64(col+1), 10)
}

// Unicode board squares: light and dark squares alternate as on a chess
// board (the top-left square is light), cells are separated by a space.
const (
	uniQueen   = "♛"
	uniLight   = "□"
	uniDark    = "■"
	uniBlocked = "✕"
)

// appendBoardRow appends row r of a board of n columns in grid, dots or
// unicode, with its newline; isBlocked holds the blocked squares (nil for
// none).
func appendBoardRow(dst []byte, f Format, n, r, col int, isBlocked map[Square]bool) []byte {
	if !f.IsBoard() {
		return dst // not a text format of this file: nothing to append
	}
	for k := range n {
		switch f {
		case Grid:
			if k == col {
				dst = append(dst, '1')
			} else {
				dst = append(dst, '0')
			}
		case Dots:
			switch {
			case k == col:
				dst = append(dst, 'Q')
			case isBlocked[Square{r, k}]:
				dst = append(dst, 'x')
			default:
				dst = append(dst, '.')
			}
		case Unicode:
			if k > 0 {
				dst = append(dst, ' ')
			}
			switch {
			case k == col:
				dst = append(dst, uniQueen...)
			case isBlocked[Square{r, k}]:
				dst = append(dst, uniBlocked...)
			case (r+k)%2 == 0:
				dst = append(dst, uniLight...)
			default:
				dst = append(dst, uniDark...)
			}
		}
	}
	return append(dst, '\n')
}
