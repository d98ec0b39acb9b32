package count

import (
	"bufio"
	"errors"
	"fmt"
	"hash"
	"math"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nqueens/nqueens/internal/join"
)

// JoinFrom and JoinTo bound the N that [Count] counts by the join of half
// boards (internal/join): from JoinFrom on it takes less time than the tree
// search (measured: at N = 14 a sixth, at N = 17 0.37, at N = 18 0.15 of
// it); JoinTo is the largest board the join takes (rows are bits of a
// 32-bit word). Where its quarter tables would pass half the memory
// allowed ([SetMemory]; N = 24 would need about 20 GB), it builds the
// placements of each rows set as a key needs them.
const (
	JoinFrom = 14
	JoinTo   = join.MaxN
)

// usesJoin reports whether n is counted by the join.
func usesJoin(n int) bool { return n >= JoinFrom && n <= JoinTo }

// DefaultMemory is the memory a worker's join may take unless
// [SetMemory] says otherwise: 2 GB.
const DefaultMemory = 2 << 30

// memory is the memory allowed, 0 for DefaultMemory.
var memory atomic.Int64

// SetMemory sets the memory a worker process's join may take, in bytes
// (0 or less: [DefaultMemory]): its quarter tables if they fit in half of
// it, else lists of quarter placements built per rows set, and the halves
// of every goroutine. It changes no unit and no result, only how a unit is
// counted; set it before the first count of a process.
func SetMemory(bytes int64) { memory.Store(max(bytes, 0)) }

// Memory returns the memory a worker's join may take ([SetMemory]).
func Memory() int64 {
	if m := memory.Load(); m > 0 {
		return m
	}
	return DefaultMemory
}

// MemoryError reports a join that took more memory than it may.
type MemoryError struct {
	N           int
	Used, Limit int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the join of N = %d took %s in one worker, more than the %s allowed (--memory)",
		e.N, join.FormatBytes(e.Used), join.FormatBytes(e.Limit))
}

// The engines [Count] chooses between, as [Engine] names them.
const (
	EngineJoin = "join" // the join of half boards, N = JoinFrom to JoinTo
	EngineTree = "tree" // the batch search over border constellations, the other N
)

// Engine names the engine that counts N, [EngineJoin] or [EngineTree]: its
// work is what [Estimate.Nodes] counts (pairs of half boards compared, or
// search nodes), and its speed is what a time estimate of N must use. ""
// outside 1 … MaxN.
func Engine(n int) string {
	switch {
	case n < 1 || n > MaxN:
		return ""
	case usesJoin(n):
		return EngineJoin
	}
	return EngineTree
}

// joinScheme counts N by the join of half boards. The board is cut into a
// left and a right half of (N−s)/2 columns with s = N mod 2 columns
// between them; for each set E of rows of the left half's queens (and
// placement of the middle column's queen) the placements of each half are
// built from tables of quarter placements, and the pairs whose diagonals
// do not meet are counted, 512 at a time. Keys that the mirrors in the
// middle column and row map onto each other are counted once and
// weighted. Units [0, layout.Units()) are runs of keys; the rest, one per
// constellation a half turn fixes, count the solutions a rotation fixes,
// for the unique count.
type joinScheme struct {
	n      int
	layout *join.Layout
	rot    []UnitSpec
	gcd    []uint8 // per join unit, the greatest common divisor of its keys' weights
	maxW   []uint8 // and the largest weight

	mu         sync.Mutex
	tables     *join.Tables
	lists      bool           // the tables would not fit: workers build lists per rows set
	tablesNeed int64          // what they would have taken, if known
	workers    []*join.Worker // idle workers
}

func newJoinScheme(n int) *joinScheme {
	l, err := join.NewLayout(n, n%2)
	if err != nil {
		// JoinFrom and JoinTo keep n within what the layout takes.
		panic("count: " + err.Error())
	}
	s := &joinScheme{n: n, layout: l, rot: rotationUnits(n)}
	if l.Ranked() {
		// Its keys are made when a unit is counted: no bounds per unit
		// beyond the weights' (1 to 4).
		return s
	}
	s.gcd, s.maxW = make([]uint8, l.Units()), make([]uint8, l.Units())
	for u := range s.gcd {
		g := 0
		for _, k := range l.UnitKeys(u) {
			g = gcdInt(g, int(k.Weight))
			s.maxW[u] = max(s.maxW[u], k.Weight)
		}
		s.gcd[u] = uint8(g)
	}
	return s
}

