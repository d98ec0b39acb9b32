package count

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/nqueens/nqueens/board"
)

// Tally adds up unit results, refusing duplicates, unknown units, results
// that cannot be right (see [Tally.Add]) and overflow. The zero value is not
// usable; call [NewTally].
type Tally struct {
	n                           int
	scheme                      scheme
	got                         []UnitResult
	seen                        []bool
	done                        int
	total, rot180, rot90, nodes Uint128
}

// NewTally starts an empty tally for N. Cost O(units).
func NewTally(n int) (*Tally, error) {
	if n < 1 || n > MaxN {
		return nil, errSize(n)
	}
	return newTallyWith(n, schemeOf(n)), nil
}

// newTallyWith starts an empty tally of N's units under scheme s.
func newTallyWith(n int, s scheme) *Tally {
	return &Tally{n: n, scheme: s, got: make([]UnitResult, s.len()), seen: make([]bool, s.len())}
}

// ImplausibleError reports unit results that no correct search produces: a
// damaged or forged ledger, checkpoint or worker. Units names the units
// involved: one, or every unit of a constellation.
type ImplausibleError struct {
	N      int
	Units  []int
	Reason string
}

func (e *ImplausibleError) Error() string {
	what := fmt.Sprintf("unit %d", e.Units[0])
	if len(e.Units) > 1 {
		what = fmt.Sprintf("units %d-%d", e.Units[0], e.Units[len(e.Units)-1])
	}
	return fmt.Sprintf("%s of N = %d cannot be right: %s", what, e.N, e.Reason)
}

// Check reports whether u is a plausible result of its unit of N. For the
// tree search: every count is a multiple of the constellation's orbit size
// (the weight), the rotation counts are zero unless the unit is its
// constellation's first and the rotation fixes the constellation, a quarter
// turn fixes no more solutions than a half turn, and for a whole
// constellation a rotation fixes no more solutions than there are; and the
// nodes reported allow the total: a solution lies as many nodes deep as
// rows are left below the last three, and a node with three rows left has
// at most 6 completions. For the join: a unit of keys counts no rotations
// and a total that is a multiple of the weight its keys share, and no more
// than one solution per pair of halves compared (its nodes) times its
// largest weight; a rotation unit counts no total, no nodes, and rotations
// as for the tree. Every result of a correct search passes, whatever the
// machine; a result that passes may still be wrong; the
// sums and the published counts are checked by [Tally.Result]. Cost O(1)
// after the unit table of N.
func Check(n int, u UnitResult) error {
	if n < 1 || n > MaxN {
		return errSize(n)
	}
	s := schemeOf(n)
	if u.Index < 0 || u.Index >= s.len() {
		return fmt.Errorf("unit %d is outside 0..%d for N = %d", u.Index, s.len()-1, n)
	}
	return s.check(u)
}

func check(n int, s UnitSpec, u UnitResult) error {
	bad := func(format string, args ...any) error {
		return &ImplausibleError{N: n, Units: []int{u.Index}, Reason: fmt.Sprintf(format, args...)}
	}
	w, _ := s.orbit(n)
	for _, c := range []struct {
		name string
		v    uint64
	}{{"total", u.Total}, {"rot180", u.Rot180}, {"rot90", u.Rot90}} {
		if c.v%uint64(w) != 0 {
			return bad("%s = %d is not a multiple of %d, the size of its constellation's orbit", c.name, c.v, w)
		}
	}
	fixes180 := s.first && s.fixedBy(n, board.Rotate180)
	fixes90 := fixes180 && s.fixedBy(n, board.Rotate90)
	switch {
	case u.Rot180 != 0 && !fixes180:
		return bad("rot180 = %d, but a half turn does not fix its constellation%s", u.Rot180, firstNote(s))
	case u.Rot90 != 0 && !fixes90:
		return bad("rot90 = %d, but a quarter turn does not fix its constellation%s", u.Rot90, firstNote(s))
	case u.Rot90 > u.Rot180:
		return bad("rot90 = %d exceeds rot180 = %d (a quarter turn fixes only what a half turn fixes)", u.Rot90, u.Rot180)
	case s.Row < 0 && u.Rot180 > u.Total:
		return bad("rot180 = %d exceeds total = %d", u.Rot180, u.Total)
	}
	return checkTreeNodes(n, s, u, uint64(w), bad)
}

