package variant

import (
	"context"
	"fmt"
	"iter"
	"math/bits"

	"github.com/nqueens/nqueens/board"
)

// attackKind returns why pieces on two distinct squares (r1, c1) and
// (r2, c2) of s attack each other, or 0: the rule as a person states it.
func (s Spec) attackKind(r1, c1, r2, c2 int) board.ProblemKind {
	dr, dc := r2-r1, c2-c1
	mod := func(x int) int { return x }
	if s.Torus {
		mod = func(x int) int { return ((x % s.Rows) + s.Rows) % s.Rows }
	}
	switch {
	case dr == 0:
		return board.SameRow
	case dc == 0:
		return board.SameColumn
	case mod(dr-dc) == 0:
		return board.Diagonal
	case mod(dr+dc) == 0:
		return board.AntiDiagonal
	}
	if s.Piece == Superqueen {
		for _, v := range [8][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			if mod(dr-v[0]) == 0 && mod(dc-v[1]) == 0 {
				return board.KnightMove
			}
		}
	}
	return 0
}

// Verify reports whether p, one piece or none a row (p[r] the column of
// row r's piece, or board.Empty), is a placement of s: s.Rows rows, columns
// in range, s.Queens pieces in all (with s.Queens = s.Rows, no row empty),
// no two attacking under s's rule. The error is a *board.Problem for a
// column out of range, an empty row or two pieces attacking (kind
// board.KnightMove for a superqueen's knight move; on a torus "same
// diagonal" includes diagonals that wrap round the edge); a wrong size or
// number of pieces is a plain error. Cost O(rows²).
func Verify(s Spec, p board.Placement) error {
	if err := s.Validate(); err != nil {
		return err
	}
	s = s.Normal()
	if len(p) != s.Rows {
		return fmt.Errorf("the board has %d rows, not %d", len(p), s.Rows)
	}
	pieces := 0
	for r, c := range p {
		col := int(c)
		if col == board.Empty {
			if s.Queens == s.Rows {
				return &board.Problem{Kind: board.EmptyRow, N: s.Rows, Row: r, Col: board.Empty}
			}
			continue
		}
		if col < 0 || col >= s.Cols {
			return &board.Problem{Kind: board.OutOfRange, N: s.Cols, Row: r, Col: col}
		}
		for r2 := range r {
			if c2 := int(p[r2]); c2 != board.Empty {
				if k := s.attackKind(r2, c2, r, col); k != 0 {
					return &board.Problem{Kind: k, N: s.Rows, Row: r, Col: col, Row2: r2, Col2: c2}
				}
			}
		}
		pieces++
	}
	if pieces != s.Queens {
		return fmt.Errorf("the board has %d pieces, not %d", pieces, s.Queens)
	}
	return nil
}

// CheckBoard checks the board p (queens and blocked squares) by the rules
// of a variant: on a torus (diagonals wrap round the edges) and with
// piece. With full it must be a solution, a piece on every row; otherwise
// its pieces need only not attack each other. It is [Check] with any
// number of pieces.
func CheckBoard(p board.Partial, torus bool, piece Piece, full bool) error {
	return Check(p, Spec{Torus: torus, Piece: piece}, !full)
}

// Check checks the board p, of len(p.Queens) rows and p.Width() columns,
// by the rules s names (s's Rows and Cols are not read: the board's size
// is its own): no piece on a blocked square, no two pieces attacking, and
// s.Queens pieces (0: one on every row); with partial, at most s.Queens
// (0: any number). The error is a *board.Problem for what is wrong first,
// as [Verify] finds it, or a plain error for the number of pieces, or for
// a board past MaxSide rows or columns. Cost O(rows² + blocked squares).
func Check(p board.Partial, s Spec, partial bool) error {
	if len(p.Blocked) > 0 {
		if err := board.CheckBlocked(p.Queens, p.Blocked); err != nil {
			return err
		}
	}
	want := s.Queens
	s.Rows, s.Cols = len(p.Queens), p.Width()
	if want == 0 {
		s.Queens = s.Rows
	}
	if partial {
		pieces := p.Queens.Queens()
		if want > 0 && pieces > want {
			return fmt.Errorf("the board has %d pieces, more than %d", pieces, want)
		}
		s.Queens = max(pieces, 1) // an empty board breaks no rule
		if pieces == 0 {
			return s.Validate()
		}
	}
	return Verify(s, p.Queens)
}

// Solutions enumerates every placement of s, each once, as a
// board.Placement of s.Rows rows (board.Empty for a row without a piece),
// in lexicographic order of the columns with an empty row after every
// column. The error of the last pair, if any, says why the sequence
// stopped early: an invalid spec or ctx's end, which the search looks at
// every 16384 nodes, placements found or not. Cost: the search, O(rows)
// memory; nothing is buffered.
func Solutions(ctx context.Context, s Spec) iter.Seq2[board.Placement, error] {
	return func(yield func(board.Placement, error) bool) {
		if err := s.Validate(); err != nil {
			yield(nil, err)
			return
		}
		s = s.Normal()
		if s.NoneFit() != "" {
			return
		}
		// The rows as given, not transposed: rows may outnumber columns.
		g := geom{rows: s.Rows, cols: s.Cols, k: s.Queens, torus: s.Torus, super: s.Piece == Superqueen, full: ^uint64(0) >> uint(64-s.Cols)}
		p := board.New(s.Rows)
		var nodes uint64
		var rec func(n node) bool
		rec = func(n node) bool {
			// Counted by nodes, not placements: a long stretch of the tree
			// may hold none.
			if nodes++; nodes%stopEvery == 0 && ctx.Err() != nil {
				yield(nil, ctx.Err())
				return false
			}
			if n.placed == g.k {
				for r := n.row; r < g.rows; r++ {
					p[r] = board.Empty
				}
				return yield(p.Clone(), nil)
			}
			if n.row == g.rows {
				return true
			}
			for a := g.free(&n); a != 0; a &= a - 1 {
				bit := a & -a
				p[n.row] = int32(bits.TrailingZeros64(bit))
				if !rec(g.child(&n, bit)) {
					return false
				}
			}
			if g.canSkip(&n) {
				p[n.row] = board.Empty
				return rec(g.child(&n, 0))
			}
			return true
		}
		rec(node{})
	}
}
