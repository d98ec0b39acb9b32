package dominate

import (
	"context"
	"math/rand/v2"
)

// lines calls f on every square a queen at square v of an N × N board
// dominates (its own square once, and its row, column and diagonals).
func lines(n, v int, f func(w int)) {
	r, c := v/n, v%n
	f(v)
	for i := range n {
		if i != c {
			f(r*n + i)
		}
		if i != r {
			f(i*n + c)
			if d := c + i - r; d >= 0 && d < n {
				f(i*n + d)
			}
			if d := c - (i - r); d >= 0 && d < n {
				f(i*n + d)
			}
		}
	}
}

// cover counts, for every square, the queens that dominate it.
type cover struct {
	n, open int // open: squares no queen dominates
	cnt     []int32
}

func (c *cover) add(v, d int32) {
	lines(c.n, int(v), func(w int) {
		if c.cnt[w] == 0 {
			c.open--
		}
		c.cnt[w] += d
		if c.cnt[w] == 0 {
			c.open++
		}
	})
}

// gain is the number of undominated squares a queen on v would dominate.
func (c *cover) gain(v int) int { return c.linesAt(v, 0) }

// loss is the number of squares only the queen on v dominates.
func (c *cover) loss(v int) int { return c.linesAt(v, 1) }

// linesAt is the number of squares a queen on v dominates that exactly k
// queens dominate now.
func (c *cover) linesAt(v int, k int32) int {
	m := 0
	lines(c.n, v, func(w int) {
		if c.cnt[w] == k {
			m++
		}
	})
	return m
}

// heuristic fills res with the smallest dominating set it finds: a greedy
// choice (the square dominating most undominated squares, or for
// independent queens the most among squares no queen attacks), then, for
// the plain problem, a local search for one queen fewer at a time until
// one runs out of steps or the set meets the lower bound. The steps, not a
// clock, bound it, so the same N gives the same set on every machine.
func (res *Result) heuristic(ctx context.Context, o Options) error {
	n := res.N
	steps := o.Steps
	if steps <= 0 {
		steps = DefaultSteps
	}
	c := &cover{n: n, open: n * n, cnt: make([]int32, n*n)}
	attacked := make([]bool, n*n)
	var queens []int
	for c.open > 0 {
		best, bestG := -1, -1
		for v := range n * n {
			if o.Independent && attacked[v] {
				continue
			}
			if g := c.gain(v); g > bestG {
				best, bestG = v, g
			}
		}
		queens = append(queens, best)
		c.add(int32(best), 1)
		lines(n, best, func(w int) { attacked[w] = true })
	}
	best := append([]int(nil), queens...)
	if !o.Independent {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		for len(best) > res.LowerBound && ctx.Err() == nil {
			if q, ok := localSearch(ctx, n, best, len(best)-1, steps, rng); ok {
				best = q
			} else {
				break
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	res.Minimum = len(best)
	res.Queens = squares(n, best)
	res.Exact = res.Minimum == res.LowerBound
	return check(n, res.Queens, o.Independent)
}

// localSearch looks for k queens dominating the board, starting from the
// first k of start: it adds a queen on a square that dominates a random
// undominated square (the one that dominates most of them, or now and then
// any), then removes the queen whose loss hurts least, other than the last
// few moved, until nothing is undominated or steps moves are made.
func localSearch(ctx context.Context, n int, start []int, k, steps int, rng *rand.Rand) ([]int, bool) {
	c := &cover{n: n, open: n * n, cnt: make([]int32, n*n)}
	queens := append([]int(nil), start[:k]...)
	for _, q := range queens {
		c.add(int32(q), 1)
	}
	tabu := map[int]int{}
	for step := 0; c.open > 0; step++ {
		if step == steps || step%256 == 0 && ctx.Err() != nil {
			return nil, false
		}
		// A random undominated square.
		pick := rng.IntN(c.open)
		s := -1
		for w, x := range c.cnt {
			if x == 0 {
				if pick == 0 {
					s = w
					break
				}
				pick--
			}
		}
		var cands []int
		lines(n, s, func(w int) { cands = append(cands, w) })
		v := cands[rng.IntN(len(cands))]
		if rng.IntN(10) != 0 {
			bg := -1
			for _, w := range cands {
				if g := c.gain(w); g > bg {
					v, bg = w, g
				}
			}
		}
		c.add(int32(v), 1)
		queens = append(queens, v)
		tabu[v] = step
		worst, wl := -1, 1<<30
		for i, q := range queens {
			if t, ok := tabu[q]; ok && step-t < 3 {
				continue
			}
			if l := c.loss(q); l < wl || (l == wl && rng.IntN(2) == 0) {
				worst, wl = i, l
			}
		}
		if worst < 0 {
			worst = rng.IntN(len(queens))
		}
		c.add(int32(queens[worst]), -1)
		queens = append(queens[:worst], queens[worst+1:]...)
	}
	return queens, true
}
