package dominate

import (
	"math/bits"
	"sync/atomic"
)

// MaxExact is the largest board the exact search takes: its sets of
// squares are four 64-bit words.
const MaxExact = 16

// set is a set of squares of a board of at most MaxExact² squares, square
// r·N + c being bit r·N + c.
type set [4]uint64

func (s *set) add(i int)       { s[i>>6] |= 1 << uint(i&63) }
func (s set) and(t set) set    { return set{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]} }
func (s set) andNot(t set) set { return set{s[0] &^ t[0], s[1] &^ t[1], s[2] &^ t[2], s[3] &^ t[3]} }
func (s set) or(t set) set     { return set{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]} }
func (s set) empty() bool      { return s[0]|s[1]|s[2]|s[3] == 0 }
func (s set) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}
func (s set) andCount(t set) int {
	return bits.OnesCount64(s[0]&t[0]) + bits.OnesCount64(s[1]&t[1]) + bits.OnesCount64(s[2]&t[2]) + bits.OnesCount64(s[3]&t[3])
}
func (s set) subsetOf(t set) bool { return s.andNot(t).empty() }

// each calls f on every square of s in increasing order.
func (s set) each(f func(i int)) {
	for w, x := range s {
		for ; x != 0; x &= x - 1 {
			f(w<<6 | bits.TrailingZeros64(x))
		}
	}
}

// problem is the exact search's view of an N × N board: for every square,
// the squares a queen on it dominates (its own, and its row, column and
// diagonals).
type problem struct {
	n           int
	cells       int
	all         set
	cover       []set
	independent bool
}

func newProblem(n int, independent bool) *problem {
	p := &problem{n: n, cells: n * n, cover: make([]set, n*n), independent: independent}
	for v := range p.cells {
		p.all.add(v)
		r, c := v/n, v%n
		for w := range p.cells {
			r2, c2 := w/n, w%n
			if r == r2 || c == c2 || r-c == r2-c2 || r+c == r2+c2 {
				p.cover[v].add(w)
			}
		}
	}
	return p
}

// searcher runs one exact search: find one set, or count them all, of k
// queens dominating the board, with the queens' squares in queens.
type searcher struct {
	p      *problem
	count  bool
	found  uint64
	first  []int // the first set found
	queens []int
	nodes  uint64
	stop   *atomic.Bool
	halted bool
	// broken is set when, counting, a smaller set than asked for dominates:
	// the caller's proof that none does is wrong.
	broken bool
	cov    []int // scratch: the largest coverages of the undominated
	// collect, when set, receives the states at depth cut instead of
	// searching them: the work units.
	collect *[]unitState
	cut     int
}

// unitState is a node of the search: the queens placed, the squares still
// undominated, the squares no longer allowed and the queens to come.
type unitState struct {
	queens       []int
	u, forbidden set
	k            int
}

// search finds (or counts) the ways to dominate the undominated squares u
// with k more queens on squares outside forbidden. Every dominating set is
// reached once: the undominated square with the fewest candidates must be
// dominated by one of them, and the i-th branch forbids the candidates
// before it. It returns false when it should stop (a set found and not
// counting, or stop set).
func (s *searcher) search(u, forbidden set, k int) bool {
	if s.collect != nil && len(s.queens) == s.cut {
		*s.collect = append(*s.collect, unitState{queens: append([]int(nil), s.queens...), u: u, forbidden: forbidden, k: k})
		return true
	}
	s.nodes++
	if s.nodes&(1<<12-1) == 0 && s.stop != nil && s.stop.Load() {
		s.halted = true
		return false
	}
	if u.empty() {
		// Only k = 0 reaches here when k is the minimum; a smaller set
		// would contradict the search at k − 1 that the callers ran first.
		// A larger k takes any k more squares, which only happens when
		// looking for a set (not counting).
		if s.count && k > 0 {
			s.broken = true
		}
		s.found++
		if s.first == nil {
			s.first = append([]int(nil), s.queens...)
		}
		return s.count
	}
	if k == 0 {
		return true
	}
	allowed := s.p.all.andNot(forbidden)
	// Bound: the k squares that dominate most of u together dominate no
	// more than the sum of their counts; and pick the undominated square
	// with the fewest candidates.
	best, bestN := -1, 1<<30
	u.each(func(i int) {
		if bestN == 0 {
			return
		}
		if m := s.p.cover[i].andCount(allowed); m < bestN {
			best, bestN = i, m
		}
	})
	if bestN == 0 {
		return true
	}
	if k > 1 {
		need := u.count()
		top := s.cov[:0]
		allowed.each(func(v int) { top = insertTop(top, s.p.cover[v].andCount(u), k) })
		sum := 0
		for _, x := range top {
			sum += x
		}
		if sum < need {
			return true
		}
	} else {
		// One queen left: it must dominate all of u.
		cands := s.p.cover[best].and(allowed)
		ok := true
		cands.each(func(v int) {
			if ok && u.subsetOf(s.p.cover[v]) {
				s.queens = append(s.queens, v)
				ok = s.search(set{}, forbidden, 0)
				s.queens = s.queens[:len(s.queens)-1]
			}
		})
		return ok
	}
	cands := s.p.cover[best].and(allowed)
	ok := true
	cands.each(func(v int) {
		if !ok {
			return
		}
		f := forbidden
		if s.p.independent {
			f = f.or(s.p.cover[v])
		}
		s.queens = append(s.queens, v)
		ok = s.search(u.andNot(s.p.cover[v]), f, k-1)
		s.queens = s.queens[:len(s.queens)-1]
		forbidden.add(v)
	})
	return ok
}

// insertTop keeps the k largest values seen in top, largest first.
func insertTop(top []int, x, k int) []int {
	if len(top) == k && x <= top[k-1] {
		return top
	}
	i := len(top)
	if i < k {
		top = append(top, x)
	} else {
		i = k - 1
	}
	for i > 0 && top[i-1] < x {
		top[i] = top[i-1]
		i--
	}
	top[i] = x
	return top
}
