package join

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// walk returns the drawing of the join of an n×n board: the cut, the
// quarter tables, the keys and their weights, one key's halves, patterns
// and match, every key's count, and one key's pairs counted bit-sliced.
func walk(t *testing.T, n int) string {
	t.Helper()
	l, err := NewLayout(n, n%2)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := NewTables(l, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	full := n%2 == 0 // odd N: the cut, the keys and their counts, the quarters and the bit-sliced count left out
	var w, all strings.Builder
	fmt.Fprintf(&w, "The join of half boards on N = %d (go test ./internal/join -run TestWalk)\n", n)
	walkCut(&w, l)
	if full {
		walkQuarters(t, &w, tb)
	}
	walkKeys(t, &w, l)
	counts := walkAllKeys(t, &all, tb, sec(full, 6, 3))
	for i, k := range l.Keys() {
		if counts[i] > 0 && full {
			walkKey(t, &w, tb, k)
			break
		}
	}
	w.WriteString(all.String())
	return w.String()
}

// walkCut draws where the layout cuts the board.
func walkCut(w *strings.Builder, l *Layout) {
	walkLine(w, "1. The cut")
	fmt.Fprintf(w, "N = %d, S = %d (separator columns), CL = %d columns a half, TR = %d rows in the top quarters,\n", l.N, l.S, l.CL, l.TR)
	fmt.Fprintf(w, "M = 4·CL − 2 = %d diagonals that cross both halves (the bits of a pattern).\n\n", l.M)
	for r := range l.N {
		var b strings.Builder
		fmt.Fprintf(&b, "row %d  ", r)
		for c := range l.N {
			if c == l.CL || (l.S > 0 && c == l.CL+l.S) {
				b.WriteString("| ")
			}
			switch {
			case c >= l.CL && c < l.CL+l.S:
				b.WriteString("s ")
			case c >= l.CL:
				b.WriteString("R ")
			case r < l.TR:
				b.WriteString("T ")
			default:
				b.WriteString("B ")
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	fmt.Fprintln(w, "\nT: the top quarter, B: the bottom quarter of the left half; R: the right half")
	if l.S > 0 {
		fmt.Fprintln(w, "s: the separator, whose queens each key places first")
	}
}

// walkQuarters draws every placement of the quarter tables, each decoded
// back to its squares, and checks that each cell holds every placement of
// its rows and columns once.
func walkQuarters(t *testing.T, w *strings.Builder, tb *Tables) {
	walkLine(w, "2. The quarter tables")
	l := tb.Layout
	cols := bitList(1<<l.CL - 1)
	for _, q := range []*quarter{&tb.top, &tb.bot} {
		name := "top"
		if q == &tb.top {
			fmt.Fprintf(w, "Every placement of queens, any number, on rows %d–%d of the left half, by rows and columns\n", q.r0, q.r0+q.nr-1)
			fmt.Fprintf(w, "(its cell), each kept as two words (Layout.contrib): w0, the diagonals the other quarter must\n")
			fmt.Fprintf(w, "avoid, and w1, its pattern. The %s quarter: %d placements, each under its number of queens\n\n", name, q.off[len(q.off)-1])
		} else {
			name = "bottom"
			fmt.Fprintf(w, "\nThe %s quarter, rows %d–%d: %d placements", name, q.r0, q.r0+q.nr-1, q.off[len(q.off)-1])
			if l.S == 0 && 2*l.TR == l.N {
				fmt.Fprint(w, " (for even N the top ones mirrored in the middle row)")
			}
			fmt.Fprint(w, "\n\n")
		}
		var caps []string
		var blocks [][]string
		for i := range len(q.off) - 1 {
			rows, cs := uint32(i)>>l.CL, uint32(i)&(1<<l.CL-1)
			want := 0
			var ps []walkPlacement
			if bits.OnesCount32(rows) == bits.OnesCount32(cs) {
				var abs []int
				for _, r := range bitList(rows) {
					abs = append(abs, q.r0+r)
				}
				ps = placementsOn(l.N, abs, bitList(cs), nil)
				want = len(ps)
			}
			if got := int(q.off[i+1] - q.off[i]); got != want {
				t.Fatalf("%s quarter, rows %b columns %b: %d placements, want %d", name, rows, cs, got, want)
			}
			for x := q.off[i]; x < q.off[i+1]; x++ {
				p := l.decode(t, ps, q.w0[x], q.w1[x])
				var grid []string
				for r := q.r0; r < q.r0+q.nr; r++ {
					var b strings.Builder
					for _, c := range cols {
						if p[r] == c {
							b.WriteString("Q ")
						} else {
							b.WriteString(". ")
						}
					}
					grid = append(grid, strings.TrimRight(b.String(), " "))
				}
				caps = append(caps, fmt.Sprintf("%d", bits.OnesCount32(rows)))
				blocks = append(blocks, grid)
			}
		}
		inRows(w, caps, blocks, 9)
	}
}

// walkKeys lists the keys the layout keeps, each with the images that the
// mirrors in the middle row and column and the half turn give it, and
// checks the weights against those images.
func walkKeys(t *testing.T, w *strings.Builder, l *Layout) {
	walkLine(w, fmt.Sprintf("%d. The keys and their weights", sec(l.S == 0, 3, 2)))
	full := uint32(1)<<l.N - 1
	all := 0
	for si := range l.seps {
		all += len(slices.Collect(subsetsOf(full&^l.seps[si].rows, l.CL)))
	}
	fmt.Fprintf(w, "A key is the rows E of the left half's queens (%d of %d rows)", l.CL, l.N)
	if l.S > 0 {
		fmt.Fprint(w, " and the rows of the separator's queens")
	}
	fmt.Fprintf(w, ": %d keys.\n", all)
	if l.S > 0 {
		fmt.Fprintln(w, "[q] {…}: the separator's queen on row q, then E.")
	}
	fmt.Fprintln(w, "The mirror in the middle row (E'), in the middle column (F: the other rows) and the half turn (F')")
	fmt.Fprintln(w, "map a key onto keys with as many solutions. The layout keeps one key per orbit, weighted by")
	fmt.Fprintln(w, "its size:")
	fmt.Fprintln(w)
	head := "E"
	if l.S > 0 {
		head = "separator rows, E"
	}
	fmt.Fprintf(w, "%-24s %-24s %-24s %-24s weight\n", head, "E'", "F", "F'")
	sum := 0
	for _, k := range l.Keys() {
		sp := &l.seps[k.Sep]
		m := &l.seps[sp.mirror]
		f := full &^ sp.rows &^ k.E
		imgs := [4]string{walkKeyName(l, k.E, int(k.Sep)), walkKeyName(l, l.revRows(k.E), int(sp.flip)),
			walkKeyName(l, f, int(sp.mirror)), walkKeyName(l, l.revRows(f), int(m.flip))}
		distinct := 0
		for i, s := range imgs {
			if !slices.Contains(imgs[:i], s) {
				distinct++
			}
		}
		if distinct != int(k.Weight) {
			t.Errorf("key %s: weight %d, but %d distinct images", imgs[0], k.Weight, distinct)
		}
		sum += int(k.Weight)
		fmt.Fprintf(w, "%-24s %-24s %-24s %-24s %d\n", imgs[0], imgs[1], imgs[2], imgs[3], k.Weight)
	}
	if sum != all {
		t.Errorf("the weights add up to %d, want %d keys", sum, all)
	}
	fmt.Fprintf(w, "\n%d keys kept; their weights add up to %d, every key once.\n", len(l.Keys()), sum)
}

func walkKeyName(l *Layout, e uint32, si int) string {
	if l.S == 0 {
		return rowSet(e)
	}
	var rows []int
	for r, c := range l.sepQueens(si) {
		if c >= 0 {
			rows = append(rows, r)
		}
	}
	return fmt.Sprintf("%v %s", rows, rowSet(e))
}

// sec returns a if full, else b: a section's number.
func sec(full bool, a, b int) int {
	if full {
		return a
	}
	return b
}
