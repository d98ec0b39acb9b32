package classic

import (
	"math/big"

	"github.com/nqueens/nqueens/board"
)

// permutations puts one queen in each row and each column: n! candidates
// (40,320 for n = 8), so only the diagonals need checking.
var permutations = bruteForce{
	name:       "permutations",
	formula:    "n!",
	candidates: func(n int) *big.Int { return new(big.Int).MulRange(1, int64(n)) },
	run:        runPermutations,
	teach:      &lessonPermutations,
}

// runPermutations walks the permutations in lexicographic order. Cost
// O(n²) per candidate for the diagonal check, n! candidates.
func runPermutations(t *candidates, n int) {
	p := make(board.Placement, n)
	for i := range p {
		p[i] = int32(i)
	}
	for t.test(p, firstPair(p, true)) && nextPermutation(p) {
	}
}

// nextPermutation steps p to the next permutation in lexicographic order
// (Narayana's algorithm), reporting false after the last one.
func nextPermutation(p board.Placement) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	for l, r := i+1, len(p)-1; l < r; l, r = l+1, r-1 {
		p[l], p[r] = p[r], p[l]
	}
	return true
}

var lessonPermutations = lesson{
	name: "permutations",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.permutations.code.LINE.
	code: []EventKind{0, Reject, Solution, Done},
	say:  sayCandidate("permutations"),
}
