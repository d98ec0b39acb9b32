package board

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"iter"

	"github.com/nqueens/nqueens/i18n"
)

// ParseAll reads boards one after another. Grid and dots boards are blocks
// of lines separated by blank lines or lines starting with '#' (comments);
// list and JSON boards take one line each, so a file of JSON Lines is read
// as it is. With [Auto] each board's format is detected from its first
// line. A UTF-8 byte-order mark at the start of a line is skipped.
//
// A malformed board gives a Record with Err set, and reading goes on with
// the next board. An error of the reader ends the sequence: it is the
// error of the last pair, whose Record holds only the line being read.
//
// Lines of any length are read: a list or JSON line longer than 64 KiB (a
// board of 10^8 queens, say) is parsed as it streams in, so that memory is
// that of the [Placement] alone, about 4 bytes a row at its peak on Linux
// (8 elsewhere); other boards are held as text while they are parsed.
func ParseAll(r io.Reader, f Format) iter.Seq2[Record, error] {
	return parseAll(r, f, readBuffer, 0)
}

// ParseAllRect is [ParseAll] for boards of cols columns and any number of
// rows, as a variant's N rows × M columns (package variant) are read: a
// list's columns run 1 … cols, every row of a grid or dots board holds
// cols squares (boards are then separated by blank or comment lines), and
// a JSON board's "cols", if given, must be cols. Every board read has
// Partial.Cols = cols. With cols = 0 it is ParseAll, whose boards are
// square (a JSON "cols" must then equal the number of rows).
func ParseAllRect(r io.Reader, f Format, cols int) iter.Seq2[Record, error] {
	return parseAll(r, f, readBuffer, max(cols, 0))
}

// readBuffer is the size of the read buffer, and the length from which a
// list or JSON line is parsed as it streams in rather than held whole.
const readBuffer = 1 << 16

// parseAll is [ParseAllRect] with the size of the read buffer (tests make
// it tiny, so that short lines stream).
func parseAll(r io.Reader, f Format, bufSize, cols int) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		s := &boardStream{br: bufio.NewReaderSize(r, bufSize), f: f, cols: cols}
		s.yield = func(rec Record, err error) bool {
			if cols > 0 && rec.Err == nil && err == nil {
				rec.Board.Cols = cols
			}
			return yield(rec, err)
		}
		s.run()
	}
}

// boardStream is the state of one [ParseAll] loop.
type boardStream struct {
	br    *bufio.Reader
	f     Format
	cols  int // the boards' columns, 0 for square boards
	yield func(Record, error) bool
	// The lines of the grid or dots board being read, the line number and
	// leading white space of the first, and its format.
	block       [][]byte
	blockLine   int
	blockLead   int
	blockFormat Format
	// skipping says that the block being read is past MaxGridRows: its
	// lines are passed over up to its end.
	skipping bool
	line     []byte // the line being read, when held whole
}

// MaxGridRows bounds a grid or dots board read from a stream, and
// maxHeldLine a line held whole (every line but a list or JSON board, which
// is parsed as it streams in): a stream that never ends a board, such as
// `yes .Q..`, is an error rather than a board that takes all memory.
// Larger boards are read as lists or JSON.
const (
	MaxGridRows = 4096
	maxHeldLine = 1 << 20
)

// bom is the UTF-8 byte-order mark that Notepad writes before a text.
var bom = []byte("\xef\xbb\xbf")

func (s *boardStream) run() {
	for lineNo := 1; ; lineNo++ {
		chunk, err := s.br.ReadSlice('\n')
		chunk = bytes.TrimPrefix(chunk, bom)
		if err == bufio.ErrBufferFull && len(s.block) == 0 {
			if handled, more := s.longLine(chunk, lineNo); handled {
				if !more {
					return
				}
				continue
			}
		}
		s.line = append(s.line[:0], chunk...)
		if err == bufio.ErrBufferFull {
			s.line, err = readLine(s.br, s.line)
		}
		s.line = bytes.TrimSuffix(s.line, []byte("\n"))
		switch {
		case err == errLongLine:
			if !s.flush() || !s.yield(Record{Line: lineNo, Err: errT("board.longline", nil)}, nil) {
				return
			}
			if err = skipLine(s.br); err == nil {
				continue
			}
			if err == io.EOF {
				return
			}
			s.yield(Record{Line: lineNo}, err)
			return
		case err != nil && err != io.EOF:
			if s.flush() {
				s.yield(Record{Line: lineNo}, err)
			}
			return
		case err == io.EOF && len(s.line) == 0:
			s.flush()
			return
		}
		if !s.heldLine(s.line, lineNo) {
			return
		}
		if err == io.EOF {
			s.flush()
			return
		}
	}
}

