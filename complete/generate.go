package complete

import "math/rand/v2"

// problem is a partial board in the form the searches use: the column of
// each row's queen or -1, and the blocked squares as (row, col).
type problem struct {
	n       int
	queens  []int32
	blocked [][2]int
}

// excludedDiagonals draws k distinct whole diagonals of the n×n board, out
// of its 4n-2 (both directions), and blocks every square on them. The draw
// depends only on (n, k, seed).
func excludedDiagonals(n, k int, seed uint64) problem {
	rng := rand.New(rand.NewPCG(seed, uint64(n)<<32|uint64(k)))
	lines := rng.Perm(4*n - 2)[:k]
	onLine := make([]bool, n*n)
	for _, l := range lines {
		for r := range n {
			var c int
			if l < 2*n-1 {
				c = r - l + n - 1 // ↘ diagonal l = r-c+n-1
			} else {
				c = l - (2*n - 1) - r // ↙ diagonal l-(2n-1) = r+c
			}
			if c >= 0 && c < n {
				onLine[r*n+c] = true
			}
		}
	}
	p := problem{n: n, queens: make([]int32, n)}
	for r := range n {
		p.queens[r] = -1
		for c := range n {
			if onLine[r*n+c] {
				p.blocked = append(p.blocked, [2]int{r, c})
			}
		}
	}
	return p
}
