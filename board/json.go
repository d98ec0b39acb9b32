package board

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/nqueens/nqueens/i18n"
)

// The JSON grammar: an object {"n":4,"queens":[2,4,1,3],"blocked":[[1,1]]}
// with "n" and "blocked" optional, or a plain array [2,4,1,3]; columns
// 1-based, 0 for an empty row; squares [row, column], 1-based. A board of
// N rows × M columns (a [Rect]) adds "cols":M. The members that the
// project's own answers put beside a board are read and checked, so that
// every board it writes reads back: "exists":true (a completion of
// complete --json) and "orbit" (the size of its symmetry class, 1 to 8,
// list --unique). Names are matched exactly,
// each may appear once, numbers are whole. Like the list grammar it has
// one reader, [jsonScanner], fed a piece at a time.

// jsonState is where the scanner stands in the grammar.
type jsonState uint8

const (
	jsTop          jsonState = iota // before the object or array
	jsKeyOrEnd                      // after '{': a name or '}'
	jsKey                           // before a name, after ','
	jsKeyText                       // inside a name
	jsColon                         // after a name
	jsValue                         // after ':'
	jsMemberEnd                     // after a member's value: ',' or '}'
	jsColsFirst                     // after the '[' of the columns: a number or ']'
	jsCol                           // a column, after ','
	jsColsNext                      // after a column: ',' or ']'
	jsSquaresFirst                  // after the '[' of "blocked": '[' or ']'
	jsSquare                        // a square's '[', after ','
	jsSquareNum                     // a square's row or column
	jsSquareComma                   // after a square's row: ','
	jsSquareClose                   // after a square's column: ']'
	jsSquaresNext                   // after a square: ',' or ']'
	jsLiteral                       // inside true or false, the value of "exists"
	jsDone                          // after the object or array: white space only
)

// field is a member of the JSON board.
type field uint8

const (
	noField field = iota
	fieldN
	fieldQueens
	fieldBlocked
	fieldCols
	fieldExists
	fieldOrbit
)

var fieldNames = [...]string{"", `"n"`, `"queens"`, `"blocked"`, `"cols"`, `"exists"`, `"orbit"`}

// maxKeyLen bounds the name held for matching; a longer one is unknown.
const maxKeyLen = 64

// jsonScanner reads one JSON board. A number is read by [jsonNumber]
// between the bytes of the grammar around it.
type jsonScanner struct {
	pos     int // bytes of the line seen
	last    int // position of the last byte that is not white space
	state   jsonState
	array   bool                  // a plain array rather than an object
	key     []byte                // the name being read, raw, up to maxKeyLen bytes
	keyAt   int                   // where its opening quote stands
	escaped bool                  // the last byte of the name was a backslash
	field   field                 // the member whose value is being read
	seen    [len(fieldNames)]bool // members already read
	num     jsonNumber
	n       int64 // "n", if seen
	nTok    string
	width   int64 // "cols", if seen
	wTok    string
	want    int // the board's columns, 0 for a square board
	cols    columnBuffer
	bad     int       // first row whose column is out of range of every board, or -1
	badTok  string    // that column as written
	pair    [2]int64  // the square being read
	pairTok [2]string // as written
	pairOff bool      // off every board
	inPair  int       // numbers of it read
	blocked []Square
	badSq   int       // first square off every board, or -1
	badSqAt [2]string // its row and column as written
	lit     string    // the literal being read, true or false
	litAt   int       // bytes of it read
	err     error
}

// newJSONScanner starts a board of want columns (0: square) whose first
// byte fed is at position lead+1.
func newJSONScanner(lead, want int) *jsonScanner {
	return &jsonScanner{pos: lead, bad: -1, badSq: -1, want: want}
}

// parseJSON reads a JSON board of want columns (0: square) held whole,
// lead bytes into its line.
func parseJSON(text []byte, lead, want int) (Partial, error) {
	s := newJSONScanner(lead, want)
	s.feed(text)
	return s.end()
}

