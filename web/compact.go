package web

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
)

// The compact form of a trace stream (/api/trace?form=compact), which the
// page reads: each event carries what changed, and the reader rebuilds the
// rest from the events before it, by rules that know nothing of the
// strategies. docs/api.md gives the grammar; web/static/js/tracestore.js
// is the page's reader, and TestCompactTraceDecodes checks that it gives
// back every event of the full form. What the reader predicts, and so what an
// event leaves out:
//
//   - the board: a place puts its queen, a remove takes it off, nothing
//     else moves a queen ("q" gives the board where that is not so: brute
//     force);
//   - the counters: each grows by what it grew at the last event of the
//     same kind ("n" gives the counters that grew otherwise);
//   - the candidate: one more than the last ("i" otherwise);
//   - the sentence: a pattern sent once, then named by its number ("t"),
//     its numbers read from the event's own fields where they are equal
//     and given in "v" otherwise.
type compactEncoder struct {
	queens []int32 // the board as the reader rebuilds it, 1-based, 0 = empty
	last   classic.Counters
	grew   [8][7]uint64 // by kind: each counter's growth at its last event
	cand   uint64
	// patterns are the sentence patterns sent, by their literals.
	patterns  map[string][]*textPattern
	npatterns int
	buf       []byte
	nums      []int // scratch: the numbers of a sentence
}

func newCompactEncoder(n int) *compactEncoder {
	return &compactEncoder{queens: make([]int32, n), patterns: map[string][]*textPattern{}}
}

// kindCodes and attackCodes are the one-letter names of the compact form.
var kindCodes = [...]byte{classic.Place: 'p', classic.Reject: 'x', classic.Remove: 'r',
	classic.Solution: 's', classic.DeadEnd: 'e', classic.Done: 'd'}

func attackCode(k board.ProblemKind) byte {
	switch k {
	case board.SameColumn:
		return 'c'
	case board.Diagonal:
		return 'd'
	case board.AntiDiagonal:
		return 'a'
	}
	return 'r' // board.SameRow, the only other attack of a trace
}

// counterCodes name the counters in "n", in the order of counterValues.
const counterCodes = "NTRPXBS"

func counterValues(c classic.Counters) [7]uint64 {
	return [7]uint64{c.Nodes, c.Tries, c.Reads, c.Placed, c.Rejected, c.Backtracks, c.Solutions}
}

// encode returns e in the compact form, one line of JSON, and moves the
// encoder's state past it. The slice is reused by the next call.
func (c *compactEncoder) encode(e classic.Event) []byte {
	b := appendStep(c.buf[:0], e)
	b = c.appendBoard(b, e)
	b = c.appendCounters(b, e)
	b = c.appendCandidate(b, e)
	b = appendReads(b, e)
	if e.Text != "" {
		b = c.appendText(b, e)
	}
	b = append(b, '}')
	c.buf = b
	return b
}

// appendStep opens the event with what it always says in full: its kind,
// row and column, the attacker and attack of a reject, the source line.
func appendStep(b []byte, e classic.Event) []byte {
	b = append(b, `{"k":"`...)
	b = append(b, kindCodes[e.Kind], '"')
	if e.Row != board.Empty {
		b = appendField(b, "r", e.Row+1)
	}
	if e.Col != board.Empty {
		b = appendField(b, "c", e.Col+1)
	}
	if e.Kind == classic.Reject {
		b = append(b, `,"b":[`...)
		b = strconv.AppendInt(b, int64(e.By.Row+1), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(e.By.Col+1), 10)
		b = append(b, `],"a":"`...)
		b = append(b, attackCode(e.Attack), '"')
	}
	if e.Line != 0 {
		b = appendField(b, "l", e.Line)
	}
	return b
}

