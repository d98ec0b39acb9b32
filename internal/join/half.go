package join

import "math/bits"

// half appends to out the patterns (w1) of the left half's placements with
// queens in the rows e, one per row, that avoid the squares sm (w0 bits of
// the separator) on the diagonals: each a top-quarter placement joined with
// a bottom one on the other columns, which share no diagonal.
func (p *Plan) half(out []uint64, e uint32, sm uint64) []uint64 {
	cl := uint(p.CL)
	r1 := e & (1<<p.TR - 1)
	r2 := e >> p.TR
	full := uint32(1)<<cl - 1
	top, bot := &p.top, &p.bot
	inner := uint64(1)<<(2*cl-2) - 1
	for _, c1 := range p.subsets[bits.OnesCount32(r1)] {
		ti := r1<<cl | c1
		tlo, thi := top.off[ti], top.off[ti+1]
		if tlo == thi {
			continue
		}
		bi := r2<<cl | (full ^ c1)
		blo, bhi := bot.off[bi], bot.off[bi+1]
		if blo == bhi {
			continue
		}
		bw0, bw1 := bot.w0[blo:bhi], bot.w1[blo:bhi]
		for i := tlo; i < thi; i++ {
			t0 := top.w0[i]
			if t0&sm != 0 {
				continue
			}
			out = joinQuarters(out, t0&inner|sm, top.w1[i], bw0, bw1)
		}
	}
	return out
}

// joinQuarters appends t1 | b1[j] for every j with b0[j] & x == 0.
func joinQuarters(out []uint64, x, t1 uint64, b0, b1 []uint64) []uint64 {
	n := len(out)
	out = grow(out, len(b0))
	b1 = b1[:len(b0)]
	for j, w := range b0 {
		// Without a branch: whether a pair fits is close to a coin toss.
		out[n] = t1 | b1[j]
		n += int(b2i(w&x == 0))
	}
	return out[:n]
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
