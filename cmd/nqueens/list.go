package main

import (
	"bufio"
	"context"
	"fmt"
	"math"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/solve"
	"github.com/nqueens/nqueens/variant"
	"github.com/spf13/cobra"
)

// listFormats are the formats in which list can stream many boards.
var listFormats = []board.Format{board.List, board.Grid, board.Dots, board.Unicode, board.JSON}

const listLong = `list prints the solutions of the N-Queens problem in lexicographic order
of their 1-based column lists, as they are found (N ≤ 64; beyond N ≈ 30 even
the first ones take long).

--unique prints one solution per class under the 8 symmetries of the square
(the lexicographically smallest of its orbit, OEIS A002562), with the size of
its orbit. Board formats (grid, dots, unicode) put a line "# solution K"
before each board; list and json print one solution a line, and nothing
else goes to stdout.`

// listOptions are the flags and arguments of list.
type listOptions struct {
	streams
	n               int
	format          *string
	f               board.Format
	unique, jsonOut bool
	limit           int
	output          string
	variant         *variantFlags
	spec            *variant.Spec // of the variant flags, if given
}

func newListCmd() *cobra.Command {
	o := &listOptions{}
	cmd := &cobra.Command{
		Use:   "list N",
		Short: "Stream every solution, or one per symmetry class",
		Long:  listLong,
		Example: `  nqueens list 6
  nqueens list 8 --unique --format dots
  nqueens list 12 --limit 5 --json`,
		Args: exactArgs(1, "N"),
	}
	o.format = formatFlag(cmd, board.List, listFormats)
	fl := cmd.Flags()
	fl.BoolVarP(&o.unique, "unique", "u", false, "one solution per symmetry class")
	fl.IntVarP(&o.limit, "limit", "k", 0, "stop after this many solutions (0: all)")
	fl.BoolVar(&o.jsonOut, "json", false, "print JSON Lines (the same as --format json)")
	fl.StringVarP(&o.output, "output", "o", "", "write to this file instead of stdout")
	o.variant = addVariantFlags(cmd, "unique")
	return command(cmd, o)
}

func (o *listOptions) validate(args []string) error {
	f, err := checkFormat(*o.format, listFormats)
	if err != nil {
		return err
	}
	if o.jsonOut {
		f = board.JSON
	}
	o.f = f
	if o.limit < 0 {
		return usagef("--limit must be 0 or more, got %d", o.limit)
	}
	if o.n, err = parseN(args[0], "list", min(solve.MaxEnumerateN, board.MaxWriteN(f))); err != nil {
		return err
	}
	if o.variant.active(o.given) {
		s, err := o.variant.spec(o.n, o.given)
		if err != nil {
			return err
		}
		if s.Cols != s.Rows && f != board.List {
			return usagef("a board of %d rows and %d columns lists in the list format only (a column per row, 0 for an empty row)", s.Rows, s.Cols)
		}
		o.spec = &s
	}
	return nil
}

func (o *listOptions) run(ctx context.Context) error {
	// Every solution is a class of one for the loop below, whose orbit
	// size 0 says "not asked for".
	sols := solve.Unique(o.n)
	switch {
	case o.spec != nil:
		sols = func(yield func(solve.Class, error) bool) {
			for p, err := range variant.Solutions(ctx, *o.spec) {
				if !yield(solve.Class{Canonical: p}, err) {
					return
				}
			}
		}
	case !o.unique:
		sols = func(yield func(solve.Class, error) bool) {
			for p, err := range solve.All(o.n) {
				if !yield(solve.Class{Canonical: p}, err) {
					return
				}
			}
		}
	}
	view := newProgressView(o.stderr, fmt.Sprintf("list %d", o.n), "solutions", false)
	err := o.writeOutput(ctx, o.output, func(w *bufio.Writer) error {
		k := 0
		defer func() { view.update(progressState{Done: k, Units: o.expected()}) }()
		for c, err := range sols {
			if err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return interruptedf("list %d stopped after %d solutions", o.n, k)
			}
			k++
			if o.spec != nil && o.spec.Cols != o.spec.Rows {
				// A rectangle: the list format, with columns past N.
				if _, err := fmt.Fprintln(w, c.Canonical.String()); err != nil {
					return err
				}
			} else if err := writeListed(w, c.Canonical, o.f, k, c.Size); err != nil {
				return err
			}
			if k == o.limit {
				break
			}
			if k%64 == 0 {
				view.update(progressState{Done: k, Units: o.expected()})
			}
			// Let a reader of a pipe see solutions as they come.
			if w.Buffered() > 0 && k%64 == 0 {
				if err := w.Flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	view.finish(err == nil)
	return err
}

// expected is how many solutions list prints when it knows (the published
// counts, --limit), else 0.
func (o *listOptions) expected() int {
	total, unique, ok := count.Known(o.n)
	k := total
	if o.unique {
		k = unique
	}
	switch {
	case !ok || k.Hi != 0 || k.Lo > math.MaxInt:
		return o.limit // beyond the table, or too many to show
	case o.limit > 0:
		return min(int(k.Lo), o.limit)
	}
	return int(k.Lo)
}

// writeListed writes solution k of a stream; orbit > 0 is the size of its
// symmetry class (with --unique).
func writeListed(w *bufio.Writer, p board.Placement, f board.Format, k, orbit int) error {
	switch {
	case f == board.JSON && orbit > 0:
		return writeJSONLine(w, struct {
			N      int     `json:"n"`
			Queens []int32 `json:"queens"`
			Orbit  int     `json:"orbit"`
		}{len(p), p.OneBased(), orbit})
	case f.IsBoard():
		if orbit > 0 {
			fmt.Fprintf(w, "# solution %d (class of %d)\n", k, orbit)
		} else {
			fmt.Fprintf(w, "# solution %d\n", k)
		}
	}
	return board.Write(w, p, f)
}