// appendBoard moves the board as the reader rebuilds it, and writes "q"
// where e's board is not that one.
func (c *compactEncoder) appendBoard(b []byte, e classic.Event) []byte {
	switch e.Kind {
	case classic.Place:
		c.queens[e.Row] = int32(e.Col + 1)
	case classic.Remove:
		c.queens[e.Row] = 0
	}
	same := len(e.Queens) == len(c.queens)
	for i := 0; same && i < len(e.Queens); i++ {
		same = c.queens[i] == e.Queens[i]+1
	}
	if same {
		return b
	}
	c.queens = c.queens[:0]
	b = append(b, `,"q":[`...)
	for i, q := range e.Queens {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(q+1), 10)
		c.queens = append(c.queens, q+1)
	}
	return append(b, ']')
}

// appendCounters writes in "n" the counters whose growth differs from
// their growth at the last event of e's kind.
func (c *compactEncoder) appendCounters(b []byte, e classic.Event) []byte {
	now, was := counterValues(e.Counters), counterValues(c.last)
	c.last = e.Counters
	grew := &c.grew[e.Kind]
	first := true
	for i := range now {
		d := now[i] - was[i]
		if d == grew[i] {
			continue
		}
		grew[i] = d
		if first {
			b = append(b, `,"n":{`...)
			first = false
		} else {
			b = append(b, ',')
		}
		b = append(b, '"', counterCodes[i], '"', ':')
		b = strconv.AppendUint(b, d, 10)
	}
	if !first {
		b = append(b, '}')
	}
	return b
}

// appendCandidate writes "i" unless e's candidate is one more than the
// last.
func (c *compactEncoder) appendCandidate(b []byte, e classic.Event) []byte {
	want := uint64(0)
	if c.cand > 0 {
		want = c.cand + 1
	}
	c.cand = e.Candidate
	if e.Candidate == want {
		return b
	}
	b = append(b, `,"i":`...)
	return strconv.AppendUint(b, e.Candidate, 10)
}

// appendReads writes what the step looked at, as the event gives it: the
// squares of a placement tried whole, and what the check read (the scans,
// the rows compared, the flags, the bit masks).
func appendReads(b []byte, e classic.Event) []byte {
	if len(e.Squares) > 0 {
		b = append(b, `,"s":[`...)
		for i, q := range e.Squares {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(q.Row+1), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(q.Col+1), 10)
		}
		b = append(b, ']')
	}
	if s := e.Scan; s != nil {
		b = append(b, `,"g":[`...)
		b = strconv.AppendInt(b, int64(s.Column), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.Diagonal), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.AntiDiagonal), 10)
		b = append(b, ']')
	}
	if len(e.Compared) > 0 {
		b = appendRows(b, e.Compared)
	}
	if len(e.Flags) > 0 {
		b = append(b, `,"f":[`...)
		for i, f := range e.Flags {
			if i > 0 {
				b = append(b, ',')
			}
			code := (f.Index+1)<<3 | flagArray(f.Array)<<1
			if f.Set {
				code |= 1
			}
			b = strconv.AppendInt(b, int64(code), 10)
		}
		b = append(b, ']')
	}
	if m := e.Masks; m != nil {
		b = append(b, `,"w":["`...)
		for i, w := range [4]uint64{m.Cols, m.LD, m.RD, m.Free} {
			if i > 0 {
				b = append(b, `","`...)
			}
			b = strconv.AppendUint(b, w, 16)
		}
		b = append(b, `"]`...)
	}
	return b
}

func appendField(b []byte, name string, v int) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, int64(v), 10)
}

// appendRows writes the rows compared (0-based): "m":k for rows 1 to k,
// the common case, or "m":[rows…].
func appendRows(b []byte, rows []int) []byte {
	b = append(b, `,"m":`...)
	prefix := true
	for i, r := range rows {
		prefix = prefix && r == i
	}
	if prefix {
		return strconv.AppendInt(b, int64(len(rows)), 10)
	}
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(r+1), 10)
	}
	return append(b, ']')
}

