package main

import (
	"context"
	"fmt"
	"io"

	"github.com/nqueens/nqueens/variant"
	"github.com/spf13/cobra"
)

// variantFlags are the board and piece flags of count (and of the
// commands that check or list boards of a variant).
type variantFlags struct {
	torus, super bool
	queens, cols int
}

// variantFlagNames are the flags of variantFlags.
var variantFlagNames = []string{"torus", "super", "queens", "cols"}

// addVariantFlags adds --torus, --super, --queens and --cols to cmd, each
// exclusive of the flags named in exclusive.
func addVariantFlags(cmd *cobra.Command, exclusive ...string) *variantFlags {
	v := &variantFlags{}
	fl := cmd.Flags()
	fl.BoolVar(&v.torus, "torus", false, "a toroidal board: diagonals (and knight moves) wrap round the edges")
	fl.BoolVar(&v.super, "super", false, "superqueens: queens that also move as a knight")
	fl.IntVar(&v.queens, "queens", 0, "place K pieces, at most one a row (default: one on every row)")
	fl.IntVar(&v.cols, "cols", 0, "a board of N rows and M columns (default: M = N)")
	for _, f := range variantFlagNames {
		for _, x := range exclusive {
			cmd.MarkFlagsMutuallyExclusive(f, x)
		}
	}
	return v
}

// active reports whether any variant flag was given.
func (v *variantFlags) active(given func(string) bool) bool {
	for _, f := range variantFlagNames {
		if given(f) {
			return true
		}
	}
	return false
}

// spec returns the variant of n rows that the flags name, or a usage
// error for one that is not defined.
func (v *variantFlags) spec(n int, given func(string) bool) (variant.Spec, error) {
	s := variant.Spec{Rows: n, Torus: v.torus, Queens: v.queens, Cols: v.cols}
	if v.super {
		s.Piece = variant.Superqueen
	}
	if given("cols") && (v.cols < 1 || v.cols > variant.MaxSide) {
		return s, usagef("--cols must be between 1 and %d, got %d", variant.MaxSide, v.cols)
	}
	if given("queens") && v.queens < 1 {
		return s, usagef("--queens must be 1 or more, got %d", v.queens)
	}
	if v.torus && given("cols") && v.cols != n {
		return s, usagef("--torus needs a square board: --cols %d differs from N = %d", v.cols, n)
	}
	if err := s.Validate(); err != nil {
		return s, &usageError{err}
	}
	return s.Normal(), nil
}

// plain reports whether s is the N-Queens problem itself, which count's
// own engine counts (faster, and checked against the published table).
func plain(s variant.Spec) bool {
	return !s.Torus && s.Piece == variant.Queen && s.Rows == s.Cols && s.Queens == s.Rows
}

// variantRateFrom is the estimated nodes from which a variant's count
// measures the node rate and prints its estimated time (about a second).
const variantRateFrom = 1e8

// runVariant counts the variant o.spec.
func (o *countOptions) runVariant(ctx context.Context) error {
	s := o.spec
	e, err := variant.EstimateTree(ctx, s, 2000, 1)
	if err != nil {
		return err
	}
	var est float64
	if e.Nodes >= variantRateFrom {
		rt, err := variant.MeasureRate(ctx, s)
		if err != nil {
			return fmt.Errorf("measuring the node rate: %w", err)
		}
		secs := e.Nodes / rt.NodesPerSec / float64(workersOf(o.workers))
		if !o.quiet {
			fmt.Fprintf(o.stderr, "nqueens: %v: about %s on %d worker(s) (%.3g ± %.1g nodes at %.3g nodes/s; an estimate)\n",
				s, formatSeconds(secs), workersOf(o.workers), e.Nodes, e.NodesErr, rt.NodesPerSec)
		}
		if secs > longRun.Seconds() && !o.yes {
			return usagef("the count of %v would take about %s; add --yes to start it", s, formatSeconds(secs))
		}
		est = e.Nodes
	}
	prog := newProgressView(o.stderr, "count "+s.String(), "units", o.quiet)
	prog.setEstimate(est)
	r, err := variant.Count(ctx, s, variant.Options{Workers: o.workers, Progress: func(p variant.Progress) {
		prog.update(progressState{Done: p.UnitsDone, Units: p.Units, Nodes: p.Nodes, Elapsed: p.Elapsed})
	}})
	prog.finish(err == nil)
	if err != nil {
		return err
	}
	if r.Note != "" && !o.quiet {
		fmt.Fprintf(o.stderr, "nqueens: %s\n", r.Note)
	}
	return printVariantResult(o.stdout, r, o.jsonOut)
}

// symmetryNote says which classes the unique count counts.
func symmetryNote(s variant.Spec) string {
	switch {
	case s.Torus:
		return "classes under the 8 symmetries of the square; turns of the torus not merged"
	case s.Rows == s.Cols:
		return "classes under the 8 symmetries of the square"
	}
	return "classes under the 4 symmetries of the rectangle"
}

func printVariantResult(w io.Writer, r variant.Result, jsonOut bool) error {
	if jsonOut {
		return writeJSONLine(w, r.JSON())
	}
	s := r.Spec
	total, unique := s.OEIS()
	t := ""
	if total.ID != "" {
		t = fmt.Sprintf(" (OEIS %s, %s)", total.ID, total.Term)
	}
	u := " (" + symmetryNote(s)
	if unique.ID != "" {
		u += fmt.Sprintf("; OEIS %s", unique.ID)
	}
	_, err := fmt.Fprintf(w, "total %s%s\nunique %s%s)\n", r.Total, t, r.Unique, u)
	return err
}
