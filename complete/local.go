package complete

import (
	"context"
	"math/rand/v2"
)

// local is a repair search for large boards: the pre-placed queens stay,
// the free rows hold a permutation of the free columns, and swapping the
// columns of two free rows is kept when it lowers the cost, which is the
// number of collisions (queens beyond the first on a diagonal) plus the
// queens standing on blocked squares. Diagonal counters price a swap in
// O(1).
type local struct {
	n          int
	rows       []int   // the free rows
	cols       []int32 // cols[k] is the column of the queen in rows[k]
	diag, anti []int32 // queens on each diagonal: ↘ r-c+n-1, ↙ r+c
	blocked    map[[2]int]bool
	rng        *rand.Rand
}

// localTries is how many fresh starts the search makes before it gives up.
const localTries = 20

// localSearch looks for a completion of an n×n board holding queens (col
// per row, -1 for none) and blocked squares. It may fail on a board that
// has a completion: the answer "none" is not a proof. Cost: expected
// O(n + b) for a board with b blocked squares and few queens placed,
// memory 12 bytes a row.
func localSearch(ctx context.Context, n int, queens []int32, blocked [][2]int, seed uint64) ([]int32, bool, error) {
	s := &local{
		n:       n,
		diag:    make([]int32, 2*n-1),
		anti:    make([]int32, 2*n-1),
		blocked: make(map[[2]int]bool, len(blocked)),
		rng:     rand.New(rand.NewPCG(seed, 0x6e71756565)),
	}
	for _, sq := range blocked {
		s.blocked[sq] = true
	}
	used := make([]bool, n)
	for r, c := range queens {
		if c >= 0 {
			used[c] = true
			s.diag[r-int(c)+n-1]++
			s.anti[r+int(c)]++
		} else {
			s.rows = append(s.rows, r)
		}
	}
	for c := range n {
		if !used[c] {
			s.cols = append(s.cols, int32(c))
		}
	}
	for range localTries {
		ok, err := s.attempt(ctx)
		if err != nil {
			return nil, false, err
		}
		if ok {
			out := append([]int32(nil), queens...)
			for k, r := range s.rows {
				out[r] = s.cols[k]
			}
			return out, true, nil
		}
	}
	return nil, false, nil
}

// attempt shuffles the free columns, places them greedily on free squares
// where it can, and repairs the rest; it leaves the counters holding only
// the fixed queens again when it fails.
func (s *local) attempt(ctx context.Context) (bool, error) {
	m := len(s.rows)
	s.rng.Shuffle(m, func(i, j int) { s.cols[i], s.cols[j] = s.cols[j], s.cols[i] })
	cost := 0
	for k := range m {
		// Fisher-Yates step that prefers a free, unblocked square.
		for range 32 {
			j := k + s.rng.IntN(m-k)
			if s.cost(s.rows[k], int(s.cols[j])) == 0 {
				s.cols[k], s.cols[j] = s.cols[j], s.cols[k]
				break
			}
		}
		cost += s.add(k)
	}
	suspects := make([]int, 0, m)
	for k := range m {
		if s.attacked(k) {
			suspects = append(suspects, k)
		}
	}
	failed := 0
	for cost > 0 {
		if err := ctx.Err(); err != nil {
			s.undo()
			return false, err
		}
		progressed := false
		for _, k := range suspects {
			if !s.attacked(k) {
				continue
			}
			for {
				j := s.rng.IntN(m)
				if j != k {
					d := -s.remove(k) - s.remove(j)
					s.cols[k], s.cols[j] = s.cols[j], s.cols[k]
					d += s.add(k) + s.add(j)
					if d < 0 {
						cost += d
						suspects = append(suspects, j)
						progressed, failed = true, 0
						break
					}
					s.remove(k)
					s.remove(j)
					s.cols[k], s.cols[j] = s.cols[j], s.cols[k]
					s.add(k)
					s.add(j)
				}
				failed++
				if failed == max(4096, 32*m) {
					s.undo()
					return false, nil
				}
			}
			if cost == 0 {
				break
			}
		}
		if !progressed {
			s.undo()
			return false, nil
		}
		kept := suspects[:0]
		for _, k := range suspects {
			if s.attacked(k) {
				kept = append(kept, k)
			}
		}
		suspects = kept
	}
	return true, nil
}

// cost is what a queen at (r, c) would add, not counting itself.
func (s *local) cost(r, c int) int {
	k := int(s.diag[r-c+s.n-1]) + int(s.anti[r+c])
	if s.blocked[[2]int{r, c}] {
		k++
	}
	return k
}

// add puts free queen k on the board and returns the cost it adds.
func (s *local) add(k int) int {
	r, c := s.rows[k], int(s.cols[k])
	d := s.cost(r, c)
	s.diag[r-c+s.n-1]++
	s.anti[r+c]++
	return d
}

// remove takes free queen k off the board and returns the cost it took.
func (s *local) remove(k int) int {
	r, c := s.rows[k], int(s.cols[k])
	s.diag[r-c+s.n-1]--
	s.anti[r+c]--
	return s.cost(r, c)
}

func (s *local) attacked(k int) bool {
	r, c := s.rows[k], int(s.cols[k])
	return s.diag[r-c+s.n-1] > 1 || s.anti[r+c] > 1 || s.blocked[[2]int{r, c}]
}

func (s *local) undo() {
	for k := range s.rows {
		s.remove(k)
	}
}
