package variant

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/solve"
)

// Found is the outcome of [Find]: one placement of the variant, or none
// with the reason.
type Found struct {
	Spec      Spec            // normal
	Placement board.Placement // nil when the variant has none
	// How says how the placement was made ("the construction: column =
	// 2·row mod 7") or, with no placement, why there is none.
	How   string
	Nodes uint64 // searched, 0 for a construction
	Runs  int    // searches run, each with twice the nodes of the last
}

// FindOptions tune [Find]. The zero value searches with seed 0 until it
// is done and reports nothing.
type FindOptions struct {
	// Seed orders the search's tries: the same seed gives the same
	// placement.
	Seed uint64
	// MaxNodes, if not 0, stops a search after about this many nodes with
	// an error wrapping [ErrMaxNodes].
	MaxNodes uint64
	// Progress, if set, is called every 2^20 nodes with the nodes searched
	// and the runs started so far.
	Progress func(nodes uint64, runs int)
}

// ErrMaxNodes is the error of a search stopped by FindOptions.MaxNodes.
var ErrMaxNodes = errors.New("the search reached its node limit")

// progressEvery is how many nodes pass between two calls of
// FindOptions.Progress; a power of two.
const progressEvery = 1 << 20

// firstLimit is the node limit of the first run of the search.
const firstLimit = 1 << 10

// Find returns one placement of s, checked by [Verify], or none with the
// reason:
//
//   - too many pieces for the board: none;
//   - N queens or superqueens on an N × N torus with N not prime to 6:
//     none (Pólya; a superqueen is a queen too);
//   - N pieces on N × N: the construction column = k·row mod N for the
//     smallest k that gives a placement (k = 2 for toroidal queens when N
//     is prime to 6, a solution of the torus and so of the plain board),
//     or package solve's construction for plain queens;
//   - K pieces on a board that is not a torus, with a construction of K on
//     K × K: that one, in the top left corner (the other rows empty);
//   - anything else: a search, depth first with the tries of each row in a
//     random order drawn from FindOptions.Seed, restarted with twice the
//     nodes each time it runs out of them. A run that ends within its
//     nodes has searched the whole tree: then there is no placement. The
//     tree is the count's (its first piece in column 0 on a torus, else
//     in the left half; the last piece placed at once), whose nodes
//     [EstimateTree] estimates.
//
// If ctx ends first, Find returns an error wrapping ctx's within a few
// milliseconds. Cost: O(rows³) for a construction; the search's nodes,
// at most about four times those of the whole tree, O(rows) memory.
func Find(ctx context.Context, s Spec, o FindOptions) (Found, error) {
	if err := s.Validate(); err != nil {
		return Found{}, err
	}
	s = s.Normal()
	f := Found{Spec: s}
	if why := s.noneFit(); why != "" {
		f.How = why
		return f, nil
	}
	if p, how := construct(s); p != nil {
		f.Placement, f.How = p, how
		return f, nil
	}
	return search(ctx, s, o)
}

