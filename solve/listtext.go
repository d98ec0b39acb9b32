package solve

import (
	"encoding/binary"

	"github.com/nqueens/nqueens/board"
)

// What a listing's workers put in their chunks: the text of solutions in a
// format (made from package board's appenders, once, into tables), or the
// solutions themselves for [ListEach] and [List].

// chunkKind says what a chunk holds.
type chunkKind uint8

const (
	// kindLines: the text of one-line formats (list, json), complete.
	kindLines chunkKind = iota
	// kindBoards: the text of board formats (grid, dots, unicode) without
	// the "# solution K" lines, which need the solution's number in the
	// whole listing: the ordered writer puts them in.
	kindBoards
	// kindRaw: n bytes a solution, its 0-based columns.
	kindRaw
)

// rowTable is the text of every row of an n-row board in one format,
// shared by the workers of a listing.
type rowTable struct {
	n     int
	kind  chunkKind
	open  []byte
	close [9][]byte // what follows the last row, by orbit size (0: none)
	// For one-line formats every row's text is at most 8 bytes (a
	// separator and up to 2 digits, as n ≤ 64): word[r*n+c] holds it
	// little-endian, wlen[r*n+c] its length.
	word []uint64
	wlen []uint8
	// For board formats, rows[r*n+c] is the text of row r with the queen
	// in column c.
	rows [][]byte
}

func newRowTable(n int, f board.Format) *rowTable {
	t := &rowTable{n: n, kind: kindLines}
	if f.IsBoard() {
		t.kind = kindBoards
		t.rows = make([][]byte, n*n)
		for r := range n {
			for c := range n {
				t.rows[r*n+c] = board.AppendRow(nil, f, n, r, c)
			}
		}
		return t
	}
	t.open = board.AppendOpen(nil, f, n)
	for orbit := range t.close {
		t.close[orbit] = board.AppendClose(nil, f, orbit)
	}
	t.word = make([]uint64, n*n)
	t.wlen = make([]uint8, n*n)
	for r := range n {
		for c := range n {
			var buf [8]byte
			text := board.AppendRow(buf[:0], f, n, r, c)
			t.word[r*n+c] = binary.LittleEndian.Uint64(buf[:])
			t.wlen[r*n+c] = uint8(len(text))
		}
	}
	return t
}

// lineMaker builds the text of one-line solutions, keeping the previous
// line: consecutive solutions in lexicographic order share their first
// rows, whose text is not made again.
type lineMaker struct {
	t    *rowTable
	prev []uint8 // columns of the line held, 255 where unknown
	line []byte  // its text, with 8 bytes to spare for word stores
	end  []int   // end[r+1]: where the text of row r ends; end[0] the opening's
}

func newLineMaker(t *rowTable) *lineMaker {
	n := t.n
	m := &lineMaker{t: t, prev: make([]uint8, n), end: make([]int, n+1)}
	for i := range m.prev {
		m.prev[i] = 255
	}
	m.line = make([]byte, len(t.open)+3*n+8)
	copy(m.line, t.open)
	m.end[0] = len(t.open)
	return m
}

// appendLine appends the text of the solution cols, orbit 0 or its class
// size; the first same rows of cols are known to be those of the last
// line.
func (m *lineMaker) appendLine(dst []byte, cols []uint8, orbit, same int) []byte {
	t, n := m.t, m.t.n
	r := same
	for r < n && cols[r] == m.prev[r] {
		r++
	}
	pos := m.end[r]
	line := m.line
	for ; r < n; r++ {
		c := cols[r]
		m.prev[r] = c
		i := r*n + int(c)
		binary.LittleEndian.PutUint64(line[pos:pos+8], t.word[i])
		pos += int(t.wlen[i])
		m.end[r+1] = pos
	}
	dst = append(dst, line[:pos]...)
	return append(dst, t.close[orbit]...)
}

// appendBoard appends the rows of the board cols in a board format.
func (t *rowTable) appendBoard(dst []byte, cols []uint8) []byte {
	n := t.n
	for r, c := range cols {
		dst = append(dst, t.rows[r*n+int(c)]...)
	}
	return dst
}
