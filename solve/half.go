package solve

import "github.com/nqueens/nqueens/board"

// ConstructHalf returns the other classic closed-form solution, the one
// seed article 000 prints (n = 8: columns 4 6 8 2 7 1 3 5): where n mod 6
// is neither 2 nor 3 it is [Construct]'s (the even columns, then the odd
// ones); where it is, the even columns start at the middle, k = m/2 for
// the even m = n or n − 1, and wrap round, the odd ones likewise, and an
// odd n puts its last queen in the corner:
//
//	k even: k, k+2, …, m, 2, 4, …, k−2, k+3, k+5, …, m−1, 1, 3, …, k+1
//	k odd:  k, k+2, …, m−1, 1, 3, …, k−2, k+3, k+5, …, m, 2, 4, …, k+1
//
// It is a solution for every n = 1 or n ≥ 4 (TestConstructHalf checks it
// to 2,000), not always in [Construct]'s symmetry class. n = 2 and 3 give
// *[NoSolutionError]. Cost O(n) time and memory.
func ConstructHalf(n int) (board.Placement, error) {
	p, err := Construct(n)
	if err != nil {
		return nil, err
	}
	if p.rest != 2 && p.rest != 3 {
		return p.Placement(), nil
	}
	m := n - n%2
	k := m / 2
	cols := make(board.Placement, 0, n)
	run := func(from, to int) { // from, from+2, …, to, as 0-based columns
		for c := from; c <= to; c += 2 {
			cols = append(cols, int32(c-1))
		}
	}
	if k%2 == 0 {
		run(k, m)
		run(2, k-2)
		run(k+3, m-1)
		run(1, k+1)
	} else {
		run(k, m-1)
		run(1, k-2)
		run(k+3, m)
		run(2, k+1)
	}
	if n%2 == 1 {
		cols = append(cols, int32(n-1))
	}
	return cols, nil
}

// SameAsHalf reports whether [ConstructHalf] gives the same board as p: it
// does unless n mod 6 is 2 or 3. Cost O(1).
func (p Pattern) SameAsHalf() bool { return p.rest != 2 && p.rest != 3 }
