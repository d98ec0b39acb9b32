package repair

import (
	"context"
	"testing"

	"github.com/nqueens/nqueens/board"
)

// slowCost counts, for every diagonal, the queens beyond the first, by
// comparing every pair, and the queens on blocked squares.
func slowCost(p board.Placement, blocked map[board.Square]bool) int {
	total := 0
	for i := range p {
		firstDiag, firstAnti := true, true
		for k := range i {
			if k-int(p[k]) == i-int(p[i]) {
				firstDiag = false
			}
			if k+int(p[k]) == i+int(p[i]) {
				firstAnti = false
			}
		}
		if !firstDiag {
			total++
		}
		if !firstAnti {
			total++
		}
		if blocked[board.Square{Row: i, Col: int(p[i])}] {
			total++
		}
	}
	return total
}

func slowAttacked(p board.Placement, blocked map[board.Square]bool, i int) bool {
	sq := board.Square{Row: i, Col: int(p[i])}
	for k, ck := range p {
		if k != i && board.Attacks(sq, board.Square{Row: k, Col: int(ck)}) {
			return true
		}
	}
	return blocked[sq]
}

// randomBoard is a random permutation of n columns on a board with the
// given blocked squares, counted on its diagonals.
func randomBoard(n int, seed uint64, blocked map[board.Square]bool) (*Board, int) {
	b := NewBoard(n, seed)
	b.Blocked = blocked
	for i := range b.Cols {
		b.Cols[i] = int32(i)
	}
	b.RNG.Shuffle(b.Cols)
	cost := 0
	for i := range b.Cols {
		cost += b.Put(i)
	}
	return b, cost
}

// Swap's O(1) change in the cost, and Attacked, must match a count from
// scratch, with and without blocked squares.
func TestSwapMatchesRecount(t *testing.T) {
	for _, n := range []int{5, 9, 40} {
		for _, withBlocked := range []bool{false, true} {
			var blocked map[board.Square]bool
			if withBlocked {
				blocked = map[board.Square]bool{}
				for k := range n {
					blocked[board.Square{Row: k, Col: (3 * k) % n}] = true
				}
			}
			b, cost := randomBoard(n, uint64(n), blocked)
			if want := slowCost(b.Cols, blocked); cost != want {
				t.Fatalf("n = %d: Put counted %d, recount says %d", n, cost, want)
			}
			for range 2000 {
				i, j := int(b.RNG.Below(uint64(n))), int(b.RNG.Below(uint64(n)))
				if i == j {
					continue
				}
				d := b.Swap(i, j)
				after := slowCost(b.Cols, blocked)
				if after-cost != d {
					t.Fatalf("n = %d, blocked %v: Swap(%d, %d) said %+d, recount says %+d", n, withBlocked, i, j, d, after-cost)
				}
				cost = after
				for k := range b.Cols {
					if got, want := b.Attacked(k), slowAttacked(b.Cols, blocked, k); got != want {
						t.Fatalf("n = %d: Attacked(%d) = %v, want %v", n, k, got, want)
					}
				}
			}
		}
	}
}

// Repair moves only the movable rows and ends with no cost, or gives up.
func TestRepairMovableRows(t *testing.T) {
	for _, n := range []int{50, 1000} {
		for seed := range uint64(5) {
			b, cost := randomBoard(n, seed, map[board.Square]bool{{Row: 1, Col: 1}: true, {Row: 2, Col: 7}: true})
			fixed := map[int]int32{}
			for r := range b.Cols {
				if r%7 == 3 {
					fixed[r] = b.Cols[r]
				} else {
					b.Movable = append(b.Movable, int32(r))
				}
			}
			var suspects []int
			for _, r := range b.Movable {
				suspects = append(suspects, int(r))
			}
			ok, err := b.Repair(context.Background(), suspects, cost)
			if err != nil {
				t.Fatal(err)
			}
			for r, c := range fixed {
				if b.Cols[r] != c {
					t.Fatalf("n = %d: fixed row %d moved", n, r)
				}
			}
			// The fixed rows may attack each other, so a repair can only
			// reach 0 when they do not; when it says so, it is true.
			if ok && slowCost(b.Cols, b.Blocked) != 0 {
				t.Fatalf("n = %d, seed %d: Repair said done with cost %d", n, seed, slowCost(b.Cols, b.Blocked))
			}
		}
	}
}

func TestRepairCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b, cost := randomBoard(100, 1, nil)
	if _, err := b.Repair(ctx, []int{0, 1, 2}, cost); err != context.Canceled {
		t.Errorf("cancelled Repair returned %v", err)
	}
}

// laterCancelled is a context that is live at its first look and cancelled
// at every later one.
type laterCancelled struct {
	context.Context
	looks int
}

func (c *laterCancelled) Err() error {
	if c.looks++; c.looks > 1 {
		return context.Canceled
	}
	return nil
}

// TestRepairStopsWithinAPass: a repair that can never lower its cost (the
// 2×2 board) and would try 2^40 draws stops soon after its context ends,
// not at the end of a pass over the attacked rows.
func TestRepairStopsWithinAPass(t *testing.T) {
	b := NewBoard(2, 1)
	b.Cols[0], b.Cols[1] = 0, 1
	cost := b.Put(0) + b.Put(1)
	b.Patience = 1 << 40
	ok, err := b.Repair(&laterCancelled{Context: context.Background()}, []int{0, 1}, cost)
	if ok || err != context.Canceled {
		t.Fatalf("ok %v, err %v; want the cancellation", ok, err)
	}
}
