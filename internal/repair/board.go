package repair

import (
	"context"
	"unsafe"

	"github.com/nqueens/nqueens/board"
)

// Board is a board being repaired: Cols[r] is the column of row r's queen,
// every column used once; Diag and Anti hold every queen (↘ diagonals
// indexed r-c+N-1, ↙ ones r+c). Only the rows listed in Movable swap
// columns, all of them when Movable is nil. A queen on a square of Blocked
// costs one, like a collision.
type Board struct {
	N          int
	Cols       board.Placement
	Diag, Anti Occupancy
	Movable    []int32
	Blocked    map[board.Square]bool
	RNG        RNG
	// Patience is how many draws in a row may fail to lower the cost
	// before Repair gives up; 0 means [DefaultPatience].
	Patience int
}

const (
	// StuckDraws is how many swaps in a row may fail to lower the cost
	// before the repair gives up on a board. For large n an improving swap
	// comes about once in 20 draws, so only a true local minimum (common
	// for n < 20) gets there.
	StuckDraws = 4096
	// DrawsPerRow bounds the failed draws by the number of movable rows m:
	// a row has only m-1 swaps to try, so on a small board 32m draws are
	// enough, and a row whose only free squares are held by a few other rows
	// (blocked squares) needs about m draws to meet one of them.
	DrawsPerRow = 32
)

// checkDraws is how many draws Repair makes between two looks at its
// context: a draw costs tens of nanoseconds.
const checkDraws = 1 << 16

// DefaultPatience is the patience of a board of m movable rows whose every
// row has many free squares, as in solve.Random.
func DefaultPatience(m int) int { return min(StuckDraws, DrawsPerRow*m) }

// ScarcePatience is the patience of a board with blocked squares, where an
// improving swap may be one of a few among m (complete's local search).
func ScarcePatience(m int) int { return max(StuckDraws, DrawsPerRow*m) }

// NewBoard returns an empty n×n board to be filled with Put.
func NewBoard(n int, seed uint64) *Board {
	b := &Board{N: n, Cols: make(board.Placement, n), Diag: NewOccupancy(2*n - 1), Anti: NewOccupancy(2*n - 1), RNG: NewRNG(seed)}
	AdviseHuge(unsafe.Pointer(unsafe.SliceData(b.Cols)), uintptr(n)*4)
	return b
}

// Put counts the queen of row r, Cols[r], on its diagonals and returns the
// cost it adds.
func (b *Board) Put(r int) int {
	c := int(b.Cols[r])
	k := 0
	if b.Diag.Add(r - c + b.N - 1) {
		k++
	}
	if b.Anti.Add(r + c) {
		k++
	}
	if b.blocked(r, c) {
		k++
	}
	return k
}

// Free reports whether a queen at (r, c) would cost nothing: both
// diagonals empty and the square not blocked.
func (b *Board) Free(r, c int) bool {
	return !b.Diag.Has(r-c+b.N-1) && !b.Anti.Has(r+c) && !b.blocked(r, c)
}

func (b *Board) blocked(r, c int) bool {
	return b.Blocked != nil && b.Blocked[board.Square{Row: r, Col: c}]
}

// Attacked reports whether the queen of row i costs anything.
func (b *Board) Attacked(i int) bool {
	c := int(b.Cols[i])
	return b.Diag.Crowded(i-c+b.N-1) || b.Anti.Crowded(i+c) || b.blocked(i, c)
}

// Swap exchanges the columns of rows i and j and returns the change in the
// cost. Moving the queens one at a time keeps the sum right even when the
// two share a diagonal.
func (b *Board) Swap(i, j int) int {
	n, p := b.N, b.Cols
	ci, cj := int(p[i]), int(p[j])
	d := 0
	for _, c := range [...]bool{
		b.Diag.Remove(i - ci + n - 1), b.Diag.Remove(j - cj + n - 1),
		b.Anti.Remove(i + ci), b.Anti.Remove(j + cj),
	} {
		if c {
			d--
		}
	}
	for _, c := range [...]bool{
		b.Diag.Add(i - cj + n - 1), b.Diag.Add(j - ci + n - 1),
		b.Anti.Add(i + cj), b.Anti.Add(j + ci),
	} {
		if c {
			d++
		}
	}
	if b.Blocked != nil {
		d += b.blockedCost(i, cj) + b.blockedCost(j, ci) - b.blockedCost(i, ci) - b.blockedCost(j, cj)
	}
	p[i], p[j] = int32(cj), int32(ci)
	return d
}

func (b *Board) blockedCost(r, c int) int {
	if b.blocked(r, c) {
		return 1
	}
	return 0
}

// movable is the number of rows that may move.
func (b *Board) movable() int {
	if b.Movable == nil {
		return b.N
	}
	return len(b.Movable)
}

// draw returns a random movable row.
func (b *Board) draw() int {
	k := int(b.RNG.Below(uint64(b.movable())))
	if b.Movable == nil {
		return k
	}
	return int(b.Movable[k])
}

// Repair swaps attacked queens with random movable others while that lowers
// the cost, from cost to 0, and reports whether it got there; false means it
// got stuck (a local minimum), and the caller should start over from a new
// board. Only rows in suspects can be attacked, and every row whose queen
// moves joins them. ctx is looked at every checkDraws draws.
func (b *Board) Repair(ctx context.Context, suspects []int, cost int) (bool, error) {
	failed, draws := 0, 0
	giveUp := b.Patience
	if giveUp == 0 {
		giveUp = DefaultPatience(b.movable())
	}
	for cost > 0 {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		progressed := false
		for _, i := range suspects {
			if !b.Attacked(i) {
				continue
			}
			for {
				if draws++; draws%checkDraws == 0 {
					if err := ctx.Err(); err != nil {
						return false, err
					}
				}
				if j := b.draw(); j != i {
					if d := b.Swap(i, j); d < 0 {
						cost += d
						suspects = append(suspects, j)
						progressed, failed = true, 0
						break
					}
					b.Swap(i, j) // undo
				}
				if failed++; failed == giveUp {
					return false, nil
				}
			}
			if cost == 0 {
				break
			}
		}
		if !progressed {
			// Unreachable while the invariant holds; a restart keeps the
			// search correct even so.
			return false, nil
		}
		// Drop rows that are no longer attacked, so the list stays short.
		k := 0
		for _, i := range suspects {
			if b.Attacked(i) {
				suspects[k] = i
				k++
			}
		}
		suspects = suspects[:k]
	}
	return true, nil
}
