package variant

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/nqueens/nqueens/i18n"
)

// MaxSide is the largest number of rows or columns a board may have: the
// search keeps a row's squares in one 64-bit word.
const MaxSide = 64

// Piece is what stands on the board.
type Piece uint8

const (
	// Queen attacks along its row, its column and both diagonals.
	Queen Piece = iota
	// Superqueen (also called an amazon) attacks as a queen and as a
	// knight: also the squares two rows and one column, or one row and two
	// columns, away.
	Superqueen
)

func (p Piece) String() string {
	if p == Superqueen {
		return "superqueen"
	}
	return "queen"
}

// Spec names a variant: Queens pieces on a board of Rows × Cols squares,
// no two attacking each other.
//
// The zero values of Cols and Queens mean a square board and one piece a
// row; [Spec.Normal] fills them in. Validate before use. On a torus (square boards only) the
// diagonals, and the superqueen's knight moves, wrap around the edges:
// the square past the right edge is the first of the same row, the row
// past the bottom is the top one.
type Spec struct {
	Rows   int   // rows, 1 … MaxSide
	Cols   int   // columns, 1 … MaxSide; 0 means Rows
	Torus  bool  // diagonals and knight moves wrap around (Rows = Cols)
	Piece  Piece // queen or superqueen
	Queens int   // pieces to place, K ≥ 1; 0 means Rows
}

// Normal returns s with Cols and Queens filled in.
func (s Spec) Normal() Spec {
	if s.Cols == 0 {
		s.Cols = s.Rows
	}
	if s.Queens == 0 {
		s.Queens = s.Rows
	}
	return s
}

// ErrSpec reports a variant that is not defined or out of range.
var ErrSpec = errors.New("invalid variant")

// Validate reports whether s describes a board this package handles. Too
// many pieces for the board is not an error: [Count] gives 0 and says why.
func (s Spec) Validate() error {
	s = s.Normal()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrSpec, fmt.Sprintf(format, args...))
	}
	switch {
	case s.Rows < 1 || s.Rows > MaxSide:
		return bad("%d rows is out of range (1..%d)", s.Rows, MaxSide)
	case s.Cols < 1 || s.Cols > MaxSide:
		return bad("%d columns is out of range (1..%d)", s.Cols, MaxSide)
	case s.Queens < 1:
		return bad("the number of pieces must be 1 or more, got %d", s.Queens)
	case s.Piece != Queen && s.Piece != Superqueen:
		return bad("unknown piece %d", s.Piece)
	case s.Torus && s.Rows != s.Cols:
		return bad("a toroidal board must be square, not %d × %d", s.Rows, s.Cols)
	}
	return nil
}

// Square reports whether the board is square.
func (s Spec) Square() bool { s = s.Normal(); return s.Rows == s.Cols }

// NoneFit returns a sentence when a rule proves that no placement exists
// (so the count is 0, answered at once), or "": more pieces asked for than
// the board can hold without two sharing a row or column, or N queens (or
// superqueens) on an N × N torus when gcd(N, 6) ≠ 1 (Pólya, 1918), which a
// search took 14.7 s to find out at N = 20.
func (s Spec) NoneFit() string {
	if why := s.NoneFitWhy(); why != nil {
		return i18n.NewError("count.variant.nonefit", i18n.Args{"Why": why}).Error()
	}
	return ""
}

// noneFit is the sentence of NoneFit without its conclusion, in English.
func (s Spec) noneFit() string {
	if why := s.NoneFitWhy(); why != nil {
		return why.Error()
	}
	return ""
}

// NoneFitWhy is the rule that proves no placement exists, as a message of
// the catalogs ("9 queens cannot stand on a 6 × 6 board without two
// sharing a row or column (at most 6 can)"); nil when there is none.
func (s Spec) NoneFitWhy() *i18n.Error {
	s = s.Normal()
	super := s.Piece == Superqueen
	if m := min(s.Rows, s.Cols); s.Queens > m {
		key := "count.variant.rows.queen"
		if super {
			key = "count.variant.rows.super"
		}
		return i18n.NewError(key, i18n.Args{"Queens": strconv.Itoa(s.Queens), "Board": boardName(s), "Max": strconv.Itoa(m)})
	}
	if s.Torus && s.Rows == s.Cols && s.Queens == s.Rows && s.Rows > 1 {
		if g := gcd(s.Rows, 6); g != 1 {
			key := "count.variant.polya.queen"
			if super {
				key = "count.variant.polya.super"
			}
			return i18n.NewError(key, i18n.Args{"N": strconv.Itoa(s.Rows), "G": strconv.Itoa(g), "Who": "Pólya"})
		}
	}
	return nil
}

