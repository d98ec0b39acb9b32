package join

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// walkHalves returns a key's two lists of patterns as the worker makes
// them (the right half built as a left half on its rows and reversed),
// with the w0 words of both halves before the reversal.
func walkHalves(tb *Tables, k Key) (xs, x0, ys, y0 []uint64) {
	l := tb.Layout
	sp := &l.seps[k.Sep]
	f := (uint32(1)<<l.N - 1) &^ k.E &^ sp.rows
	xs = tb.half(&goOps, nil, &x0, k.E, sp.mask)
	ys = tb.half(&goOps, nil, &y0, f, l.seps[sp.mirror].mask)
	reverseGo(ys, 64-l.M)
	return xs, x0, ys, y0
}

// walkAllKeys counts every key with the matcher, checks each count
// against the pairs compared one by one and the solutions that have that
// key, and the weighted sum against backtracking and Worker.CountKeys. It
// returns the counts, key by key.
func walkAllKeys(t *testing.T, w *strings.Builder, tb *Tables, section int) []uint64 {
	l := tb.Layout
	walkLine(w, fmt.Sprintf("%d. Every key counted", section))
	fmt.Fprintln(w, "For each key: the left half's placements on E, the right half's on the other rows, the pairs")
	fmt.Fprintln(w, "of their patterns, those that share no diagonal (the key's solutions), and its weight.")
	fmt.Fprintln(w)
	head := "E"
	if l.S > 0 {
		head = "separator rows, E"
	}
	fmt.Fprintf(w, "%-24s %5s %6s %6s %10s %7s %9s\n", head, "left", "right", "pairs", "solutions", "weight", "weighted")
	sols := solutions(l.N)
	var mt matcher
	var total uint64
	var counts []uint64
	for _, k := range l.Keys() {
		xs, _, ys, _ := walkHalves(tb, k)
		c, _, _ := mt.countDisjoint(&goOps, xs, ys, nil)
		if b := bruteDisjoint(xs, ys); c != b {
			t.Errorf("key %s: the matcher counts %d pairs, one by one %d", rowSet(k.E), c, b)
		}
		want := 0
		for _, s := range sols {
			if e, code := l.keyOf(s); e == k.E && code == l.seps[k.Sep].code {
				want++
			}
		}
		if c != uint64(want) {
			t.Errorf("key %s: %d solutions, backtracking finds %d", rowSet(k.E), c, want)
		}
		counts = append(counts, c)
		total += uint64(k.Weight) * c
		fmt.Fprintf(w, "%-24s %5d %6d %6d %10d %7d %9d\n", walkKeyName(l, k.E, int(k.Sep)), len(xs), len(ys),
			len(xs)*len(ys), c, k.Weight, uint64(k.Weight)*c)
	}
	got, _, _ := NewWorker(tb).CountKeys(l.Keys(), nil)
	if got != total || total != uint64(len(sols)) {
		t.Errorf("N = %d: the keys add up to %d, Worker.CountKeys to %d, backtracking finds %d", l.N, total, got, len(sols))
	}
	fmt.Fprintf(w, "\nThe weighted sum: %d solutions of %d queens (Worker.CountKeys and backtracking agree).\n", total, l.N)
	return counts
}

