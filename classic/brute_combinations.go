package classic

import (
	"math/big"

	"github.com/nqueens/nqueens/board"
)

// bruteCombinations tries every set of n squares out of the n² squares,
// C(n², n) of them (4,426,165,368 for n = 8), and checks each whole.
var bruteCombinations = bruteForce{
	name:       "brute-combinations",
	formula:    "C(n², n)",
	candidates: func(n int) *big.Int { return new(big.Int).Binomial(int64(n)*int64(n), int64(n)) },
	run:        runCombinations,
	teach:      &lessonCombinations,
}

// runCombinations walks the combinations in lexicographic order of square
// numbers (row·n + col). Cost O(n) per candidate, C(n², n) candidates.
func runCombinations(t *candidates, n int) {
	squares := n * n
	pick := make([]int, n) // the chosen squares, increasing
	for i := range pick {
		pick[i] = i
	}
	p := board.New(n)
	t.pick = pick
	for t.test(p, isSolutionSet(pick, p)) {
		// Next combination: bump the rightmost square that can still
		// move, and put the ones after it right behind.
		i := n - 1
		for i >= 0 && pick[i] == squares-n+i {
			i--
		}
		if i < 0 {
			break
		}
		pick[i]++
		for j := i + 1; j < n; j++ {
			pick[j] = pick[j-1] + 1
		}
	}
}

// isSolutionSet fills p from the chosen squares and checks them: no two in
// a row (one read of p a square), then no two attacking each other.
func isSolutionSet(pick []int, p board.Placement) verdict {
	n := len(p)
	for i := range p {
		p[i] = board.Empty
	}
	reads := 0
	for _, sq := range pick {
		r, c := sq/n, sq%n
		reads++
		if p[r] != board.Empty {
			return verdict{at: board.Square{Row: r, Col: c}, by: board.Square{Row: r, Col: int(p[r])}, how: board.SameRow, reads: reads}
		}
		p[r] = int32(c)
	}
	v := firstPair(p, false)
	v.reads += reads
	return v
}

var lessonCombinations = lesson{
	name: "brute-combinations",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.brute-combinations.code.LINE.
	code: []EventKind{0, Reject, Solution, Done},
	say:  sayCandidate("brute-combinations"),
}