// checkTreeNodes checks a unit's nodes against its total, by what the
// tree search does (internal/kernel): with e rows left empty by the unit's
// queens, e ≤ 3 are counted in closed form without a node (at most e!
// ways); otherwise a solution lies e − 3 nodes deep, and each node at that
// last level, one with three rows left, has at most 3! = 6 completions,
// so the total is at most 6 × w × (nodes − (e − 4)): e − 4 nodes above the
// last level lead to any one of them. The split queen of a split unit is
// a node of its own. Every true result meets these bounds; a forged one
// must at least claim the nodes its total needs.
func checkTreeNodes(n int, s UnitSpec, u UnitResult, w uint64, bad func(string, ...any) error) error {
	b, placed := s.board(n)
	e := uint64(bits.OnesCount64(b.Rows))
	if u.Nodes < placed {
		return bad("nodes = %d, but its split queen is a node", u.Nodes)
	}
	searched, sols := u.Nodes-placed, u.Total/w
	switch {
	case e <= 3 && searched != 0:
		return bad("nodes = %d, but the %d rows its queens leave are counted without a search", u.Nodes, e)
	case e <= 3 && sols > factorial(e):
		return bad("total = %d, but the %d rows its queens leave hold at most %d solutions, times %d for its orbit", u.Total, e, factorial(e), w)
	case e > 3 && sols > 0 && searched < e-3:
		return bad("total = %d with nodes = %d, but a solution lies %d nodes deep", u.Total, u.Nodes, e-3+placed)
	case e > 3 && sols > 0 && (sols+5)/6 > searched-(e-4):
		return bad("total = %d exceeds what nodes = %d allow: 6 solutions for each node with three rows left, of which there are at most %d, times %d for its orbit", u.Total, u.Nodes, searched-(e-4), w)
	}
	return nil
}

func factorial(k uint64) uint64 {
	f := uint64(1)
	for i := uint64(2); i <= k; i++ {
		f *= i
	}
	return f
}

func firstNote(s UnitSpec) string {
	if s.first {
		return ""
	}
	return " (or is not its first unit)"
}

// Add records one unit after checking it with [Check]. Cost O(1).
func (t *Tally) Add(u UnitResult) error {
	if u.Index < 0 || u.Index >= len(t.seen) {
		return fmt.Errorf("unit %d is outside 0..%d for N = %d", u.Index, len(t.seen)-1, t.n)
	}
	if t.seen[u.Index] {
		return fmt.Errorf("unit %d counted twice", u.Index)
	}
	if err := t.scheme.check(u); err != nil {
		return err
	}
	total, ok1 := t.total.Add(U128(u.Total))
	rot180, ok2 := t.rot180.Add(U128(u.Rot180))
	rot90, ok3 := t.rot90.Add(U128(u.Rot90))
	nodes, ok4 := t.nodes.Add(U128(u.Nodes))
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return fmt.Errorf("the sums of N = %d pass 128 bits: %w", t.n, ErrOverflow)
	}
	t.total, t.rot180, t.rot90, t.nodes = total, rot180, rot90, nodes
	t.got[u.Index] = u
	t.seen[u.Index] = true
	t.done++
	return nil
}

// Has reports whether unit index is recorded.
func (t *Tally) Has(index int) bool { return index >= 0 && index < len(t.seen) && t.seen[index] }

// Done returns the number of units recorded.
func (t *Tally) Done() int { return t.done }

// Units returns the number of units of the tally's N.
func (t *Tally) Units() int { return len(t.seen) }

// partial returns the sums so far, as a Result without Unique.
func (t *Tally) partial() Result {
	return Result{N: t.n, Total: t.total, Rot180: t.rot180, Rot90: t.rot90, Nodes: t.nodes, Units: len(t.seen)}
}

