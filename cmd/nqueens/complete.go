package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/complete"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// completeOptions are the flags of complete.
type completeOptions struct {
	streams
	output, inFormat, format string
	count, all, jsonOut      bool
	limit                    int
	seed                     uint64
	yes                      bool
	progress                 func(nodes uint64) // of the exact search
	nodes                    uint64             // the last progress's
	inf                      board.Format
	path                     string
}

func newCompleteCmd(p *i18n.Printer) *cobra.Command {
	o := &completeOptions{}
	cmd := &cobra.Command{
		Use:   "complete [FILE|-]",
		Short: p.T("help.complete.short", nil),
		Long:  p.T("help.complete.long", nil),
		Example: `  printf '.Q......\n........\n........\n........\n........\n........\n........\n........\n' | nqueens complete
  echo "2 0 0 0 0 0" | nqueens complete --format list
  nqueens complete board.txt --count
  nqueens complete board.json --all --limit 10 --format list`,
		Args: maxArgs(1),
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.format, "format", "f", "", p.T("help.complete.flag.format", nil))
	fl.StringVar(&o.inFormat, "input-format", "auto", p.T("help.flag.input-format", nil))
	fl.StringVarP(&o.output, "output", "o", "", p.T("help.flag.output", nil))
	fl.BoolVar(&o.count, "count", false, p.T("help.complete.flag.count", nil))
	fl.BoolVar(&o.all, "all", false, p.T("help.complete.flag.all", nil))
	fl.IntVar(&o.limit, "limit", 0, p.T("help.complete.flag.limit", nil))
	fl.BoolVar(&o.jsonOut, "json", false, p.T("help.complete.flag.json", nil))
	fl.Uint64Var(&o.seed, "seed", 0, p.T("help.complete.flag.seed", nil))
	fl.BoolVar(&o.yes, "yes", false, p.T("help.complete.flag.yes", nil))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formatNames(board.Formats), cobra.ShellCompDirectiveNoFileComp))
	cmd.MarkFlagsMutuallyExclusive("count", "all")
	addQuietFlag(cmd, p)
	return command(cmd, o)
}

// validate checks the flags that do not depend on the board.
func (o *completeOptions) validate(args []string) error {
	var err error
	if o.inf, err = inputFormat(o.inFormat); err != nil {
		return err
	}
	o.path = argOr(args, 0, "-")
	switch {
	case o.limit < 0:
		return usageT("cli.limit", i18n.Args{"Value": strconv.Itoa(o.limit)})
	case o.limit > 0 && !o.all:
		return usageT("cli.complete.limit", nil)
	}
	return nil
}

// outputFormat is the format to answer in: --json, --format, or the
// input's own (list when the input's cannot draw a board that large).
func (o *completeOptions) outputFormat(input board.Format, n int) (board.Format, error) {
	f := input
	switch {
	case o.jsonOut:
		f = board.JSON
	case o.format != "":
		var err error
		if f, err = checkFormat(o.format, board.Formats); err != nil {
			return "", err
		}
	case n > board.MaxWriteN(f):
		f = board.List
	}
	if o.all && f.IsPicture() {
		return "", usageT("cli.complete.picture", i18n.Args{"Format": string(f)})
	}
	return f, o.refuseBinaryToTerminal(o.output, f)
}

func (o *completeOptions) run(ctx context.Context) error {
	in, name, err := o.openBoards(ctx, o.path)
	if err != nil {
		return err
	}
	defer in.Close()
	p, detected, err := readOnePartial(in, name, o.inf)
	if err != nil {
		return err
	}
	n := len(p.Queens)
	f, err := o.outputFormat(detected, n)
	if err != nil {
		return err
	}
	if err := complete.Validate(p); err != nil {
		return i18n.Wrap(err, "cli.where", i18n.Args{"Name": name})
	}
	if n > complete.ExactLimit && !o.count && !o.all {
		if err := complete.CheckLocalN(n); err != nil {
			return i18n.Wrap(err, "cli.where", i18n.Args{"Name": name})
		}
		o.noteT("cli.complete.local", i18n.Args{"N": n, "Max": complete.ExactLimit})
	}
	var view *progressView
	if o.count || (o.all && o.limit == 0) {
		est, err := o.checkSearch(ctx, p)
		if err != nil {
			return err
		}
		view = newProgressView(o.stderr, o.printer(), fmt.Sprintf("complete %d×%d", n, n), "nodes", o.quiet)
		defer view.finish(false)
		o.progress = func(nodes uint64) {
			o.nodes = nodes
			units := 0 // unknown: an estimate past an int is no bar anyway
			if est < math.MaxInt/2 {
				units = int(max(est, float64(nodes)))
			}
			view.update(progressState{Done: int(min(nodes, math.MaxInt)), Units: units})
		}
	}
	err = o.writeOutput(ctx, o.output, func(w *bufio.Writer) error {
		switch {
		case o.count:
			return o.writeCount(ctx, w, p)
		case o.all:
			return o.writeAll(ctx, w, p, f)
		}
		return o.writeOne(ctx, w, p, f)
	})
	if view != nil {
		view.finish(err == nil)
	}
	return err
}

