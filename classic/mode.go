package classic

// A backtracking search runs in one of two modes, chosen at compile time:
// quiet (what Solve runs, what compare times) or traced (what Trace runs,
// the same code emitting an event at each step). Each strategy's search is
// one generic function of its mode; len of a mode is a constant in each
// instantiation, so the quiet search compiles without the tracing code (no
// branch, no call): the strategies are instrumented at no cost.
type mode interface{ quiet | traced }

type (
	quiet  [0]struct{}
	traced [1]struct{}
)

// tracing reports whether M is the traced mode; a constant once compiled.
func tracing[M mode]() bool {
	var m M
	return len(m) == 1
}

// ptr is a copy of v on the heap, for an event: taking the address of the
// search's own variable would move it to the heap in the quiet search too.
func ptr[T any](v T) *T { return &v }