func gcdInt(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (s *joinScheme) name() string {
	if s.layout.Ranked() {
		return fmt.Sprintf("half-join-s%d-ranked", s.layout.S)
	}
	return fmt.Sprintf("half-join-s%d-k1", s.layout.S)
}

func (s *joinScheme) len() int { return s.layout.Units() + len(s.rot) }

func (s *joinScheme) table(h hash.Hash) {
	if s.layout.Ranked() {
		// The units are runs of ranks of rows sets: their length and the
		// number of sets define them.
		per, sets := s.layout.PerUnit()
		writeInts(h, -3, int(per), int(sets), s.layout.Units())
	}
	// The sieve stores the parts it splits off on a stack and leaves the
	// shorter list whole for its second part (engine 6 split both in
	// place): from N = 18 it chooses other bits, so the pairs compared
	// and the unit results differ.
	writeInts(h, -5, join.SieveVersion)
	if s.n >= join.BigPartFrom {
		// Its halves are joined in larger parts than engine 6 first did:
		// other pairs compared, so other unit results.
		writeInts(h, -4, join.PartOf(s.n))
	}
	for u := range s.layout.Units() {
		if s.layout.Ranked() {
			break
		}
		writeInts(h, -1)
		for _, k := range s.layout.UnitKeys(u) {
			writeInts(h, int(k.E), int(k.Sep), int(k.Weight))
		}
	}
	for _, c := range s.rot {
		writeInts(h, -2, c.Top, c.Bottom, c.Left, c.Right)
	}
}

func (s *joinScheme) count(index int, stop *atomic.Bool) (UnitResult, bool, error) {
	if index >= s.layout.Units() {
		return countRotations(s.n, index, s.rot[index-s.layout.Units()]), true, nil
	}
	w, err := s.worker(stop)
	if err != nil {
		return UnitResult{}, false, err
	}
	if w == nil {
		return UnitResult{}, false, nil
	}
	defer s.putWorker(w)
	total, pairs, ok := w.CountUnit(index, stop)
	if err := w.Err(); err != nil {
		return UnitResult{}, false, fmt.Errorf("unit %d: %w", index, err)
	}
	if !ok {
		return UnitResult{}, false, nil
	}
	if used := s.tableBytes() + w.Bytes(); used > Memory() {
		return UnitResult{}, false, &MemoryError{N: s.n, Used: used, Limit: Memory()}
	}
	return UnitResult{Index: index, Total: total, Nodes: pairs}, true, nil
}

// tableBytes returns the memory of the quarter tables, 0 without.
func (s *joinScheme) tableBytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tables == nil {
		return 0
	}
	return s.tables.Bytes()
}

// worker returns an idle worker, building the tables first if no count of
// s has yet and they fit in half the memory allowed (and what the system
// has); else a worker that builds its lists per rows set. nil if stop
// ended the build.
func (s *joinScheme) worker(stop *atomic.Bool) (*join.Worker, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tables == nil && !s.lists {
		limit := Memory() / 2
		if m := memoryLimit(); m > 0 {
			limit = min(limit, m)
		}
		t, err := (*join.Tables)(nil), error(nil)
		if s.layout.Ranked() {
			// Never built: N = 24's would take about 20 GB.
			err = &join.MemoryError{N: s.n, Limit: limit}
		} else {
			t, err = join.NewTables(s.layout, limit, stop)
		}
		var me *join.MemoryError
		switch {
		case err == join.ErrStopped:
			return nil, nil
		case errors.As(err, &me):
			s.lists, s.tablesNeed = true, me.Need
		case err != nil:
			return nil, err
		default:
			s.tables = t
		}
	}
	if k := len(s.workers); k > 0 {
		w := s.workers[k-1]
		s.workers = s.workers[:k-1]
		return w, nil
	}
	if s.lists {
		// Half the memory for its lists, the rest for its halves.
		w := join.NewListWorker(s.layout)
		w.SetLimit(Memory() / 2)
		return w, nil
	}
	return join.NewWorker(s.tables), nil
}

func (s *joinScheme) putWorker(w *join.Worker) {
	s.mu.Lock()
	s.workers = append(s.workers, w)
	s.mu.Unlock()
}