// construct returns a placement of s made without a search, and how, or
// nil. Every placement it returns passes Verify.
func construct(s Spec) (board.Placement, string) {
	square := s.Rows == s.Cols && s.Queens == s.Rows
	switch {
	case square && !s.Torus && s.Piece == Queen:
		if pat, err := solve.Construct(s.Rows); err == nil {
			return pat.Placement(), "the construction of package solve (cases on N mod 6)"
		}
	case square:
		p := board.New(s.Rows)
		for k := range s.Rows { // k = 0 only for N = 1
			for r := range p {
				p[r] = int32(k * r % s.Rows)
			}
			if Verify(s, p) == nil {
				return p, fmt.Sprintf("the construction column = %d·row mod %d", k, s.Rows)
			}
		}
	case !s.Torus:
		// K pieces on a larger board: those of K × K in its top left
		// corner, which attack each other as they did there.
		sub, how := construct(Spec{Rows: s.Queens, Cols: s.Queens, Piece: s.Piece, Queens: s.Queens})
		if sub == nil {
			return nil, ""
		}
		p := board.New(s.Rows)
		copy(p, sub)
		if Verify(s, p) == nil {
			return p, fmt.Sprintf("%s on %d × %d, in the top left corner", how, s.Queens, s.Queens)
		}
	}
	return nil, ""
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// finder is the state of Find's search.
type finder struct {
	g       geom
	rng     *rand.Rand
	o       FindOptions
	ctx     context.Context
	limit   uint64 // nodes this run may spend
	spent   uint64 // by this run
	total   uint64 // by every run
	runs    int
	cut     bool  // this run reached its limit
	stopped error // why the search stopped: ctx's end, MaxNodes
	p       board.Placement
}

// search runs the search of Find.
func search(ctx context.Context, s Spec, o FindOptions) (Found, error) {
	// The rows as given, not transposed: rows may outnumber columns.
	g := geom{rows: s.Rows, cols: s.Cols, k: s.Queens, torus: s.Torus, super: s.Piece == Superqueen, full: ^uint64(0) >> uint(64-s.Cols)}
	f := &finder{g: g, rng: rand.New(rand.NewPCG(o.Seed, uint64(s.Rows)<<16|uint64(s.Cols)<<8|uint64(s.Queens))), o: o, ctx: ctx, p: board.New(s.Rows)}
	for {
		f.limit = firstLimit << min(f.runs, 50)
		f.spent, f.cut = 0, false
		f.runs++
		found := f.dfs(node{})
		res := Found{Spec: s, Nodes: f.total, Runs: f.runs}
		switch {
		case found:
			if err := Verify(s, f.p); err != nil {
				return Found{}, fmt.Errorf("internal error: the search found an invalid placement of %v: %w", s, err)
			}
			res.Placement = f.p
			res.How = fmt.Sprintf("a search (%d nodes, %d runs, seed %d)", f.total, f.runs, o.Seed)
			return res, nil
		case f.stopped != nil:
			return res, i18n.Stopped(i18n.NewError("count.variant.search.stopped", i18n.Args{"Variant": s, "Nodes": f.total}), f.stopped)
		case !f.cut:
			res.How = fmt.Sprintf("a search through every placement (%d nodes) found none", f.spent)
			return res, nil
		}
	}
}

// dfs searches the completions of n, trying each row's choices in a
// random order, and reports whether it found one (then in f.p).
func (f *finder) dfs(n node) bool {
	g := &f.g
	if n.placed == g.k {
		for r := n.row; r < g.rows; r++ {
			f.p[r] = board.Empty
		}
		return true
	}
	if n.row == g.rows {
		return false
	}
	f.spent++
	f.total++
	if n.placed == g.k-1 {
		// The last piece, as the count's closed form has it: the first
		// free square of this row or one below, or none.
		for d := 0; n.row+d < g.rows; d++ {
			if a := g.lastFree(&n, d); a != 0 {
				for r := n.row; r < g.rows; r++ {
					f.p[r] = board.Empty
				}
				f.p[n.row+d] = int32(bits.TrailingZeros64(a))
				return true
			}
		}
		return false
	}
	if f.spent > f.limit {
		f.cut = true
		return false
	}
	if f.total%progressEvery == 0 && f.o.Progress != nil {
		f.o.Progress(f.total, f.runs)
	}
	if f.total%stopEvery == 0 {
		if err := f.ctx.Err(); err != nil {
			f.stopped = err
			return false
		}
		if f.o.MaxNodes > 0 && f.total >= f.o.MaxNodes {
			f.stopped = ErrMaxNodes
			return false
		}
	}
	var choices [MaxSide + 1]int8 // columns, and -1 for the row left empty
	k := 0
	free := g.free(&n)
	if n.placed == 0 {
		// As the count's units do: a turn of the torus's columns, or the
		// mirror, takes any placement to one whose first piece stands in
		// column 0, or in the left half.
		if g.torus {
			free &= 1
		} else {
			free &= 1<<uint((g.cols+1)/2) - 1
		}
	}
	for a := free; a != 0; a &= a - 1 {
		choices[k] = int8(bits.TrailingZeros64(a))
		k++
	}
	if g.canSkip(&n) {
		choices[k] = -1
		k++
	}
	for i := k - 1; i > 0; i-- {
		j := f.rng.IntN(i + 1)
		choices[i], choices[j] = choices[j], choices[i]
	}
	for _, c := range choices[:k] {
		var bit uint64
		if c >= 0 {
			bit = 1 << uint(c)
		}
		f.p[n.row] = int32(c)
		if f.dfs(g.child(&n, bit)) {
			return true
		}
		if f.cut || f.stopped != nil {
			return false
		}
	}
	return false
}