// streamJSON reads a JSON board too long to hold as text, as streamList
// does a list.
func streamJSON(br *bufio.Reader, first []byte, want int) (p Partial, err, rerr error) {
	s := newJSONScanner(0, want)
	s.feed(first)
	rerr = feedLine(br, s.feed)
	p, err = s.end()
	return p, err, rerr
}

// isJSONSpace is JSON's white space, and the vertical tab and form feed
// that a line may carry at its ends as white space in every format.
func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// fail records the first error, at character pos: the message key with
// args.
func (s *jsonScanner) fail(pos int, key string, args i18n.Args) {
	if s.err == nil {
		s.err = atChar(pos, errT(key, args))
	}
}

func (s *jsonScanner) feed(b []byte) {
	base := s.pos // b[i] is at position base+i+1
	s.pos += len(b)
	for i := 0; i < len(b) && s.err == nil; {
		if s.num.active {
			i += s.num.read(b[i:])
			if i == len(b) {
				return // the number may go on in the next piece
			}
			s.endNumber() // and read b[i] as what follows it
			continue
		}
		c, pos := b[i], base+i+1
		switch {
		case s.state == jsKeyText:
			s.keyByte(c, pos)
		case s.state == jsLiteral:
			s.literalByte(c, pos)
		case !isJSONSpace(c):
			s.token(c, pos)
		}
		i++
	}
}

// keyByte reads a byte of a member's name.
func (s *jsonScanner) keyByte(c byte, pos int) {
	switch {
	case s.escaped:
		s.escaped = false
	case c == '\\':
		s.escaped = true
	case c == '"':
		s.endKey(pos)
		return
	case c < ' ':
		s.fail(pos, "board.json.namecontrol", nil)
		return
	}
	if len(s.key) < maxKeyLen {
		s.key = append(s.key, c)
	}
}

// endKey matches the name just read against the board's members.
func (s *jsonScanner) endKey(pos int) {
	var name string
	if err := json.Unmarshal(append(append([]byte{'"'}, s.key...), '"'), &name); err != nil {
		s.fail(pos, "board.json.nameescape", nil)
		return
	}
	s.field = noField
	for f, quoted := range fieldNames {
		if f > 0 && quoted == `"`+name+`"` {
			s.field = field(f)
		}
	}
	switch {
	case s.field == noField:
		s.fail(pos, "board.json.unknownfield", i18n.Args{"Name": strconv.Quote(clip([]byte(name))), "Fields": orList{"n", "cols", "queens", "blocked", "exists", "orbit"}})
	case s.seen[s.field]:
		s.fail(pos, "board.json.twice", i18n.Args{"Field": fieldNames[s.field]})
	}
	s.seen[s.field] = true
	s.state = jsColon
}