// walkKey draws one key: its two halves, their patterns, the match and
// the solutions, then its pairs counted with bit-sliced tables.
func walkKey(t *testing.T, w *strings.Builder, tb *Tables, k Key) {
	l := tb.Layout
	sp := &l.seps[k.Sep]
	full := uint32(1)<<l.N - 1
	f := full &^ k.E &^ sp.rows
	xs, x0, ys, y0 := walkHalves(tb, k)
	leftCols := bitList(1<<l.CL - 1)

	walkLine(w, fmt.Sprintf("4. One key, E = %s", rowSet(k.E)))
	top, bot := k.E&(1<<l.TR-1), k.E&^(1<<l.TR-1)
	fmt.Fprintf(w, "The left half: a queen on each row of E. Tables.half joins, for each column set of the top\n")
	fmt.Fprintf(w, "quarter, its placements on rows %s with the bottom quarter's on rows %s and the other\n", rowSet(top), rowSet(bot))
	fmt.Fprintf(w, "columns, when they share no diagonal (their w0 words are disjoint). Each placement keeps its\n")
	fmt.Fprintf(w, "pattern w1: d the diagonals c − r = %d…%d, a the anti-diagonals c + r = %d…%d, bit 0 first.\n", 1-l.CL, l.CL-1, l.CL+l.S, l.CL+l.N-2)
	fmt.Fprintln(w, "*: the squares of the right half on those diagonals, where the right half's queens may not go.")
	fmt.Fprintln(w)
	sepQ := l.sepQueens(int(k.Sep))
	lefts := placementsOn(l.N, bitList(k.E), leftCols, sepQ)
	if len(lefts) != len(xs) {
		t.Fatalf("key %s: %d left placements, plain search finds %d", rowSet(k.E), len(xs), len(lefts))
	}
	var left []walkPlacement
	var caps []string
	var blocks [][]string
	for i, x := range xs {
		p := l.decode(t, lefts, x0[i], x)
		left = append(left, p)
		caps = append(caps, fmt.Sprintf("x%d: %s", i, patternBits(l, x)))
		blocks = append(blocks, walkBoard(l, p, func(r, c int) bool { return c >= l.CL+l.S && onPattern(l, x, r, c) }))
	}
	inRows(w, caps, blocks, 3)

	fmt.Fprintf(w, "\nThe right half, on rows F = %s: built as a left half on F (the board mirrored in the middle\n", rowSet(f))
	fmt.Fprintln(w, "column) and mirrored back, which reverses its pattern: bit i of y is the same diagonal as bit i")
	fmt.Fprintln(w, "of x. *: the squares of the left half on its diagonals.")
	fmt.Fprintln(w)
	rights := placementsOn(l.N, bitList(f), leftCols, l.sepQueens(int(sp.mirror)))
	var right []walkPlacement
	caps, blocks = nil, nil
	for i, y := range ys {
		p := slices.Clone(l.decode(t, rights, y0[i], bits.Reverse64(y)>>(64-l.M)))
		for r, c := range p {
			if c >= 0 {
				p[r] = l.N - 1 - c
			}
		}
		if _, w1 := l.words(p); w1 != y {
			t.Fatalf("right placement %v: pattern %#x, its diagonals %#x", p, y, w1)
		}
		right = append(right, p)
		caps = append(caps, fmt.Sprintf("y%d: %s", i, patternBits(l, y)))
		blocks = append(blocks, walkBoard(l, p, func(r, c int) bool { return c < l.CL && onPattern(l, y, r, c) }))
	}
	inRows(w, caps, blocks, 3)

	fmt.Fprintln(w, "\nThe match: x and y fit when x & y == 0 (no diagonal in common; rows and columns cannot clash).")
	fmt.Fprintln(w)
	fmt.Fprint(w, "    ")
	for j := range ys {
		fmt.Fprintf(w, " y%d", j)
	}
	fmt.Fprintln(w)
	caps, blocks = nil, nil
	for i, x := range xs {
		fmt.Fprintf(w, "x%-3d", i)
		for j, y := range ys {
			mark := "."
			if x&y == 0 {
				mark = "+"
				sol := slices.Clone(left[i])
				for r, c := range right[j] {
					if c >= 0 {
						sol[r] = c
					}
				}
				for r, c := range sepQ {
					if c >= 0 {
						sol[r] = c
					}
				}
				if !isSolution(sol) {
					t.Errorf("x%d and y%d fit, but %v is no solution", i, j, sol)
				}
				caps = append(caps, fmt.Sprintf("x%d + y%d", i, j))
				blocks = append(blocks, walkBoard(l, sol, nil))
			}
			fmt.Fprintf(w, "  %s", mark)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nPairs that fit, the key's solutions: %d.\n\n", len(blocks))
	inRows(w, caps, blocks, 3)
	walkBitSliced(t, w, xs, ys)
}

// isSolution reports whether a full placement has no two queens attacking.
func isSolution(p walkPlacement) bool {
	for r1, c1 := range p {
		if c1 < 0 {
			return false
		}
		for r2 := r1 + 1; r2 < len(p); r2++ {
			if attacks(r1, c1, r2, p[r2]) {
				return false
			}
		}
	}
	return true
}

// walkBitSliced counts a key's pairs as a leaf of the sieve does: both
// lists compressed to the bits both have, the longer one as a block with a
// table per chunk of bits, each pattern of the other ANDing one row per
// chunk.
func walkBitSliced(t *testing.T, w *strings.Builder, xs, ys []uint64) {
	bx, by := "x", "y"
	if len(xs) < len(ys) {
		xs, ys, bx, by = ys, xs, by, bx
	}
	var ox, oy uint64
	for _, x := range xs {
		ox |= x
	}
	for _, y := range ys {
		oy |= y
	}
	j := ox & oy
	m := bits.OnesCount64(j)
	var mt matcher
	cx := make([]uint64, len(xs), len(xs)+64)
	cy := make([]uint64, len(ys))
	compressGo(&mt, cx, xs, j)
	compressGo(&mt, cy, ys, j)
	jj := uint64(1)<<m - 1
	g, _ := chunking(m, len(ys))
	mt.buildTables(&goOps, cx, jj, g)

	walkLine(w, "5. The same pairs, bit-sliced")
	fmt.Fprintf(w, "In a count, the sieve (internal/join/sieve.go) splits long lists on the bits many patterns share, and its\n")
	fmt.Fprintf(w, "leaves count the pairs left with tables (leaf), as here for this key's lists. Both\n")
	fmt.Fprintf(w, "lists keep only the %d bits that both have (compressGo): ", m)
	var kept []string
	for x := j; x != 0; x &= x - 1 {
		kept = append(kept, fmt.Sprint(bits.TrailingZeros64(x)))
	}
	fmt.Fprintf(w, "bits %s of the pattern.\n", strings.Join(kept, ","))
	fmt.Fprintf(w, "The longer list, the %ss, is a block (up to 512 patterns), cut into k = %d chunks of w = %d bits\n", bx, g.k, g.w)
	fmt.Fprintf(w, "(chunking); row v of a chunk's table has the bit of each pattern that misses the bits v:\n\n")
	bitsOf := func(x uint64, n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteByte(byte('0' + x>>i&1))
		}
		return b.String()
	}
	for i, x := range cx {
		fmt.Fprintf(w, "%s%d = %s\n", bx, i, bitsOf(x, m))
	}
	fmt.Fprintln(w)
	for c := range g.k {
		fmt.Fprintf(w, "chunk %d (bits %d–%d):", c, c*g.w, min(c*g.w+g.w, m)-1)
		for v := range 1 << g.w {
			fmt.Fprintf(w, "  row %s: %s", bitsOf(uint64(v), g.w), bitsOf(mt.tab[c*chunkRows+v][0], len(cx)))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nEach %s ANDs the rows its chunks pick; the bits left are the %ss it fits (countBlockGo):\n\n", by, bx)
	mask := uint64(1)<<g.w - 1
	var total uint64
	for i, y := range cy {
		acc := ^uint64(0)
		var rows []string
		for c := range g.k {
			v := y >> (c * g.w) & mask
			acc &= mt.tab[c*chunkRows+int(v)][0]
			rows = append(rows, bitsOf(v, g.w))
		}
		n := countBlockGo(&mt, cy[i:i+1], jj, g)
		if n != uint64(bits.OnesCount64(acc)) || n != bruteDisjoint(cx, cy[i:i+1]) {
			t.Errorf("%s%d: the block counts %d, its rows %b, one by one %d", by, i, n, acc, bruteDisjoint(cx, cy[i:i+1]))
		}
		total += n
		fmt.Fprintf(w, "%s%d = %s  rows %s  AND %s  count %d\n", by, i, bitsOf(y, m), strings.Join(rows, " "), bitsOf(acc, len(cx)), n)
	}
	big, _ := chunking(34, laneBlock)
	fmt.Fprintf(w, "\nPairs that fit: %d, as above. Long lists take wider chunks: at N = 18 (34 bits), a block of 512\n", total)
	fmt.Fprintf(w, "patterns against as many has k = %d chunks of w = %d bits, tables of %d rows, and each pattern ANDs %d rows.\n", big.k, big.w, 1<<big.w, big.k)
}
