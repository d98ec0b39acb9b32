package recount

import (
	"context"
	"math/bits"
)

// board is the bit-set search of one key: the plain search's rules (one
// queen per column, on a row open to that column, no two sharing a row
// or a diagonal) with each set of lines kept as the bits of one word,
// and the next column to fill chosen as the one with the fewest free
// squares, not the next one from the left. A column's free rows are
//
//	open[c] &^ (rows | down>>(n−1−c) | up>>c)
//
// where rows holds the rows taken, down bit r−c+n−1 and up bit r+c the
// diagonals of the queens placed: 2n−1 ≤ 63 bits each for n ≤ MaxN.
type board struct {
	n    int
	open [MaxN]uint64 // open[c]: the rows column c's queen may take

	ctx   context.Context
	nodes uint64 // queens placed by the search
	err   error  // ctx's error once it ended
}

// freeRows returns the rows where column c's queen may stand.
func (b *board) freeRows(c int, rows, down, up uint64) uint64 {
	return b.open[c] &^ (rows | down>>uint(b.n-1-c) | up>>uint(c))
}

// count returns the ways to fill the columns of empty, or 0 once ctx
// ended (b.err says so). It branches on the empty column with the fewest
// free rows (the first with one, at once), and fails as soon as a column
// has none; the last column's ways are its free rows.
func (b *board) count(empty uint32, rows, down, up uint64) uint64 {
	best, fewest := -1, MaxN+1
	var free uint64
	for e := empty; e != 0; e &= e - 1 {
		c := bits.TrailingZeros32(e)
		f := b.freeRows(c, rows, down, up)
		k := bits.OnesCount64(f)
		if k < fewest {
			if k == 0 {
				return 0
			}
			best, fewest, free = c, k, f
			if k == 1 {
				break
			}
		}
	}
	rest := empty &^ (1 << best)
	if rest == 0 {
		return uint64(fewest)
	}
	var total uint64
	for ; free != 0; free &= free - 1 {
		bit := free & -free
		b.nodes++
		if b.nodes%checkEvery == 0 {
			if b.err = b.ctx.Err(); b.err != nil {
				return 0
			}
		}
		total += b.count(rest, rows|bit, down|bit<<uint(b.n-1-best), up|bit<<uint(best))
		if b.err != nil {
			return 0
		}
	}
	return total
}

// countBits returns the number of solutions of k and the queens placed,
// or ctx's error, by the bit-set search: column c < CL on a row of
// k.Left, separator column CL + j on row k.Sep[j], every other column on
// one of the other rows. k must be checked.
func (k Key) countBits(ctx context.Context) (solutions, nodes uint64, err error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	n, cl := k.N, k.CL()
	right := (uint64(1)<<n - 1) &^ uint64(k.Left)
	for _, r := range k.Sep {
		right &^= 1 << r
	}
	b := &board{n: n, ctx: ctx}
	for c := range n {
		if c < cl {
			b.open[c] = uint64(k.Left)
		} else {
			b.open[c] = right
		}
	}
	empty := uint32(1)<<n - 1
	var rows, down, up uint64
	for j, r := range k.Sep {
		c := cl + j
		bit := uint64(1) << r
		if (down>>uint(n-1-c)|up>>uint(c))&bit != 0 {
			return 0, 0, nil // the separator's queens attack each other
		}
		rows, down, up = rows|bit, down|bit<<uint(n-1-c), up|bit<<uint(c)
		empty &^= 1 << c
	}
	if empty == 0 {
		return 1, 0, nil
	}
	total := b.count(empty, rows, down, up)
	if b.err != nil {
		return 0, 0, b.err
	}
	return total, b.nodes, nil
}
