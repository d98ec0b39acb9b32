package board

import (
	"context"

	"github.com/nqueens/nqueens/i18n"
)

// Partial is a board being filled: queens already placed ([Empty] rows have
// none) and squares on which no queen may go. A board of another width
// than its number of rows (a variant's N rows × M columns, read with
// [ParseAllRect]) has Cols set; the formats write it, and [Partial.Verify]
// and [Partial.Check], whose rules are the square's, refuse it.
type Partial struct {
	Queens  Placement
	Blocked []Square
	Cols    int // columns; 0 means square, as many as rows
}

// Verify reports whether p is a full solution that uses no blocked square:
// nil if so, else what is wrong, in this order: a board without rows, a
// blocked square off the board, the first *[Problem] of [Verify], a queen
// on a blocked square (a *[Problem] of kind [Blocked]). Cost O(n + b) for b
// blocked squares.
func (p Partial) Verify() error { return p.check(true) }

// Check is [Partial.Verify] for a board being filled: empty rows are
// allowed, as in [Check]. It is the test a partial board must pass before
// anyone tries to complete it.
func (p Partial) Check() error { return p.check(false) }

func (p Partial) check(full bool) error {
	n := len(p.Queens)
	if n == 0 {
		return errT("board.norows", nil)
	}
	if err := p.square(); err != nil {
		return err
	}
	if err := p.blockedOnBoard(); err != nil {
		return err
	}
	if err := check(context.Background(), p.Queens, full, nil); err != nil {
		return err
	}
	return CheckBlocked(p.Queens, p.Blocked)
}

// blockedOnBoard reports the first blocked square off the board.
func (p Partial) blockedOnBoard() error {
	n, w := len(p.Queens), p.Width()
	for i, sq := range p.Blocked {
		if sq.Row < 0 || sq.Row >= n || sq.Col < 0 || sq.Col >= w {
			if w != n {
				return errT("board.blockedoff", i18n.Args{"I": itoa(i + 1), "Square": squareName(sq), "Rows": itoa(n), "Cols": itoa(w)})
			}
			return errT("board.blockedoffsquare", i18n.Args{"I": itoa(i + 1), "Square": squareName(sq), "N": itoa(n)})
		}
	}
	return nil
}

// VerifyCompletion reports whether sol completes p: a full solution of the
// same size that keeps every queen of p (checked first) and stands on none
// of its blocked squares. It is the last guard before a completion is shown to anyone.
// Cost O(n + b).
func VerifyCompletion(sol Placement, p Partial) error {
	if len(sol) != len(p.Queens) {
		return errT("board.completion.rows", i18n.Args{"Got": itoa(len(sol)), "N": itoa(len(p.Queens))})
	}
	for r, c := range p.Queens {
		if c != Empty && sol[r] != c {
			return errT("board.completion.moved", i18n.Args{"Row": itoa(r + 1), "From": itoa(int(c) + 1), "To": itoa(int(sol[r]) + 1)})
		}
	}
	return Partial{Queens: sol, Blocked: p.Blocked}.Verify()
}