// boardNames are the messages of a board's name, by torus and article.
var boardNames = map[[2]bool]string{
	{false, false}: "count.variant.board", {false, true}: "count.variant.board.an",
	{true, false}: "count.variant.torus", {true, true}: "count.variant.torus.an",
}

// boardName names s's board: "a 6 × 6 board", "an 8 × 8 torus".
func boardName(s Spec) *i18n.Error {
	an := s.Rows == 8 || s.Rows == 11 || s.Rows == 18
	return i18n.NewError(boardNames[[2]bool{s.Torus, an}], i18n.Args{"Rows": strconv.Itoa(s.Rows), "Cols": strconv.Itoa(s.Cols)})
}

// String names the variant as a person would: "8 queens on an 8 × 8
// torus", "4 superqueens on a 6 × 9 board".
func (s Spec) String() string { return s.Localize(i18n.For(i18n.English)) }

// specNames are the messages of Localize, by piece, board and article
// (English says "an 8 × 8", "an 11 × 11", "an 18 × 18").
var specNames = map[[3]bool]string{
	{false, false, false}: "count.variant.name.queen.board", {false, false, true}: "count.variant.name.queen.board.an",
	{false, true, false}: "count.variant.name.queen.torus", {false, true, true}: "count.variant.name.queen.torus.an",
	{true, false, false}: "count.variant.name.super.board", {true, false, true}: "count.variant.name.super.board.an",
	{true, true, false}: "count.variant.name.super.torus", {true, true, true}: "count.variant.name.super.torus.an",
}

// Localize names the variant in p's language: "8 queens on an 8 × 8
// torus", "8 × 8 环面上的 8 个皇后".
func (s Spec) Localize(p *i18n.Printer) string {
	s = s.Normal()
	an := s.Rows == 8 || s.Rows == 11 || s.Rows == 18
	key := specNames[[3]bool{s.Piece == Superqueen, s.Torus, an}]
	return p.N(key, strconv.Itoa(s.Queens), i18n.Args{"Rows": strconv.Itoa(s.Rows), "Cols": strconv.Itoa(s.Cols)})
}

// Symmetries returns the number of symmetries of the board that map
// attacks to attacks, the group under which [Result.Unique] counts classes:
// 8 for a square board, the torus included (its translations are not
// merged), 4 for a rectangle (the two mirrors and the half turn).
func (s Spec) Symmetries() int {
	if s.Square() {
		return 8
	}
	return 4
}

// Sequence is an OEIS sequence the count of a variant is a term of.
type Sequence struct {
	ID   string // "A051906"
	Name string // what it counts
	Term string // which term it is: "a(13)", "T(9, 6)"
	row  string // the row of oeis.tsv with its published terms
	i    int    // the index of the term in that row
}

// OEIS returns the sequences that the total and the unique count of s are
// terms of, where there are such (an empty ID otherwise). Their published
// terms are in the embedded table of package internal/oeis; those of the
// plain problem, A000170 and A002562, in package count ([count.Known]).
func (s Spec) OEIS() (total, unique Sequence) {
	s = s.Normal()
	full := s.Queens == s.Rows
	a := func(id, name, row string) Sequence {
		return Sequence{id, name, fmt.Sprintf("a(%d)", s.Rows), row, s.Rows}
	}
	switch {
	case s.Torus && s.Piece == Queen && full:
		total = a("A051906", "n queens on an n × n torus", "torus")
	case s.Torus && s.Piece == Queen && s.Queens == 2:
		total = a("A172517", "2 queens on an n × n torus", "torus2")
	case s.Torus:
	case s.Piece == Superqueen && s.Square() && full:
		total = a("A051223", "n superqueens on an n × n board", "super")
		unique = a("A051224", "classes of the same under the 8 symmetries", "super-unique")
	case s.Piece == Superqueen:
	case s.Square() && full:
		total = a("A000170", "n queens on an n × n board", "")
		unique = a("A002562", "classes of the same under the 8 symmetries", "")
	case s.Square() && s.Queens >= 2 && s.Queens <= 5:
		id := map[int]string{2: "A036464", 3: "A047659", 4: "A061994", 5: "A108792"}[s.Queens]
		total = a(id, fmt.Sprintf("%d queens on an n × n board", s.Queens), fmt.Sprintf("queens%d", s.Queens))
	case s.Queens == min(s.Rows, s.Cols):
		m, n := max(s.Rows, s.Cols), min(s.Rows, s.Cols)
		total = Sequence{"A269133", "m queens on an m × n board, m ≤ n", fmt.Sprintf("T(%d, %d)", m, n), fmt.Sprintf("rect-%d", n), m}
	}
	return total, unique
}
