package classic

import (
	"context"
	"iter"
	"math/bits"

	"github.com/nqueens/nqueens/board"
)

// bitmask is the recursion on (row, ld, rd) with the columns as bits of a
// word: bit c of cols, ld and rd is set when column c of the current row is
// attacked along a column, a ↘ diagonal or a ↙ diagonal. Moving down a row
// shifts ld left and rd right. The free squares of a row are one word and
// the attacked ones are never looked at, only counted.
type bitmask struct{}

func (bitmask) Name() string { return "bitmask" }
func (bitmask) Description() string {
	return "recursion on (row, ld, rd) bit masks: the free squares of a row in one word"
}

// Solve costs O(1) per placement.
func (b bitmask) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	return solveWith(ctx, b, n, visit)
}

func (b bitmask) Trace(ctx context.Context, n int) iter.Seq2[Event, error] {
	return traceWith(ctx, b, n)
}

func (bitmask) run(s *search, n int) {
	all := ^uint64(0) >> (64 - n)
	queens := board.New(n)
	s.view = queens
	traced := s.emit != nil
	var solve func(row int, cols, ld, rd uint64)
	solve = func(row int, cols, ld, rd uint64) {
		if row == n {
			s.solution(queens)
			return
		}
		free := all &^ (cols | ld | rd)
		next := 0 // the columns left of next have been tried
		for free != 0 && !s.stop {
			bit := free & -free
			free ^= bit
			col := bits.TrailingZeros64(bit)
			// Every column between next and col is attacked.
			if traced {
				for c := next; c < col; c++ {
					s.reject(row, c)
				}
			} else {
				s.rejectMany(col - next)
			}
			next = col + 1
			queens[row] = int32(col)
			if s.place(row, col) {
				solve(row+1, cols|bit, (ld|bit)<<1&all, (rd|bit)>>1)
			}
			queens[row] = board.Empty
			s.remove(row, col)
		}
		if traced {
			for c := next; c < n; c++ {
				s.reject(row, c)
			}
		} else {
			s.rejectMany(n - next)
		}
	}
	solve(0, 0, 0, 0)
}
