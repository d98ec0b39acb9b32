package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/solve"
	"github.com/nqueens/nqueens/variant"
	"github.com/spf13/cobra"
)

// listFormats are the formats in which list can stream many boards.
var listFormats = []board.Format{board.List, board.Grid, board.Dots, board.Unicode, board.JSON}

// listOptions are the flags and arguments of list.
type listOptions struct {
	streams
	n               int
	format          *string
	f               board.Format
	unique, jsonOut bool
	limit           int
	workers         int
	output          string
	variant         *variantFlags
	spec            *variant.Spec // of the variant flags, if given
}

func newListCmd(p *i18n.Printer) *cobra.Command {
	o := &listOptions{}
	cmd := &cobra.Command{
		Use:   "list N",
		Short: p.T("help.list.short", nil),
		Long:  p.T("help.list.long", nil),
		Example: `  nqueens list 6
  nqueens list 8 --unique --format dots
  nqueens list 12 --limit 5 --json
  nqueens list 10 --super --unique
  nqueens list 6 --cols 9 --queens 4 --format dots --limit 2`,
		Args: exactArgs(1, "N"),
	}
	o.format = formatFlag(cmd, p, board.List, listFormats)
	fl := cmd.Flags()
	fl.BoolVarP(&o.unique, "unique", "u", false, p.T("help.list.flag.unique", nil))
	fl.IntVarP(&o.limit, "limit", "k", 0, p.T("help.list.flag.limit", nil))
	fl.BoolVar(&o.jsonOut, "json", false, p.T("help.list.flag.json", nil))
	fl.StringVarP(&o.output, "output", "o", "", p.T("help.flag.output", nil))
	fl.IntVarP(&o.workers, "workers", "w", 0, p.T("help.list.flag.workers", nil))
	o.variant = addVariantFlags(cmd, p)
	addQuietFlag(cmd, p)
	return command(cmd, o)
}

func (o *listOptions) validate(args []string) error {
	f, err := outputFormat(*o.format, listFormats, o.jsonOut)
	if err != nil {
		return err
	}
	o.f = f
	if o.limit < 0 {
		return usageT("cli.limit", i18n.Args{"Value": strconv.Itoa(o.limit)})
	}
	if err := checkWorkers(o.workers); err != nil {
		return err
	}
	if o.n, err = parseN(args[0], "list", min(solve.MaxEnumerateN, board.MaxWriteN(f))); err != nil {
		return err
	}
	if o.variant.active(o.given) {
		s, err := o.variant.spec(o.n, o.given)
		if err != nil {
			return err
		}
		o.spec = &s
	}
	return nil
}

func (o *listOptions) run(ctx context.Context) error {
	if o.spec != nil {
		return o.runVariant(ctx)
	}
	out, commit, err := o.openOutput(o.output)
	if err != nil {
		return err
	}
	view := newProgressView(o.stderr, o.printer(), fmt.Sprintf("list %d", o.n), "solutions", o.quiet)
	opts := solve.ListOptions{Unique: o.unique, Workers: o.workers, Limit: uint64(o.limit),
		Progress: func(p solve.ListProgress) { view.update(progressState{Done: int(p.Solutions), Units: o.expected()}) }}
	res, err := solve.WriteList(ctx, out, o.n, o.f, opts)
	view.finish(err == nil)
	err = commit(err)
	switch {
	case ctx.Err() != nil:
		if isPending(o.output) {
			return interruptedN("cli.list.int.notwritten", res.Solutions, i18n.Args{"N": o.n, "Path": o.output})
		}
		path := "stdout"
		if o.output != "" && o.output != "-" {
			path = o.output
		}
		// One line a solution has its own message: "1 solution (1 lines)"
		// is what a single shared sentence would say.
		if !o.f.IsBoard() {
			return interruptedN("cli.list.int.wrote.lines", res.Solutions, i18n.Args{"N": o.n, "Path": path})
		}
		lines := res.Solutions * uint64(o.n+1)
		return interruptedN("cli.list.int.wrote", res.Solutions, i18n.Args{"N": o.n, "Lines": lines, "Path": path})
	}
	return err
}

// runVariant lists the solutions of a variant board (--torus, --queens, …)
// one at a time, or with --unique one of each class.
func (o *listOptions) runVariant(ctx context.Context) error {
	view := newProgressView(o.stderr, o.printer(), fmt.Sprintf("list %d", o.n), "solutions", o.quiet)
	s := *o.spec
	classes := variant.Unique(ctx, s)
	if !o.unique {
		classes = func(yield func(variant.Class, error) bool) {
			for p, err := range variant.Solutions(ctx, s) {
				if !yield(variant.Class{Placement: p}, err) {
					return
				}
			}
		}
	}
	err := o.writeOutput(ctx, o.output, func(w *bufio.Writer) error {
		k := 0
		defer func() { view.update(progressState{Done: k, Units: o.limit}) }()
		for c, err := range classes {
			if err != nil {
				if ctx.Err() != nil {
					return interruptedN("cli.list.int", k, i18n.Args{"N": o.n})
				}
				return err
			}
			if err := ctx.Err(); err != nil {
				return interruptedN("cli.list.int", k, i18n.Args{"N": o.n})
			}
			k++
			var b board.Columns = c.Placement
			if s.Cols != s.Rows {
				b = board.Rect{Placement: c.Placement, Width: s.Cols}
			}
			if err := writeListed(w, b, o.f, k, c.Size); err != nil {
				return err
			}
			if k == o.limit {
				break
			}
			if k%64 == 0 {
				view.update(progressState{Done: k, Units: o.limit})
				// Let a reader of a pipe see solutions as they come.
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

// writeListed writes solution k of a stream of solutions one at a time;
// orbit > 0 is the size of its symmetry class. The text is the one
// solve.WriteList makes, from the same appenders of package board.
func writeListed(w io.Writer, p board.Columns, f board.Format, k, orbit int) error {
	var b []byte
	switch {
	case f == board.JSON:
		b = board.AppendJSON(nil, p, orbit)
	case f.IsBoard():
		b = board.AppendBoard(board.AppendHeader(nil, uint64(k), orbit), p, f)
	default:
		b = board.AppendList(nil, p)
	}
	_, err := w.Write(b)
	return err
}