// checkSearch forecasts the exact search of --count and --all as count
// does, and refuses one estimated over longRun without --yes. It returns
// the estimated nodes.
func (o *completeOptions) checkSearch(ctx context.Context, p board.Partial) (float64, error) {
	n := len(p.Queens)
	f, err := complete.Plan(ctx, p, 100*time.Millisecond)
	if ie := stoppedEarly(ctx, err, i18n.NewError("cli.what.complete", nil), i18n.NewError("cli.kept.nothingwritten", nil)); ie != nil {
		return 0, ie
	}
	if err != nil || f.Seconds < 1 {
		return f.Nodes, err
	}
	// The message: counting or listing, a note or a refusal, and for the
	// count of an empty board a hint.
	key := "cli.complete.count"
	if o.all {
		key = "cli.complete.list"
	}
	long := f.Seconds > longRun.Seconds() && !o.yes
	if long {
		key += ".long"
	}
	empty := len(p.Blocked) == 0 && !slices.ContainsFunc(p.Queens, func(c int32) bool { return c != board.Empty })
	if empty && o.count {
		key += ".empty"
	}
	a := i18n.Args{"N": n, "Time": estSecs(f.Seconds), "Nodes": fmt.Sprintf("%.3g", f.Nodes), "Err": fmt.Sprintf("%.1g", f.NodesErr),
		"Rate": fmt.Sprintf("%.3g", f.NodesPerSec), "Completions": fmt.Sprintf("%.3g", f.Completions)}
	if long {
		return 0, usageT(key, a)
	}
	o.noteT(key, a)
	return f.Nodes, nil
}

// writeCount prints the number of completions of p.
func (o *completeOptions) writeCount(ctx context.Context, w *bufio.Writer, p board.Partial) error {
	k, err := complete.Count(ctx, p, complete.Options{Seed: o.seed, Progress: o.progress})
	if isInterrupt(ctx, err) {
		return interruptedT("cli.complete.int.count", i18n.Args{"Nodes": strconv.FormatUint(o.nodes, 10)})
	} else if err != nil {
		return err
	}
	if o.jsonOut {
		return writeJSONLine(w, complete.Counted(len(p.Queens), k))
	}
	_, err = fmt.Fprintln(w, k)
	return err
}

// writeAll prints every completion of p, up to --limit.
func (o *completeOptions) writeAll(ctx context.Context, w *bufio.Writer, p board.Partial, f board.Format) error {
	k := 0
	for sol, err := range complete.All(ctx, p, complete.Options{Seed: o.seed, Progress: o.progress}) {
		if isInterrupt(ctx, err) {
			return interruptedN("cli.complete.int.all", k, nil)
		} else if err != nil {
			return err
		}
		if err := checkCompletion(sol, p); err != nil {
			return err
		}
		if err := writeCompletion(w, sol, f, k+1); isInterrupt(ctx, err) {
			return interruptedN("cli.complete.int.all", k, nil)
		} else if err != nil {
			return err
		}
		k++
		if k == o.limit {
			break
		}
	}
	if k == 0 {
		return noCompletion(w, len(p.Queens), f == board.JSON)
	}
	return nil
}

// writeOne prints one completion of p, or that there is none.
func (o *completeOptions) writeOne(ctx context.Context, w *bufio.Writer, p board.Partial, f board.Format) error {
	sol, err := complete.Complete(ctx, p, complete.Options{Seed: o.seed})
	if errors.Is(err, complete.ErrNoCompletion) {
		return noCompletion(w, len(p.Queens), f == board.JSON)
	}
	if err != nil {
		return err
	}
	if err := checkCompletion(sol, p); err != nil {
		return err
	}
	return writeCompletion(w, sol, f, 0)
}

// readOnePartial reads exactly one board and the format it was read in. It
// stops at a second board: a file of millions of boards is not read whole.
func readOnePartial(in io.Reader, name string, f board.Format) (board.Partial, board.Format, error) {
	var first *board.Record
	for rec, err := range readBoards(in, name, f, 0) {
		if err != nil {
			return board.Partial{}, "", err
		}
		if rec.Err != nil {
			return board.Partial{}, "", i18n.Wrap(rec.Err, "cli.where.line", i18n.Args{"Name": name, "Line": rec.Line})
		}
		if first != nil {
			return board.Partial{}, "", errT("cli.complete.second", i18n.Args{"Name": name, "Line": rec.Line})
		}
		first = &rec
	}
	if first == nil {
		return board.Partial{}, "", errT("cli.complete.none", i18n.Args{"Name": name})
	}
	return first.Board, first.Format, nil
}

// checkCompletion is the last guard before printing: a full solution that
// keeps the placed queens and avoids the blocked squares.
func checkCompletion(sol board.Placement, p board.Partial) error {
	if err := board.VerifyCompletion(sol, p); err != nil {
		return i18n.Wrap(err, "cli.complete.invalid", nil)
	}
	return nil
}

// writeCompletion prints completion sol in format f, as complete's JSON
// answer (complete.Answer, the shape of /api/complete) in json; k > 0 is
// its number in --all.
func writeCompletion(w io.Writer, sol board.Placement, f board.Format, k int) error {
	switch {
	case f == board.JSON:
		return writeJSONLine(w, complete.Found(sol))
	case k > 0:
		return writeListed(w, sol, f, k, 0)
	}
	return board.Write(w, sol, f)
}

func noCompletion(w io.Writer, n int, jsonOut bool) error {
	if jsonOut {
		return writeJSONLine(w, complete.None(n))
	}
	_, err := fmt.Fprintln(w, "no completion exists")
	return err
}