// Result returns the count once every unit is recorded, after checking it
// against Burnside's lemma constellation by constellation and, for N up to
// 27, against the published counts ([Known]): a result that fails either is
// an error ([*ImplausibleError] naming the units, or [*MismatchError]),
// never a number.
//
// Unique comes from Burnside's lemma: the number of classes is the mean over
// the 8 symmetries of the number of solutions each fixes. No solution with
// N > 1 is fixed by a reflection (see the package doc), the quarter turns
// fix Rot90 each and the half turn Rot180, so Unique = (Total + Rot180 +
// 2·Rot90)/8. The solutions whose constellation lies in one orbit are a
// union of whole classes, so the same sum over each constellation is a
// multiple of 8 too. For N = 1 the lone queen is fixed by all 8, and
// Unique = 1. Cost O(units).
func (t *Tally) Result() (Result, error) {
	if t.done != len(t.seen) {
		return Result{}, fmt.Errorf("only %d of %d units are counted", t.done, len(t.seen))
	}
	r := t.partial()
	if t.n == 1 {
		r.Unique = r.Total
		return r, checkPublished(r)
	}
	if err := t.scheme.checkSums(t.got); err != nil {
		return Result{}, err
	}
	sum, ok1 := t.total.Add(t.rot180)
	sum, ok2 := sum.Add(t.rot90)
	sum, ok3 := sum.Add(t.rot90)
	if !ok1 || !ok2 || !ok3 {
		return Result{}, fmt.Errorf("the Burnside sum of N = %d passes 128 bits: %w", t.n, ErrOverflow)
	}
	u, exact := sum.div8()
	if !exact {
		// The tree's sums pass this constellation by constellation; the
		// join's only here, over the whole board.
		return Result{}, &ImplausibleError{N: t.n, Units: []int{0, len(t.seen) - 1},
			Reason: fmt.Sprintf("total %s + rot180 %s + 2 × rot90 %s = %s is not a multiple of 8 (Burnside's lemma)", t.total, t.rot180, t.rot90, sum)}
	}
	r.Unique = u
	return r, checkPublished(r)
}

// checkConstellations applies Burnside's lemma to each constellation's
// units (consecutive in the numbering) of the tree scheme with units specs:
// their total plus rot180 plus twice rot90 is a multiple of 8, and a
// rotation fixes no more solutions than the constellation has.
func checkConstellations(n int, specs []UnitSpec, got []UnitResult) error {
	for start := 0; start < len(specs); {
		end := start + 1
		for end < len(specs) && specs[end].Constellation == specs[start].Constellation {
			end++
		}
		var total, rot180, rot90 Uint128
		for _, u := range got[start:end] {
			total, _ = total.Add(U128(u.Total))
			rot180, _ = rot180.Add(U128(u.Rot180))
			rot90, _ = rot90.Add(U128(u.Rot90))
		}
		sum, _ := total.Add(rot180)
		sum, _ = sum.Add(rot90)
		sum, _ = sum.Add(rot90)
		reason := ""
		switch {
		case rot180.Cmp(total) > 0:
			reason = fmt.Sprintf("its constellation has %s solutions, but rot180 = %s of them", total, rot180)
		case sum.Lo%8 != 0:
			reason = fmt.Sprintf("total %s + rot180 %s + 2 × rot90 %s = %s is not a multiple of 8 (Burnside's lemma over its constellation)", total, rot180, rot90, sum)
		}
		if reason != "" {
			idx := make([]int, 0, end-start)
			for i := start; i < end; i++ {
				idx = append(idx, i)
			}
			return &ImplausibleError{N: n, Units: idx, Reason: reason}
		}
		start = end
	}
	return nil
}

// MismatchError reports a count that differs from the published one: a
// fault in this program, the machine or a worker, never a discovery.
type MismatchError struct {
	N                     int
	Total, Unique         Uint128 // counted
	WantTotal, WantUnique Uint128 // published
}

func (e *MismatchError) Error() string {
	var parts []string
	if e.Total != e.WantTotal {
		parts = append(parts, fmt.Sprintf("the total %s does not match the published count %s (OEIS A000170)", e.Total, e.WantTotal))
	}
	if e.Unique != e.WantUnique {
		parts = append(parts, fmt.Sprintf("the unique count %s does not match the published count %s (OEIS A002562)", e.Unique, e.WantUnique))
	}
	return fmt.Sprintf("N = %d: %s; the result is wrong, and was not printed", e.N, strings.Join(parts, "; "))
}

// checkPublished compares r with the published counts where there are any.
func checkPublished(r Result) error {
	total, unique, ok := Known(r.N)
	if !ok || (total == r.Total && unique == r.Unique) {
		return nil
	}
	return &MismatchError{N: r.N, Total: r.Total, Unique: r.Unique, WantTotal: total, WantUnique: unique}
}

// errSize reports a board size outside 1..MaxN.
func errSize(n int) error { return &board.SizeError{Op: "count", N: n, Max: MaxN} }