// token reads a byte of the grammar that is not white space or inside a
// name or number.
func (s *jsonScanner) token(c byte, pos int) {
	s.last = pos
	switch s.state {
	case jsTop:
		switch c {
		case '{':
			s.state = jsKeyOrEnd
		case '[':
			s.array, s.field, s.seen[fieldQueens], s.state = true, fieldQueens, true, jsColsFirst
		default:
			s.fail(pos, "board.json.top", i18n.Args{"Got": describe(c)})
		}
	case jsKeyOrEnd, jsKey:
		switch {
		case c == '"':
			s.key, s.keyAt, s.state = s.key[:0], pos, jsKeyText
		case c == '}' && s.state == jsKeyOrEnd:
			s.state = jsDone
		default:
			s.fail(pos, "board.json.wantname", i18n.Args{"Got": describe(c)})
		}
	case jsColon:
		s.expect(c, ':', pos, jsValue)
	case jsValue:
		s.value(c, pos)
	case jsMemberEnd:
		s.oneOf(c, pos, ',', jsKey, '}', jsDone, "board.json.sep.member")
	case jsColsFirst, jsCol:
		switch {
		case c == ']' && s.state == jsColsFirst:
			s.endArray()
		default:
			s.startNumber(c, pos)
		}
	case jsColsNext:
		if s.oneOf(c, pos, ',', jsCol, ']', jsColsNext, "board.json.sep.queens"); c == ']' {
			s.endArray()
		}
	case jsSquaresFirst, jsSquare:
		switch {
		case c == ']' && s.state == jsSquaresFirst:
			s.state = jsMemberEnd
		case c == '[':
			s.inPair, s.pairOff, s.state = 0, false, jsSquareNum
		default:
			s.fail(pos, "board.json.square", i18n.Args{"I": itoa(len(s.blocked)), "Got": describe(c)})
		}
	case jsSquareNum:
		s.startNumber(c, pos)
	case jsSquareComma, jsSquareClose:
		switch {
		case c == ',' && s.state == jsSquareComma:
			s.state = jsSquareNum
		case c == ']' && s.state == jsSquareClose:
			if s.pairOff && s.badSq < 0 {
				s.badSq, s.badSqAt = len(s.blocked), s.pairTok
			}
			s.blocked = append(s.blocked, Square{Row: int(s.pair[0] - 1), Col: int(s.pair[1] - 1)})
			s.state = jsSquaresNext
		case c == ']' || c == ',':
			s.fail(pos, "board.json.squaretwo", i18n.Args{"I": itoa(len(s.blocked))})
		default:
			s.fail(pos, "board.json.squaresep", i18n.Args{"I": itoa(len(s.blocked)), "Got": describe(c)})
		}
	case jsSquaresNext:
		s.oneOf(c, pos, ',', jsSquare, ']', jsMemberEnd, "board.json.sep.blocked")
	case jsDone:
		key := "board.json.afterobject"
		if s.array {
			key = "board.json.afterarray"
		}
		s.fail(pos, key, nil)
	}
}

// value starts the value of the member s.field.
func (s *jsonScanner) value(c byte, pos int) {
	switch {
	case s.field == fieldN || s.field == fieldCols || s.field == fieldOrbit:
		s.startNumber(c, pos)
	case s.field == fieldExists && (c == 't' || c == 'f'):
		s.lit, s.litAt, s.state = "true", 1, jsLiteral
		if c == 'f' {
			s.lit = "false"
		}
	case s.field == fieldExists:
		s.fail(pos, "board.json.existsvalue", i18n.Args{"Got": describe(c)})
	case c != '[':
		key := "board.json.wantcols"
		if s.field == fieldBlocked {
			key = "board.json.wantsquares"
		}
		s.fail(pos, key, i18n.Args{"Field": fieldNames[s.field], "Got": describe(c)})
	case s.field == fieldQueens:
		s.state = jsColsFirst
	default:
		s.state = jsSquaresFirst
	}
}

// literalByte reads a byte of the literal true or false.
func (s *jsonScanner) literalByte(c byte, pos int) {
	if c != s.lit[s.litAt] {
		s.fail(pos, "board.json.wantliteral", i18n.Args{"Literal": s.lit, "Got": describe(c)})
		return
	}
	if s.litAt++; s.litAt < len(s.lit) {
		return
	}
	s.state = jsMemberEnd
	if s.lit == "false" {
		s.fail(pos, "board.json.existsfalse", nil)
	}
}

func (s *jsonScanner) expect(c, want byte, pos int, next jsonState) {
	if c != want {
		s.fail(pos, "board.json.wantchar", i18n.Args{"Want": string(rune(want)), "Got": describe(c)})
		return
	}
	s.state = next
}

// oneOf moves to na on a, to nb on b, and says key (which names where it
// is) on any other byte.
func (s *jsonScanner) oneOf(c byte, pos int, a byte, na jsonState, b byte, nb jsonState, key string) {
	switch c {
	case a:
		s.state = na
	case b:
		s.state = nb
	default:
		s.fail(pos, key, i18n.Args{"A": string(rune(a)), "B": string(rune(b)), "Got": describe(c)})
	}
}

