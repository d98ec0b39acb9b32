package classic

import (
	"context"
	"iter"
	"math/big"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
)

// candidates is the bookkeeping of the brute-force strategies: each whole
// board generated is one node and one try, rejected unless it is a solution.
// The uint64 counters cannot overflow in practice (2^64 candidates take
// thousands of years); the closed forms, which pass 2^64 from n = 14 for
// C(n², n) and n = 17 for n^n, are big.Int.
type candidates struct {
	ctx   context.Context
	c     Counters
	visit func(board.Placement) bool
	err   error
	start time.Time
	emit  func(Event) bool // nil unless traced (TraceCandidates)
	say   *lesson          // the strategy's sentences, when traced
	p     *i18n.Printer    // their language
	f     field            // the board, as they see it
	pick  []int            // brute-combinations' squares, row·n + col, for events
}

func newCandidates(ctx context.Context, visit func(board.Placement) bool) *candidates {
	return &candidates{ctx: ctx, visit: visit, start: time.Now()}
}

// verdict is a brute-force check of one candidate: the first pair of queens
// that attack each other, in the order the check compares them (the later
// queen at, the earlier by, the line how; how is 0 for a solution), and the
// elements of the board it read to decide.
type verdict struct {
	at, by board.Square
	how    board.ProblemKind
	reads  int
}

// test counts one candidate p and reports whether to go on.
func (t *candidates) test(p board.Placement, v verdict) bool {
	t.c.Nodes++
	t.c.Tries++
	t.c.Reads += uint64(v.reads)
	if v.how != 0 {
		t.c.Rejected++
	} else {
		t.c.Solutions++
		if t.visit != nil && !t.visit(p) {
			return false
		}
	}
	if t.emit != nil {
		if t.err = t.ctx.Err(); t.err != nil {
			return false
		}
		return t.emit(t.event(p, v))
	}
	if t.c.Nodes%checkEvery == 0 {
		if t.err = t.ctx.Err(); t.err != nil {
			return false
		}
	}
	return true
}

// bruteForce is a brute-force strategy, an [Estimator] and a
// [CandidateTracer]: run tests every candidate of the n×n board through t,
// in its order; formula and candidates count them. Its Solve and
// TraceCandidates are every brute-force strategy's.
type bruteForce struct {
	name, formula string
	candidates    func(n int) *big.Int
	run           func(t *candidates, n int)
	teach         *lesson
}

func (b bruteForce) Name() string        { return b.name }
func (b bruteForce) Description() string { return description(b.name) }
func (b bruteForce) lesson() *lesson     { return b.teach }

// Formula is Candidates as people write it.
func (b bruteForce) Formula() string { return b.formula }

// Candidates is the exact number of candidates, by the formula.
func (b bruteForce) Candidates(n int) *big.Int { return b.candidates(n) }

// Solve costs what the strategy's run says.
func (b bruteForce) Solve(ctx context.Context, n int, visit func(board.Placement) bool) (Counters, error) {
	if err := checkN(b, n, MaxN); err != nil {
		return Counters{}, err
	}
	t := newCandidates(ctx, visit)
	if t.err = ctx.Err(); t.err == nil {
		b.run(t, n)
	}
	t.c.Elapsed = time.Since(t.start)
	return t.c, t.err
}

// TraceCandidates shows every candidate Solve tests, in its order, and a
// final Done event after a whole search.
func (b bruteForce) TraceCandidates(ctx context.Context, n int) iter.Seq2[Event, error] {
	return runTrace(ctx, b, n, func(emit func(Event) bool) error {
		t := newCandidates(ctx, nil)
		t.say, t.p, t.f = b.lesson(), i18n.Ctx(ctx), newField(n, nil)
		stopped := false
		t.emit = func(e Event) bool {
			stopped = !emit(e)
			return !stopped
		}
		b.run(t, n)
		if t.err == nil && !stopped {
			e := Event{Kind: Done, Step: t.c.Nodes + 1, Row: board.Empty, Col: board.Empty, Queens: board.New(n), Counters: t.c}
			e.Line, e.Text = t.say.line(Done), t.say.say(t.p, &e, t.f, 0)
			emit(e)
		}
		return t.err
	})
}

// event is the event of the candidate p just counted by test.
func (t *candidates) event(p board.Placement, v verdict) Event {
	e := Event{Kind: Solution, Step: t.c.Nodes, Candidate: t.c.Nodes, Row: board.Empty, Col: board.Empty,
		Queens: p.Clone(), Counters: t.c}
	n := len(p)
	for _, sq := range t.pick {
		e.Squares = append(e.Squares, board.Square{Row: sq / n, Col: sq % n})
	}
	if v.how != 0 {
		e.Kind = Reject
		e.Row, e.Col, e.By, e.Attack = v.at.Row, v.at.Col, v.by, v.how
	}
	e.Line, e.Text = t.say.line(e.Kind), t.say.say(t.p, &e, t.f, 0)
	return e
}

// firstPair is the articles' whole-board check: every pair of queens i < j,
// in that order, compared on columns (unless diagonalsOnly) and diagonals
// (|Δrow| == |Δcol|). It reads p[i] once for each i and p[j] once for each
// pair. It is O(n²) where board.Verify is O(n), but it allocates nothing and
// usually fails on the first pairs, which is what makes brute force
// bearable at all.
func firstPair(p board.Placement, diagonalsOnly bool) verdict {
	var v verdict
	for i := 0; i < len(p)-1; i++ {
		ci := p[i]
		v.reads++
		for j := i + 1; j < len(p); j++ {
			d := p[j] - ci
			v.reads++
			switch {
			case d == 0 && !diagonalsOnly:
				v.how = board.SameColumn
			case int(d) == j-i:
				v.how = board.Diagonal
			case int(-d) == j-i:
				v.how = board.AntiDiagonal
			default:
				continue
			}
			v.at, v.by = board.Square{Row: j, Col: int(p[j])}, board.Square{Row: i, Col: int(ci)}
			return v
		}
	}
	return v
}

// sayCandidate writes the sentences of the brute-force strategy name.
func sayCandidate(name string) func(p *i18n.Printer, e *Event, f field, _ EventKind) string {
	reject := "trace." + name + ".reject" // TestSentenceKeys: in the catalogs
	return func(p *i18n.Printer, e *Event, f field, _ EventKind) string {
		switch e.Kind {
		case Solution:
			return p.T("trace.brute.solution", i18n.Args{"Candidate": e.Candidate, "Queens": e.Queens.String(),
				"Solution": e.Counters.Solutions})
		case Done:
			return p.T("trace.brute.done", i18n.Args{"Solutions": p.N("trace.done.solutions", e.Counters.Solutions, nil),
				"Candidates": p.N("trace.done.candidates", e.Counters.Nodes, nil)})
		}
		var line string
		switch e.Attack {
		case board.SameRow:
			line = p.T("trace.brute.share.row", nil)
		case board.SameColumn:
			line = p.T("trace.brute.share.column", nil)
		case board.Diagonal:
			line = p.T("trace.brute.share.diag", nil)
		case board.AntiDiagonal:
			line = p.T("trace.brute.share.anti", nil)
		}
		return p.T(reject, i18n.Args{"Candidate": e.Candidate, "By": f.square(p, e.By.Row, e.By.Col),
			"At": f.square(p, e.Row, e.Col), "Line": line})
	}
}
