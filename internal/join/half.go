package join

import "math/bits"

// rowList is the part of a quarter's table with one set of rows: its
// placements with the column set C are w0[off[C]] … w0[off[C+1]−1] (and
// w1 alike). A view into [Tables] or a list of its own ([Worker] builds
// them when the tables would not fit).
type rowList struct {
	off    []uint32
	w0, w1 []uint64
	next   []uint32 // fill's cursor per column set, kept for reuse
}

// half appends to out the patterns (w1) of the left half's placements with
// a queen in each row of e, avoiding the squares sm of the separator: each
// a top-quarter placement (of top, the rows of e in the top quarter)
// joined with a bottom one (of bot) on the other columns, sharing no
// diagonal with it. Only the top column sets cells[0] … cells[1]−1 (their
// index among those of their size) are joined. If out0 is not nil, the
// placements' w0 words are appended to *out0 too, in step (their
// separator bits let the caller filter for other separator placements
// later). o does the joins.
func (t *Layout) half(o *matchOps, out []uint64, out0 *[]uint64, top, bot rowList, k int, cells [2]int, sm uint64) []uint64 {
	cl := uint(t.CL)
	full := uint32(1)<<cl - 1
	inner := uint64(1)<<(2*cl-2) - 1
	subsets := t.subsets[k]
	for _, c1 := range subsets[cells[0]:min(cells[1], len(subsets))] {
		tlo, thi := top.off[c1], top.off[c1+1]
		if tlo == thi {
			continue
		}
		c2 := full ^ c1
		blo, bhi := bot.off[c2], bot.off[c2+1]
		if blo == bhi {
			continue
		}
		out = o.join(out, out0, top.w0[tlo:thi], top.w1[tlo:thi], inner, sm, bot.w0[blo:bhi], bot.w1[blo:bhi])
	}
	return out
}

// joinCellGo appends the joins of the top placements t0, t1 of a cell and
// the bottom ones b0, b1 of the other columns: t1 | b1 (and t0 | b0 to
// *out0 if out0 is not nil) for every pair that shares no diagonal (t0 &
// inner against b0) and avoids the separator's squares sm.
func joinCellGo(out []uint64, out0 *[]uint64, t0, t1 []uint64, inner, sm uint64, b0, b1 []uint64) []uint64 {
	t1 = t1[:len(t0)]
	b1 = b1[:len(b0)]
	for i, x := range t0 {
		if x&sm != 0 {
			continue
		}
		n := len(out)
		out = grow(out, len(b0))
		var w0 []uint64
		if out0 != nil {
			w0 = grow(*out0, len(b0))
		}
		y := x&inner | sm
		for j, w := range b0 {
			// Without a branch: whether a pair fits is close to a coin toss.
			out[n] = t1[i] | b1[j]
			if out0 != nil {
				w0[n] = x | w
			}
			n += int(b2i(w&y == 0))
		}
		out = out[:n]
		if out0 != nil {
			*out0 = w0[:n]
		}
	}
	return out
}

// filterGo appends to dst the patterns of src whose w0 word misses sm.
func filterGo(dst, src, w0 []uint64, sm uint64) []uint64 {
	w0 = w0[:len(src)]
	for i, x := range src {
		if w0[i]&sm == 0 {
			dst = append(dst, x)
		}
	}
	return dst
}

// reverseGo reverses the bits of each pattern and shifts them down by
// shift: the pattern of the mirrored half.
func reverseGo(xs []uint64, shift int) {
	for i, x := range xs {
		xs[i] = bits.Reverse64(x) >> shift
	}
}

// grow returns s with room for k more elements past its length, and its
// length extended by k (the caller shortens it again).
func grow(s []uint64, k int) []uint64 {
	n := len(s)
	if n+k > cap(s) {
		t := make([]uint64, n, max(2*cap(s), n+k, 1024))
		copy(t, s)
		s = t
	}
	return s[:n+k]
}

func b2i(b bool) uint64 {
	var x uint64
	if b {
		x = 1
	}
	return x
}

// half is [Layout.half] for the whole left half on the rows e, from the
// tables (the walk's tests draw it so).
func (t *Tables) half(o *matchOps, out []uint64, out0 *[]uint64, e uint32, sm uint64) []uint64 {
	low := uint32(1)<<t.TR - 1
	k := bits.OnesCount32(e & low)
	return t.Layout.half(o, out, out0, t.rowsOf(&t.top, e&low), t.rowsOf(&t.bot, e>>t.TR), k, [2]int{0, len(t.subsets[k])}, sm)
}