// endArray closes the queens array.
func (s *jsonScanner) endArray() {
	if s.array {
		s.state = jsDone
	} else {
		s.state = jsMemberEnd
	}
}

// describe names a byte found where something else was wanted: a JSON
// value it starts, the character, or the byte in hex.
func describe(c byte) i18n.Localizer {
	switch c {
	case '"':
		return i18n.NewError("board.json.got.string", nil)
	case 't', 'f':
		return i18n.NewError("board.json.got.bool", nil)
	case 'n':
		return i18n.NewError("board.json.got.null", nil)
	case '{':
		return i18n.NewError("board.json.got.object", nil)
	case '[':
		return i18n.NewError("board.json.got.array", nil)
	}
	if c >= ' ' && c < 0x7f {
		return i18n.NewError("board.json.got.char", i18n.Args{"Char": string(rune(c))})
	}
	return i18n.NewError("board.json.got.byte", i18n.Args{"Byte": fmt.Sprintf("%#02x", c)})
}

// end finishes the board and checks it as a whole.
func (s *jsonScanner) end() (Partial, error) {
	if s.num.active {
		s.endNumber()
	}
	if s.err == nil && s.state == jsKeyText {
		s.err = atChar(s.keyAt, errT("board.json.endsinname", nil))
	}
	if s.err == nil && s.state != jsDone {
		s.err = atChar(s.last, errT("board.json.early", nil))
		if s.state == jsTop {
			s.err = errT("board.json.none", nil)
		}
	}
	if s.err == nil && !s.seen[fieldQueens] {
		s.err = errT("board.json.noqueens", nil)
	}
	if s.err != nil {
		s.cols.discard()
		return Partial{}, s.err
	}
	return s.check()
}

// check compares the columns, "n" and the squares with the board's size.
func (s *jsonScanner) check() (Partial, error) {
	n := s.cols.n
	switch {
	case n == 0:
		return Partial{}, errT("board.norows", nil)
	case s.seen[fieldN] && s.n != int64(n):
		s.cols.discard()
		return Partial{}, i18n.NewPluralError("board.json.nrows", itoa(n), i18n.Args{"N": s.nTok})
	}
	width := n
	if s.want > 0 {
		width = s.want
	}
	if s.seen[fieldCols] && s.width != int64(width) {
		s.cols.discard()
		if s.want > 0 {
			return Partial{}, errT("board.json.colswidth", i18n.Args{"Cols": s.wTok, "Width": itoa(width)})
		}
		return Partial{}, errT("board.json.colssquare", i18n.Args{"Cols": s.wTok, "Rows": itoa(n)})
	}
	p := Partial{Queens: s.cols.finish(), Blocked: s.blocked}
	for r, c := range p.Queens {
		if c < Empty || int(c) >= width {
			v := fmt.Sprint(int(c) + 1)
			if r == s.bad {
				v = s.badTok
			}
			msg := errT("board.json.colrange", i18n.Args{"I": itoa(r), "Row": itoa(r + 1), "Col": v, "N": itoa(width)})
			if r == s.bad || c < Empty {
				return Partial{}, msg // not a column of any board
			}
			return Partial{}, &locatedProblem{msg, &Problem{Kind: OutOfRange, N: width, Row: r, Col: int(c)}}
		}
	}
	for i, sq := range p.Blocked {
		if sq.Row >= n || sq.Col >= width || sq.Row < 0 || sq.Col < 0 {
			row, col := fmt.Sprint(sq.Row+1), fmt.Sprint(sq.Col+1)
			if i == s.badSq {
				row, col = s.badSqAt[0], s.badSqAt[1]
			}
			if width != n {
				return Partial{}, errT("board.json.blockedoff", i18n.Args{"I": itoa(i), "Row": row, "Col": col, "Rows": itoa(n), "Cols": itoa(width)})
			}
			return Partial{}, errT("board.json.blockedoffsquare", i18n.Args{"I": itoa(i), "Row": row, "Col": col, "N": itoa(n)})
		}
	}
	return p, nil
}