func flagArray(name string) int {
	switch name {
	case "diag":
		return 1
	case "anti":
		return 2
	}
	return 0 // "cols"
}

// slotSources are the event's own numbers a sentence may repeat, each
// named by the code a pattern's slot carries: the candidate, row, column,
// the attacker's row and column, the next column (1-based).
const slotSources = "ircRCn"

func slotValue(e classic.Event, code byte) (int, bool) {
	switch code {
	case 'i':
		return int(e.Candidate), e.Candidate > 0 && e.Candidate < 1<<53
	case 'r':
		return e.Row + 1, e.Row != board.Empty
	case 'c':
		return e.Col + 1, e.Col != board.Empty
	case 'R':
		return e.By.Row + 1, e.Kind == classic.Reject
	case 'C':
		return e.By.Col + 1, e.Kind == classic.Reject
	case 'n':
		return e.Col + 2, e.Col != board.Empty
	}
	return 0, false
}

// appendText writes the sentence: "t":id and "v":[numbers] for a pattern
// sent before, or "t":[literal, slot, literal, …] for a new one (its id is
// the number of patterns before it). A slot is one of slotSources, or ""
// for the next number of "v". Numbers are runs of ASCII digits without a
// leading zero. A sentence takes the first pattern sent with its literals
// whose slots its numbers fit; a new pattern takes, for each slot, the
// first source equal to its number.
func (c *compactEncoder) appendText(b []byte, e classic.Event) []byte {
	text := e.Text
	var lits []string
	c.nums = c.nums[:0]
	start := 0
	for i := 0; i < len(text); {
		if text[i] < '0' || text[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] >= '0' && text[j] <= '9' && j-i < 15 {
			j++
		}
		if text[i] == '0' && j-i > 1 {
			i = j // a number with a leading zero stays literal
			continue
		}
		v, _ := strconv.Atoi(text[i:j])
		lits = append(lits, text[start:i])
		c.nums = append(c.nums, v)
		start, i = j, j
	}
	lits = append(lits, text[start:])
	skeleton := strings.Join(lits, "\x00")
	var pat *textPattern
	for _, p := range c.patterns[skeleton] {
		if p.fits(e, c.nums) {
			pat = p
			break
		}
	}
	b = append(b, `,"t":`...)
	if pat != nil {
		b = strconv.AppendInt(b, int64(pat.id), 10)
	} else {
		pat = &textPattern{id: c.npatterns, slots: make([]byte, len(c.nums))}
		c.npatterns++
		for k, v := range c.nums {
			for _, src := range []byte(slotSources) {
				if sv, ok := slotValue(e, src); ok && sv == v {
					pat.slots[k] = src
					break
				}
			}
		}
		c.patterns[skeleton] = append(c.patterns[skeleton], pat)
		b = append(b, '[')
		for i, l := range lits {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, l)
			if i < len(pat.slots) {
				b = append(b, ',', '"')
				if pat.slots[i] != 0 {
					b = append(b, pat.slots[i])
				}
				b = append(b, '"')
			}
		}
		b = append(b, ']')
	}
	first := true
	for k, v := range c.nums {
		if pat.slots[k] != 0 {
			continue
		}
		if first {
			b = append(b, `,"v":[`...)
			first = false
		} else {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	if !first {
		b = append(b, ']')
	}
	return b
}

// textPattern is a sentence pattern sent: its number, and the source of
// each of its slots (0 for a number given in "v").
type textPattern struct {
	id    int
	slots []byte
}

// fits reports whether the numbers of e's sentence fill p's slots.
func (p *textPattern) fits(e classic.Event, nums []int) bool {
	for k, src := range p.slots {
		if src == 0 {
			continue
		}
		if v, ok := slotValue(e, src); !ok || v != nums[k] {
			return false
		}
	}
	return true
}

// appendJSONString writes s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20 || r == utf8.RuneError && size == 1:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[s[i]>>4], "0123456789abcdef"[s[i]&15])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
