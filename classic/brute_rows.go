package classic

import (
	"math/big"

	"github.com/nqueens/nqueens/board"
)

// bruteRows puts one queen in each row, every way: n^n candidates
// (16,777,216 for n = 8), each checked whole.
var bruteRows = bruteForce{
	name:        "brute-rows",
	description: "one queen a row in every column, n^n candidates, each checked whole",
	formula:     "n^n",
	candidates:  func(n int) *big.Int { return new(big.Int).Exp(big.NewInt(int64(n)), big.NewInt(int64(n)), nil) },
	run:         runRows,
	teach:       &lessonRows,
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
	title: "brute force, n^n boards",
	summary: "One queen in each row, every column for each: n^n candidates, 16,777,216 for n = 8, each checked " +
		"whole, pair by pair. Knowing that a row holds one queen already divides the work by about 264, and still " +
		"nothing is learnt from a failed board.",
	code: []codeLine{
		{"for each board with one queen a row (n^n, an odometer on the columns):", 0},
		{"  if two queens share a column or a diagonal (pair by pair): next board", Reject},
		{"  report the board", Solution},
		{"report the number of solutions", Done},
	},
	say: sayCandidate("brute-rows"),
}