// heldLine reads a line held whole: it ends, extends or starts a block,
// or is a board of its own. It reports whether to go on.
func (s *boardStream) heldLine(line []byte, lineNo int) bool {
	text := trimSpace(line)
	lead := len(line) - len(bytes.TrimLeft(line, asciiSpace))
	ends := len(text) == 0 || text[0] == '#' || text[0] == '{' || text[0] == '['
	switch {
	case s.skipping && !ends:
		return true
	case len(text) == 0 || text[0] == '#':
		s.skipping = false
		return s.flush()
	case len(s.block) > 0 && !ends:
		return s.addRow(text, lineNo)
	}
	s.skipping = false
	// A line opening with '{' or '[' is never a row of a grid or dots
	// board: it ends the block before it.
	if !s.flush() {
		return false
	}
	g := s.f
	if g == Auto {
		g = detect(text)
	}
	if (g == Grid || g == Dots) && text[0] != '[' {
		s.block, s.blockLine, s.blockLead, s.blockFormat = append(s.block, bytes.Clone(text)), lineNo, lead, g
		return true
	}
	rec := Record{Line: lineNo, Format: g}
	rec.Board, rec.Err = parseLine(text, lead, g, s.cols)
	return s.yield(rec, nil)
}

// addRow adds a row to the grid or dots board being read. A square board
// of n rows of n cells is complete: a further row of n cells starts the
// next board of a stack (boards without blank lines between them), which
// is read then, so that a stream of them is read a board at a time. A board
// past MaxGridRows rows is an error, its further rows passed over. It
// reports whether to go on.
func (s *boardStream) addRow(text []byte, lineNo int) bool {
	if width := cellBytes(s.block[0]); s.cols == 0 && len(s.block) == width && cellBytes(text) == width {
		if !s.flush() {
			return false
		}
		s.block, s.blockLine = append(s.block, bytes.Clone(text)), lineNo
		return true
	}
	if len(s.block) == MaxGridRows {
		rec := Record{Line: s.blockLine, Format: s.blockFormat,
			Err: errT("board.toomanyrows", i18n.Args{"Format": string(s.blockFormat), "Max": itoa(MaxGridRows)})}
		s.block, s.skipping = s.block[:0], true
		return s.yield(rec, nil)
	}
	s.block = append(s.block, bytes.Clone(text))
	return true
}

// cellBytes is the length of a board row without the spaces between its
// cells, as [cells] makes it.
func cellBytes(row []byte) int {
	return len(row) - bytes.Count(row, []byte(" ")) - bytes.Count(row, []byte("\t"))
}

// flush reads the block of lines gathered, if any, and reports whether to
// go on.
func (s *boardStream) flush() bool {
	if len(s.block) == 0 {
		return true
	}
	var recs []Record
	if s.f == Auto && s.blockFormat == Grid && len(s.block) == 1 {
		// A one-line grid of several cells cannot be square: it is a
		// list of 0s and 1s, such as an empty board.
		rec := Record{Line: s.blockLine, Format: List}
		rec.Board, rec.Err = parseLine(s.block[0], s.blockLead, List, s.cols)
		recs = []Record{rec}
	} else {
		recs = parseBlock(s.block, s.blockLine, s.blockFormat, s.cols)
	}
	s.block = s.block[:0]
	for _, rec := range recs {
		if !s.yield(rec, nil) {
			return false
		}
	}
	return true
}

// longLine reads a line too long for the buffer, of which chunk is the
// first buffer-full, when it can be read without holding it: a comment is
// skipped, a list or JSON board parsed as it streams in. handled is false
// for a line to hold whole; more says whether to go on.
func (s *boardStream) longLine(chunk []byte, lineNo int) (handled, more bool) {
	var rec Record
	var err error
	switch g := longFormat(chunk, s.f); g {
	case "#":
		err = skipLine(s.br)
		if err == nil {
			return true, true
		}
	case List:
		rec = Record{Line: lineNo, Format: g}
		rec.Board.Queens, rec.Err, err = streamList(s.br, chunk, s.cols)
	case JSON:
		rec = Record{Line: lineNo, Format: g}
		rec.Board, rec.Err, err = streamJSON(s.br, chunk, s.cols)
	default:
		return false, true
	}
	switch {
	case err != nil && err != io.EOF:
		s.yield(Record{Line: lineNo}, err)
		return true, false
	case rec.Line == 0: // a comment at the end of the text
		return true, false
	}
	return true, s.yield(rec, nil) && err == nil
}

// asciiSpace is the white space trimmed from the ends of a line. Only
// ASCII, so that a line streamed in pieces and a line held whole agree.
const asciiSpace = " \t\r\v\f"

func trimSpace(b []byte) []byte { return bytes.Trim(b, asciiSpace) }

// errLongLine is a line held whole that is longer than maxHeldLine.
var errLongLine = errors.New("line too long")

// readLine appends the rest of the line to buf, up to and including its
// '\n', or fails with errLongLine past maxHeldLine bytes.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxHeldLine {
			return buf, errLongLine
		}
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

// longFormat decides, from the first buffer-full of a line too long for
// the buffer, how to read the rest: '#' for a comment to skip, [List] or
// [JSON] for a board to parse as it streams in, "" for anything else (held
// whole). A long line of 0s and 1s is a list: a grid row that long would
// make a board of billions of squares.
func longFormat(chunk []byte, f Format) Format {
	prefix := bytes.TrimLeft(chunk, asciiSpace)
	if len(prefix) == 0 {
		return ""
	}
	switch {
	case prefix[0] == '#':
		return "#"
	case f == List || f == JSON:
		return f
	case f == Auto:
		switch detect(prefix) {
		case List, Grid:
			return List
		case JSON:
			return JSON
		}
	}
	return ""
}
