package board

import "github.com/nqueens/nqueens/i18n"

// Rect is a board of len(Placement) rows and Width columns, with at most
// one piece a row, as the variants of package variant have them (N rows ×
// M columns: nqueens list 6 --cols 9). The text formats draw Width
// squares a row and the JSON form adds "cols"; see [ColsOf]. Every other
// [Columns] is square.
type Rect struct {
	Placement     // Placement[r] is the column of row r's piece, 0 … Width−1, or Empty
	Width     int // the number of columns, 1 or more
}

// Cols is the number of columns of the board.
func (r Rect) Cols() int { return r.Width }

// ColsOf returns the number of columns of c's board: its Cols for a board
// that has a number of its own (a [Rect]), else c.N(), as every other
// board is square. Cost O(1).
func ColsOf(c Columns) int {
	if w, ok := c.(interface{ Cols() int }); ok {
		return w.Cols()
	}
	return c.N()
}

// Width returns the number of columns of p's board: p.Cols, or
// len(p.Queens) for a square board (Cols 0).
func (p Partial) Width() int {
	if p.Cols > 0 {
		return p.Cols
	}
	return len(p.Queens)
}

// Board returns p's pieces as a [Columns] of p's width: p.Queens itself on
// a square board, a [Rect] on any other.
func (p Partial) Board() Columns {
	if w := p.Width(); w != len(p.Queens) {
		return Rect{Placement: p.Queens, Width: w}
	}
	return p.Queens
}

// square reports a board that is not square as an error: the N-Queens
// rules of this package ([Verify], [Partial.Check]) are for n × n boards;
// package variant checks the others.
func (p Partial) square() error {
	if w := p.Width(); w != len(p.Queens) {
		return errT("board.notsquare", i18n.Args{"Rows": itoa(len(p.Queens)), "Cols": itoa(w)})
	}
	return nil
}

// OnRect reports whether s maps a board of rows × cols squares onto
// itself: all 8 do on a square; on any other rectangle only the identity,
// the half turn and the two mirrors do.
func (s Symmetry) OnRect(rows, cols int) bool {
	return rows == cols || s == Identity || s == Rotate180 || s == MirrorCols || s == MirrorRows
}

// MapRect sends square (r, c) of a board of rows × cols squares to its
// image under s, which must keep the board ([Symmetry.OnRect]).
func (s Symmetry) MapRect(rows, cols, r, c int) (int, int) {
	R, C := rows-1, cols-1
	switch s {
	case Rotate90:
		return c, R - r
	case Rotate180:
		return R - r, C - c
	case Rotate270:
		return C - c, r
	case MirrorCols:
		return r, C - c
	case MirrorRows:
		return R - r, c
	case Transpose:
		return c, r
	case AntiTranspose:
		return C - c, R - r
	}
	return r, c
}

// ApplyRect returns the image under s of p, a board of cols columns: the
// rows × cols board of [Symmetry.Apply] when cols is len(p). It is an
// error when s does not keep the board ([Symmetry.OnRect]), or turns one
// with two pieces in a column. Cost O(rows).
func (s Symmetry) ApplyRect(p Placement, cols int) (Placement, error) {
	rows := len(p)
	if !s.OnRect(rows, cols) {
		return nil, errT("board.symmetry.rect", i18n.Args{"Sym": s.String(), "Rows": itoa(rows), "Cols": itoa(cols), "Kept": andList{Identity.String(), Rotate180.String(), MirrorCols.String(), MirrorRows.String()}})
	}
	q := New(rows)
	for r, c := range p {
		if c == Empty {
			continue
		}
		r2, c2 := s.MapRect(rows, cols, r, int(c))
		if q[r2] != Empty {
			return nil, ErrSharedColumn
		}
		q[r2] = int32(c2)
	}
	return q, nil
}