func (s *joinScheme) check(u UnitResult) error {
	if u.Index >= s.layout.Units() {
		return checkRotations(s.n, s.rot[u.Index-s.layout.Units()], u)
	}
	bad := func(format string, args ...any) error {
		return &ImplausibleError{N: s.n, Units: []int{u.Index}, Reason: fmt.Sprintf(format, args...)}
	}
	// A key's count is of pairs of half placements compared, and the
	// unit's nodes are those pairs: its total is at most the largest
	// weight times them.
	maxW, g := uint64(4), uint64(1) // a ranked layout's keys are not kept
	if s.maxW != nil {
		maxW, g = uint64(s.maxW[u.Index]), uint64(s.gcd[u.Index])
	}
	hi, lo := bits.Mul64(maxW, u.Nodes)
	switch {
	case u.Rot180 != 0 || u.Rot90 != 0:
		return bad("rot180 = %d and rot90 = %d, but the unit counts no rotations", u.Rot180, u.Rot90)
	case u.Total%g != 0:
		return bad("total = %d is not a multiple of %d, the weight its keys share", u.Total, g)
	case hi == 0 && u.Total > lo:
		return bad("total = %d exceeds what nodes = %d allow: one solution for each pair of halves compared, times %d, the largest weight of its keys", u.Total, u.Nodes, maxW)
	}
	return nil
}

// checkSums checks that a half turn fixes no more solutions than there
// are; Burnside's lemma over the whole board is checked by Tally.Result.
func (s *joinScheme) checkSums(got []UnitResult) error {
	var total, rot180 Uint128
	for _, u := range got {
		total, _ = total.Add(U128(u.Total))
		rot180, _ = rot180.Add(U128(u.Rot180))
	}
	if rot180.Cmp(total) > 0 {
		idx := make([]int, 0, len(s.rot))
		for i := range s.rot {
			idx = append(idx, s.layout.Units()+i)
		}
		return &ImplausibleError{N: s.n, Units: idx, Reason: fmt.Sprintf("a half turn fixes %s solutions of %s", rot180, total)}
	}
	return nil
}

// memoryLimit returns the bytes the join's tables may take: the memory
// the system reports available (Linux's MemAvailable), or no limit (0)
// where it reports none.
var memoryLimit = func() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil || kb > math.MaxInt64/1024 {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}

// joinSeconds is about how long a whole count by the join takes on one
// core of the project machine (an AMD EPYC with AVX-512), in CPU seconds,
// by N from JoinFrom (docs/engine.md): N = 16 to 22 counted (16 to 21 on
// one worker, 22 on two, 2026-11-26 to 12-07), 23 from the join's
// estimate, which 27 of its units counted in full agree with (2026-12-07,
// bench/results), 24 to 28 likewise from the estimate (at 29e4525).
// Past the table the time grows by the factor of its last step (15 from
// N = 27 to 28; 10 a step from N = 19 had put N = 24 to 27 four to seven
// times too high).
var joinSeconds = [...]float64{14: 0.004, 15: 0.04, 16: 0.12, 17: 0.52, 18: 1.35, 19: 11, 20: 41, 21: 344, 22: 2430,
	23: 1.73e4, 24: 1.14e5, 25: 1.15e6, 26: 1.02e7, 27: 6.18e7, 28: 9.15e8}

// Tree search: about treeSecondsN16 for N = 16 on one core, treeGrowth-fold
// per N (the batch search; the node rate of N = 18 and the tree's growth).
const (
	treeSecondsN16 = 0.3
	treeGrowth     = 7
)

// UnitSeconds returns about how long one unit of N takes on one core: the
// CPU time of the whole count on the project machine over its units. It
// is a rough guide (a unit of a large N can take ten times the mean), for
// sizing batches of units; 0 outside 1 … MaxN.
func UnitSeconds(n int) float64 {
	units := Units(n)
	if units == 0 {
		return 0
	}
	var total float64
	switch {
	case usesJoin(n) && n < len(joinSeconds):
		total = joinSeconds[n]
	case usesJoin(n):
		last := len(joinSeconds) - 1
		growth := joinSeconds[last] / joinSeconds[last-1]
		total = joinSeconds[last] * math.Pow(growth, float64(n-last))
	default:
		total = treeSecondsN16 * math.Pow(treeGrowth, float64(n-16))
	}
	return total / float64(units)
}
