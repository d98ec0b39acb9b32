package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
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
func addVariantFlags(cmd *cobra.Command, p *i18n.Printer, exclusive ...string) *variantFlags {
	v := &variantFlags{}
	fl := cmd.Flags()
	fl.BoolVar(&v.torus, "torus", false, p.T("help.flag.torus", nil))
	fl.BoolVar(&v.super, "super", false, p.T("help.flag.super", nil))
	fl.IntVar(&v.queens, "queens", 0, p.T("help.flag.queens", nil))
	fl.IntVar(&v.cols, "cols", 0, p.T("help.flag.cols", nil))
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

// check reports a flag out of range as a usage error.
func (v *variantFlags) check(given func(string) bool) error {
	if given("cols") && (v.cols < 1 || v.cols > variant.MaxSide) {
		return usageT("cli.variant.cols", i18n.Args{"Max": variant.MaxSide, "Value": strconv.Itoa(v.cols)})
	}
	if given("queens") && v.queens < 1 {
		return usageT("cli.variant.queens", i18n.Args{"Value": strconv.Itoa(v.queens)})
	}
	return nil
}

// rules returns the rules the flags name, for the commands that read
// boards of their own size (verify, show): the torus, the piece and
// --queens (0 when not given: one on every row); Rows and Cols are 0.
func (v *variantFlags) rules() variant.Spec {
	s := variant.Spec{Torus: v.torus, Queens: v.queens}
	if v.super {
		s.Piece = variant.Superqueen
	}
	return s
}

// spec returns the variant of n rows that the flags name, or a usage
// error for one that is not defined.
func (v *variantFlags) spec(n int, given func(string) bool) (variant.Spec, error) {
	s := v.rules()
	s.Rows, s.Cols = n, v.cols
	if err := v.check(given); err != nil {
		return s, err
	}
	if v.torus && given("cols") && v.cols != n {
		return s, usageT("cli.variant.torus", i18n.Args{"Cols": v.cols, "N": n})
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
	ref := s.Reference()
	// Count has checked every published term: a count that differs never
	// comes here.
	t := ""
	if total.ID != "" {
		t = " (" + checkedTerm(total.ID, total.Term, ref != nil) + ")"
	}
	u := " (" + symmetryNote(s)
	if unique.ID != "" {
		u += "; " + checkedTerm(unique.ID, unique.Term, ref != nil && ref.Unique != nil)
	}
	_, err := fmt.Fprintf(w, "total %s%s\nunique %s%s)\n", r.Total, t, r.Unique, u)
	return err
}

// searchBudget is the nodes a variant's solve searches before it
// estimates the whole search (about a second); tests make it smaller.
var searchBudget uint64 = 1 << 25

// runVariant prints one placement of the variant o.spec, or says why
// there is none.
func (o *solveOptions) runVariant(ctx context.Context) error {
	s := *o.spec
	start := time.Now()
	found, err := variant.Find(ctx, s, variant.FindOptions{Seed: o.seed, MaxNodes: searchBudget})
	if errors.Is(err, variant.ErrMaxNodes) {
		rate := float64(found.Nodes) / max(time.Since(start).Seconds(), 1e-9)
		if err := o.checkSearch(ctx, s, found.Nodes, rate); err != nil {
			return err
		}
		view := newProgressView(o.stderr, o.printer(), "solve "+s.String(), "runs", o.quiet)
		found, err = variant.Find(ctx, s, variant.FindOptions{Seed: o.seed, Progress: func(nodes uint64, runs int) {
			view.update(progressState{Done: runs, Nodes: count.U128(nodes)})
		}})
		view.finish(err == nil)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return interruptedT("cli.variant.int.search", i18n.Args{"Variant": s, "Nodes": strconv.FormatUint(found.Nodes, 10)})
	case err != nil:
		return err
	case found.Placement == nil:
		var how any = found.How
		if why := s.NoneFitWhy(); why != nil {
			how = why // found.How, in the reader's language
		}
		return failureT(1, "cli.variant.none", i18n.Args{"Variant": s, "How": how})
	}
	// Find checked it; so does every board solve prints, here too.
	if err := variant.Verify(s, found.Placement); err != nil {
		return i18n.Wrap(err, "cli.variant.invalid", i18n.Args{"Variant": s})
	}
	if took := time.Since(start); took > reportAfter {
		o.noteT("cli.variant.found", i18n.Args{"Variant": s, "How": found.How, "Time": dur(took.Round(time.Millisecond))})
	}
	var sol board.Columns = found.Placement
	if s.Cols != s.Rows {
		sol = board.Rect{Placement: found.Placement, Width: s.Cols}
	}
	return o.writeOutput(ctx, o.output, func(w *bufio.Writer) error { return board.Write(w, sol, o.f) })
}

// restartFactor bounds the nodes of a search that ends without a
// placement against those of its tree: the run that goes through the
// tree may have up to twice its nodes, and the runs before it as many as
// that one.
const restartFactor = 3

// checkSearch estimates how long the search for a placement of s, which
// found none in its first nodes at rate nodes per second, may take to go
// through its whole tree, and refuses it over longRun without --yes.
func (o *solveOptions) checkSearch(ctx context.Context, s variant.Spec, nodes uint64, rate float64) error {
	e, err := variant.EstimateTree(ctx, s, 2000, 1)
	if err != nil {
		return err
	}
	secs := restartFactor * e.Nodes / rate
	a := i18n.Args{"Variant": s, "First": strconv.FormatUint(nodes, 10), "Time": estSecs(secs), "Nodes": fmt.Sprintf("%.3g", e.Nodes),
		"Err": fmt.Sprintf("%.1g", e.NodesErr), "Times": restartFactor, "Rate": fmt.Sprintf("%.3g", rate), "Total": fmt.Sprintf("%.2g", e.Total)}
	if secs > longRun.Seconds() && !o.yes {
		return usageT("cli.variant.search.long", a)
	}
	o.noteT("cli.variant.search", a)
	return nil
}

// checkedTerm names the term of sequence id a number is and whether it was
// checked: "matches OEIS A051906 a(13)", or "OEIS A051906 a(29), no
// published term to check".
func checkedTerm(id, term string, known bool) string {
	if known {
		return fmt.Sprintf("matches OEIS %s %s", id, term)
	}
	return fmt.Sprintf("OEIS %s %s, no published term to check", id, term)
}
