package board

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/nqueens/nqueens/i18n"
)

// MaxBoardN is the largest board drawn square by square in the grid, dots
// and unicode formats: a bigger one is megabytes of text no one reads.
const MaxBoardN = 1000

// writeBuffer is the size of the buffer a board is written through: a
// board of 10^9 rows streams out in writes this large.
const writeBuffer = 1 << 16

// MaxWriteN returns the largest n that [Write] accepts in format f.
func MaxWriteN(f Format) int {
	if f.IsBoard() {
		return MaxBoardN
	}
	return MaxN
}

// Write writes the board c in format f, ending with a newline (except PNG).
// c is read row by row through c.Col, so a closed-form board of 10^9 rows
// streams in list or JSON format in constant memory; grid, dots and
// unicode refuse boards over [MaxWriteN] rows; SVG and PNG draw boards
// over [MaxDetailN] rows as queen density per pixel. Cost O(n) (O(n²) for
// the board formats).
func Write(w io.Writer, c Columns, f Format) error {
	return write(w, c, nil, f)
}

// WritePartial writes a partial board in format f: empty rows are 0 in a
// list and JSON, blank rows in board formats; blocked squares are 'x' in
// dots, a "blocked" list in JSON, shaded in pictures, and an error in list
// and grid formats, which cannot show them.
func WritePartial(w io.Writer, p Partial, f Format) error {
	if len(p.Blocked) > 0 && (f == List || f == Grid) {
		return i18n.NewError("board.format.noblocked", i18n.Args{"Format": string(f), "Others": orList{"dots", "unicode", "json", "svg", "png"}})
	}
	if err := p.blockedOnBoard(); err != nil {
		return err
	}
	return write(w, p.Board(), p.Blocked, f)
}

func write(w io.Writer, c Columns, blocked []Square, f Format) error {
	n, cols := c.N(), ColsOf(c)
	if n < 1 || cols < 1 {
		return errT("board.format.empty", nil)
	}
	if limit := MaxWriteN(f); max(n, cols) > limit {
		return errT("board.format.toolarge", i18n.Args{"N": itoa(max(n, cols)), "Format": string(f), "Limit": itoa(limit)})
	}
	bw := bufio.NewWriterSize(w, writeBuffer)
	var err error
	switch f {
	case List:
		err = writeList(bw, c)
	case JSON:
		err = writeJSON(bw, c, blocked)
	case Grid, Dots, Unicode:
		err = writeBoard(bw, c, blocked, f)
	case SVG:
		err = writeSVG(bw, c, blocked)
	case PNG:
		err = writePNG(bw, c, blocked)
	default:
		return errT("board.format.unwritable", i18n.Args{"Format": strconv.Quote(string(f))})
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// column reads row r of c, checking that it is a column or Empty.
func column(c Columns, r int) (int, error) {
	col := c.Col(r)
	if w := ColsOf(c); col != Empty && (col < 0 || col >= w) {
		return 0, errT("board.problem.range", i18n.Args{"Row": itoa(r + 1), "Col": itoa(col + 1), "N": itoa(w)})
	}
	return col, nil
}

// writeRows writes c row by row, each row as appendRow appends it (col is
// the row's column, or Empty), and stops at the first write error, as
// failed says why.
func writeRows(w *bufio.Writer, c Columns, appendRow func(dst []byte, r, col int) []byte) error {
	for r := range c.N() {
		col, err := column(c, r)
		if err != nil {
			return err
		}
		if _, err := w.Write(appendRow(w.AvailableBuffer(), r, col)); err != nil {
			return err
		}
	}
	return nil
}

func writeList(w *bufio.Writer, c Columns) error {
	if err := writeRows(w, c, appendListRow); err != nil {
		return err
	}
	_, err := w.WriteString("\n")
	return err
}

func writeJSON(w *bufio.Writer, c Columns, blocked []Square) error {
	w.Write(appendJSONOpen(w.AvailableBuffer(), c.N(), ColsOf(c)))
	if err := writeRows(w, c, appendJSONRow); err != nil {
		return err
	}
	w.WriteString("]")
	if len(blocked) > 0 {
		w.WriteString(`,"blocked":[`)
		for i, b := range blocked {
			if i > 0 {
				w.WriteByte(',')
			}
			fmt.Fprintf(w, "[%d,%d]", b.Row+1, b.Col+1)
		}
		w.WriteString("]")
	}
	_, err := w.WriteString("}\n")
	return err
}

// failed returns the error of an earlier write to w, if any: bufio keeps
// it, and a writer whose reader went away must not go on formatting a huge
// board into nothing.
func failed(w *bufio.Writer) error {
	_, err := w.Write(nil)
	return err
}

func writeBoard(w *bufio.Writer, c Columns, blocked []Square, f Format) error {
	width, isBlocked := ColsOf(c), blockedSet(blocked)
	return writeRows(w, c, func(dst []byte, r, col int) []byte {
		return appendBoardRow(dst, f, width, r, col, isBlocked)
	})
}

func blockedSet(blocked []Square) map[Square]bool {
	if len(blocked) == 0 {
		return nil
	}
	m := make(map[Square]bool, len(blocked))
	for _, b := range blocked {
		m[b] = true
	}
	return m
}
