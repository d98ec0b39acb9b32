package complete

import (
	"cmp"
	"context"
	"slices"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/repair"
)

// localTries is how many fresh starts the local search makes before it
// gives up.
const localTries = 20

// freeSquareDraws is how many columns a free row draws, at most, looking
// for a square that costs nothing, before it takes the one it has.
const freeSquareDraws = 32

// localSearch looks for a completion of an n×n board holding queens (col
// per row, -1 for none) and blocked squares, by the repair search of
// solve.Random (package internal/repair) with the placed queens fixed and a
// queen on a blocked square costing as a collision. It may fail on a board
// that has a completion: the answer "none" is not a proof. Cost: expected
// O(n + b) for a board with b blocked squares and few queens placed; memory
// about 9 bytes a row (the board, the list of free rows and the diagonals'
// bits) and 50 bytes a blocked square.
func localSearch(ctx context.Context, n int, queens []int32, blocked [][2]int, seed uint64) ([]int32, bool, error) {
	b := repair.NewBoard(n, seed)
	if len(blocked) > 0 {
		b.Blocked = make(map[board.Square]bool, len(blocked))
		for _, sq := range blocked {
			b.Blocked[board.Square{Row: sq[0], Col: sq[1]}] = true
		}
	}
	used := make([]uint64, (n+63)/64) // columns of the placed queens
	for r, c := range queens {
		if c >= 0 {
			b.Cols[r] = c
			used[c>>6] |= 1 << (c & 63)
		} else {
			b.Movable = append(b.Movable, int32(r))
		}
	}
	// The free rows take the free columns, in order for now.
	k := 0
	for c := range n {
		if used[c>>6]&(1<<(c&63)) == 0 {
			b.Cols[b.Movable[k]] = int32(c)
			k++
		}
	}
	b.Patience = repair.ScarcePatience(len(b.Movable))
	perRow := blockedPerRow(b, blocked)
	for range localTries {
		ok, err := attempt(ctx, b, queens, perRow)
		if err != nil || ok {
			return b.Cols, ok, err
		}
	}
	return nil, false, nil
}

// blockedPerRow counts the blocked squares of each free row that has any,
// and puts those rows first in b.Movable, most blocked first, so that the
// rows with the fewest free squares choose first.
func blockedPerRow(b *repair.Board, blocked [][2]int) map[int32]int {
	perRow := map[int32]int{}
	for _, sq := range blocked {
		perRow[int32(sq[0])]++
	}
	if len(perRow) == 0 {
		return perRow
	}
	var first, rest []int32
	for _, r := range b.Movable {
		if perRow[r] > 0 {
			first = append(first, r)
		} else {
			rest = append(rest, r)
		}
	}
	slices.SortStableFunc(first, func(x, y int32) int { return cmp.Compare(perRow[y], perRow[x]) })
	b.Movable = append(first, rest...)
	return perRow
}

// attempt shuffles the free columns over the free rows, placing each where
// it costs nothing when a few draws find such a square, and repairs the
// rest. A row with more blocked squares than half the columns left looks
// at each of them instead: random draws would rarely meet its few free
// squares, and such rows are few (their blocked squares pay for the scan).
func attempt(ctx context.Context, b *repair.Board, queens []int32, perRow map[int32]int) (bool, error) {
	b.Diag.Reset()
	b.Anti.Reset()
	for r, c := range queens {
		if c >= 0 {
			b.Put(r) // no cost: the placed queens were checked
		}
	}
	rows, cols := b.Movable, b.Cols
	m := len(rows)
	cost := 0
	for k := range m {
		if k%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		// A Fisher-Yates step that prefers a square that costs nothing.
		j := k + int(b.RNG.Below(uint64(m-k)))
		free := b.Free(int(rows[k]), int(cols[rows[j]]))
		for range freeSquareDraws {
			if free {
				break
			}
			j = k + int(b.RNG.Below(uint64(m-k)))
			free = b.Free(int(rows[k]), int(cols[rows[j]]))
		}
		if !free && 2*perRow[rows[k]] > m-k {
			for i := range m - k {
				if jj := k + (j-k+i)%(m-k); b.Free(int(rows[k]), int(cols[rows[jj]])) {
					j = jj
					break
				}
			}
		}
		cols[rows[k]], cols[rows[j]] = cols[rows[j]], cols[rows[k]]
		cost += b.Put(int(rows[k]))
	}
	var suspects []int
	for _, r := range rows {
		if b.Attacked(int(r)) {
			suspects = append(suspects, int(r))
		}
	}
	return b.Repair(ctx, suspects, cost)
}
