package classic

import (
	"math/big"

	"github.com/nqueens/nqueens/board"
)

// bruteRows puts one queen in each row, every way: n^n candidates
// (16,777,216 for n = 8), each checked whole.
var bruteRows = bruteForce{
	name:       "brute-rows",
	formula:    "n^n",
	candidates: func(n int) *big.Int { return new(big.Int).Exp(big.NewInt(int64(n)), big.NewInt(int64(n)), nil) },
	run:        runRows,
	teach:      &lessonRows,
}

// runRows counts through the columns like an odometer in base n, the last row
// turning fastest. Cost O(n) per candidate, n^n candidates.
func runRows(t *candidates, n int) {
	p := make(board.Placement, n) // all queens in column 0
	for t.test(p, firstPair(p, false)) {
		r := n - 1
		for r >= 0 && int(p[r]) == n-1 {
			p[r] = 0
			r--
		}
		if r < 0 {
			break
		}
		p[r]++
	}
}

var lessonRows = lesson{
	name: "brute-rows",
	// The event that runs each line of the pseudocode, whose text is the
	// message algo.brute-rows.code.LINE.
	code: []EventKind{0, Reject, Solution, Done},
	say:  sayCandidate("brute-rows"),
}
