package join

import "slices"

// RankedFrom is the first N whose layout lists no keys: from N = 24 on
// the keys are too many to keep (N = 27 has about 7·10⁷, N = 32 1.5·10⁸)
// and to hash into a count's fingerprint. Its units are runs of rows sets
// E in increasing order (ranks of the CL-subsets of the N rows), and a
// unit's keys are made when it is counted.
const RankedFrom = 24

// rankedUnits is about how many units a ranked layout has: enough to keep
// a thousand cores busy, few enough to list in a ledger.
const rankedUnits = 1 << 16

// binomial returns C(n, k) for n ≤ 32 (at most C(32, 16) < 2^30 · 2).
func binomial(n, k int) uint64 {
	if k < 0 || k > n {
		return 0
	}
	c := uint64(1)
	for i := 1; i <= k; i++ {
		c = c * uint64(n-k+i) / uint64(i)
	}
	return c
}

// ranked sets up l's units as runs of l.per rows sets.
func (l *Layout) ranked() {
	l.sets = binomial(l.N, l.CL)
	l.per = max(1, (l.sets+rankedUnits-1)/rankedUnits)
	l.nunits = int((l.sets + l.per - 1) / l.per)
}

// Ranked reports whether l makes its units' keys when asked (N ≥
// RankedFrom) rather than listing them; then PerUnit is the rows sets of
// a unit.
func (l *Layout) Ranked() bool { return l.sets != 0 }

// PerUnit returns how many rows sets (ranks) a unit of a ranked layout
// takes, and the number of rows sets.
func (l *Layout) PerUnit() (per, sets uint64) { return l.per, l.sets }

// unrank returns the CL-subset of rank r of the N rows, in increasing
// order of the subsets as numbers (the colexicographic order: the rank is
// the sum of C(c_i, i) over its elements c_1 < c_2 < …).
func (l *Layout) unrank(r uint64) uint32 {
	var e uint32
	c := l.N
	for i := l.CL; i >= 1; i-- {
		c--
		for binomial(c, i) > r {
			c--
		}
		e |= 1 << c
		r -= binomial(c, i)
	}
	return e
}

// nextSet returns the next larger set of as many elements (Gosper's hack).
func nextSet(e uint32) uint32 {
	lo := e & -e
	hi := e + lo
	return ((hi ^ e) >> 2 / lo) | hi
}

// rankedKeys appends to out the keys of the rows sets of ranks [lo, hi),
// sorted by rows and separator.
func (l *Layout) rankedKeys(out []Key, lo, hi uint64) []Key {
	e := l.unrank(lo)
	for r := lo; r < hi; r++ {
		for si := range l.seps {
			if l.seps[si].rows&e != 0 {
				continue
			}
			if w, ok := l.canonical(e, si); ok {
				out = append(out, Key{E: e, Sep: uint16(si), Weight: uint8(w)})
			}
		}
		if r+1 < hi {
			e = nextSet(e)
		}
	}
	return out
}

// rankedUnitKeys returns the keys of unit u of a ranked layout.
func (l *Layout) rankedUnitKeys(u int) []Key {
	lo := uint64(u) * l.per
	return l.rankedKeys(nil, lo, min(lo+l.per, l.sets))
}

// SampleKeys returns the keys of the rows set of rank r (of the layout's
// C(N, CL)), for probes: every rows set has the same chance, so the mean
// work of a few is the work of all over C(N, CL).
func (l *Layout) SampleKeys(r uint64) []Key {
	if l.Ranked() {
		return l.rankedKeys(nil, r, r+1)
	}
	e := l.unrank(r)
	i, _ := slices.BinarySearchFunc(l.keys, e, func(k Key, e uint32) int { return cmpU32(k.E, e) })
	j := i
	for j < len(l.keys) && l.keys[j].E == e {
		j++
	}
	return l.keys[i:j]
}

// Sets returns C(N, CL), the rows sets that SampleKeys takes.
func (l *Layout) Sets() uint64 { return binomial(l.N, l.CL) }

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
