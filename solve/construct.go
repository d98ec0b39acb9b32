package solve

import (
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// Pattern is the constructed solution for one n. It stores only n: Col
// computes any row's column in O(1), so the board can be written or verified
// row by row without being held in memory. Pattern implements [board.Columns].
type Pattern struct {
	n    int
	rest int // n mod 6, which selects the case
}

// NoSolutionError says that n = 2 and n = 3 have no solution.
type NoSolutionError struct{ N int }

func (e *NoSolutionError) Error() string { return e.Localize(i18n.For(i18n.English)) }

// Localize is the error in p's language.
func (e *NoSolutionError) Localize(p *i18n.Printer) string {
	return p.T("construct.nosolution", i18n.Args{"N": e.N})
}

// Construct returns the closed-form solution for n = 1 or n ≥ 4, or
// *[NoSolutionError] for n = 2 and 3. Cost O(1); each Col call is O(1).
func Construct(n int) (Pattern, error) {
	if err := board.CheckSize(n, "solve", board.MaxN); err != nil {
		return Pattern{}, err
	}
	switch {
	case n == 2 || n == 3:
		return Pattern{}, &NoSolutionError{N: n}
	}
	return Pattern{n: n, rest: n % 6}, nil
}

// N is the board size.
func (p Pattern) N() int { return p.n }

// Col is the 0-based column of the queen in row (0 ≤ row < n).
func (p Pattern) Col(row int) int { return p.col1(row) - 1 }

// col1 is the 1-based column of the queen in row, as the construction is
// written.
func (p Pattern) col1(row int) int {
	evens := p.n / 2 // how many even columns 2, 4, … the list starts with
	if row < evens {
		j := row
		if p.rest == 3 {
			// 4, 6, …, n-1, then 2.
			if j == evens-1 {
				return 2
			}
			return 2*j + 4
		}
		return 2*j + 2
	}
	j := row - evens
	odds := p.n - evens
	switch p.rest {
	case 2:
		// 3, 1, 7, 9, …, n-1, then 5.
		switch {
		case j == 0:
			return 3
		case j == 1:
			return 1
		case j == odds-1:
			return 5
		}
		return 2*j + 3
	case 3:
		// 5, 7, …, n, then 1, 3.
		switch j {
		case odds - 2:
			return 1
		case odds - 1:
			return 3
		}
		return 2*j + 5
	}
	return 2*j + 1
}

// Placement materialises the pattern. Cost O(n) time and 4n bytes.
func (p Pattern) Placement() board.Placement { return board.Collect(p) }
