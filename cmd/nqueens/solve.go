package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/solve"
	"github.com/nqueens/nqueens/variant"
	"github.com/spf13/cobra"
)

// verifyConstructionUpTo bounds the check of constructed boards: the
// pattern is proved and tested, and above this size the check's 3n bits
// would break the constant memory that streaming promises.
const verifyConstructionUpTo = 10_000_000

// solveOptions are the flags and arguments of solve.
type solveOptions struct {
	streams
	n                         int
	format                    *string
	f                         board.Format
	output                    string
	random, noVerify, jsonOut bool
	yes                       bool
	seed                      uint64
	variant                   *variantFlags
	spec                      *variant.Spec // of the variant flags, if given
}

func newSolveCmd(p *i18n.Printer) *cobra.Command {
	o := &solveOptions{}
	cmd := &cobra.Command{
		Use:   "solve N",
		Short: p.T("help.solve.short", nil),
		Long:  p.T("help.solve.long", nil),
		Example: `  nqueens solve 8 --format unicode
  nqueens solve 1000000000 --format list | tail -c 40
  nqueens solve 200000000 -o queens.txt --yes   # 1.9 GB
  nqueens solve 10000000 --random --seed 7 -o queens.txt
  nqueens solve 100000 --random --format png -o big.png
  nqueens solve 11 --torus --format dots
  nqueens solve 20 --super --json`,
		Args: exactArgs(1, "N"),
	}
	o.format = formatFlag(cmd, p, board.List, board.Formats)
	fl := cmd.Flags()
	fl.StringVarP(&o.output, "output", "o", "", p.T("help.flag.output", nil))
	fl.BoolVar(&o.random, "random", false, p.T("help.solve.flag.random", nil))
	fl.Uint64Var(&o.seed, "seed", 1, p.T("help.solve.flag.seed", nil))
	fl.BoolVar(&o.noVerify, "no-verify", false, p.T("help.solve.flag.no-verify", nil))
	fl.BoolVar(&o.jsonOut, "json", false, p.T("help.solve.flag.json", nil))
	fl.BoolVar(&o.yes, "yes", false, p.T("help.solve.flag.yes", nil))
	o.variant = addVariantFlags(cmd, p, "random", "seed", "no-verify")
	addQuietFlag(cmd, p)
	return command(cmd, o)
}

func (o *solveOptions) validate(args []string) error {
	var err error
	if o.f, err = outputFormat(*o.format, board.Formats, o.jsonOut); err != nil {
		return err
	}
	if err := o.refuseBinaryToTerminal(o.output, o.f); err != nil {
		return err
	}
	if o.given("seed") && !o.random {
		return usageT("cli.with", i18n.Args{"Flag": "--seed", "With": "--random"})
	}
	if o.noVerify && !o.random {
		return usageT("cli.with", i18n.Args{"Flag": "--no-verify", "With": "--random"})
	}
	limit := board.MaxN
	if !o.random && !o.variant.active(o.given) {
		limit = maxConstructN
	}
	if o.n, err = parseN(args[0], "solve", limit); err != nil {
		if n, perr := strconv.Atoi(args[0]); perr == nil && n > limit && n <= board.MaxN {
			return usageT("cli.solve.randomupto", i18n.Args{"Err": err, "Max": strconv.Itoa(board.MaxN)})
		}
		return err
	}
	if o.variant.active(o.given) {
		if o.n > variant.MaxSide {
			return usageT("cli.solve.variantsize", i18n.Args{"N": strconv.Itoa(o.n), "Max": variant.MaxSide})
		}
		s, err := o.variant.spec(o.n, o.given)
		if err != nil {
			return err
		}
		if !plain(s) {
			o.spec = &s
		}
	}
	if limit := board.MaxWriteN(o.f); o.n > limit {
		return usageT("cli.solve.formatsize", i18n.Args{"Format": string(o.f), "N": strconv.Itoa(o.n), "Max": strconv.Itoa(limit)})
	}
	if size := outputSize(o.n, o.f); size > bigOutput && !o.yes && o.writesFile(o.output) {
		return usageT("cli.solve.bigfile", i18n.Args{"N": strconv.Itoa(o.n), "Size": formatBytes(size), "Format": string(o.f)})
	}
	return nil
}

// maxConstructN is the largest N solve builds by the construction, as its
// help says; --random goes on to board.MaxN.
const maxConstructN = 1_000_000_000

// bigOutput is the size of output past which solve asks for --yes before
// it writes a file (solve 2000000000 > FILE began a 20.9 GB file).
const bigOutput = 1e9

// writesFile reports whether output (-o PATH, or stdout for "" and "-")
// goes to a file on disk, new or not, rather than to a pipe, a terminal or
// a device.
func (s *streams) writesFile(output string) bool {
	if output != "" && output != "-" {
		fi, err := os.Stat(output)
		return err != nil || fi.Mode().IsRegular()
	}
	f, ok := s.stdout.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

func (o *solveOptions) run(ctx context.Context) error {
	if o.spec != nil {
		return o.runVariant(ctx)
	}
	var sol board.Columns
	if o.random {
		p, err := o.solveRandom(ctx)
		if err != nil {
			return err
		}
		if !o.noVerify {
			if err := o.verifyRandom(ctx, p); err != nil {
				return err
			}
		}
		sol = p
	} else {
		pat, err := solve.Construct(o.n)
		if err != nil {
			return noSolution(err)
		}
		if o.n <= verifyConstructionUpTo {
			if err := board.Verify(pat); err != nil {
				return i18n.Wrap(err, "cli.solve.construct.invalid", nil)
			}
		}
		sol = pat
	}
	// The search's bar said --random; this phase's label is short, for
	// the room of its bar.
	label := o.printer().T("cli.solve.label.writing", i18n.Args{"N": strconv.Itoa(o.n)})
	return o.writeOutputShown(ctx, o.output, label, outputSize(o.n, o.f), func(w *bufio.Writer) error { return board.Write(w, sol, o.f) })
}

// noSolution turns "no solution for n = 2 or 3" into a plain failure.
func noSolution(err error) error {
	var ns *solve.NoSolutionError
	if errors.As(err, &ns) {
		return &failure{code: 1, msg: ns.Error(), said: ns}
	}
	return err
}

const (
	// reportAfter is how long a random solve must take for its time to be
	// reported on stderr.
	reportAfter = 2 * time.Second
	// outputBuffer is the size of the buffer between a command and its
	// output.
	outputBuffer = 1 << 16
	// bigRandom is the memory past which solve --random asks for --yes.
	bigRandom = 1 << 30
	// calibrationN is the board solved to measure the search's speed.
	calibrationN = 1 << 22
)

// randomMemory is what solve --random holds: the search's board, and the
// check's bits unless it is skipped.
func (o *solveOptions) randomMemory() int64 {
	m := solve.RandomMemory(o.n)
	if !o.noVerify {
		m += board.VerifyMemory(o.n)
	}
	return m
}

// randomTime is a lower bound on the time of solve --random, from a search
// (and check) of calibrationN queens: larger boards miss the cache more and
// take up to 1.5 times as long a queen.
func (o *solveOptions) randomTime(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	p, err := solve.Random(ctx, calibrationN, solve.RandomOptions{Seed: o.seed})
	if err == nil && !o.noVerify {
		err = board.VerifyContext(ctx, p)
	}
	if err != nil {
		return 0, err
	}
	return time.Duration(float64(time.Since(start)) * float64(o.n) / calibrationN), nil
}

// checkRandom estimates a large random solve and refuses it without --yes.
func (o *solveOptions) checkRandom(ctx context.Context) error {
	mem := o.randomMemory()
	if mem <= bigRandom {
		return nil
	}
	took, err := o.randomTime(ctx)
	if err != nil {
		return err
	}
	a := i18n.Args{"N": strconv.Itoa(o.n), "Mem": formatBytes(mem), "Time": dur(took)}
	if !o.yes {
		if o.noVerify {
			return usageT("cli.solve.random.big", a)
		}
		a["Saves"] = formatBytes(board.VerifyMemory(o.n))
		return usageT("cli.solve.random.big.verify", a)
	}
	o.noteT("cli.solve.random.about", a)
	return nil
}

// formatBytes prints a size for people: 512 MB, 11.0 GB.
func formatBytes(b int64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(b)/1e6)
	}
	return fmt.Sprintf("%d kB", (b+999)/1000)
}

// solveRandom runs the local search, with its progress on stderr.
func (o *solveOptions) solveRandom(ctx context.Context) (board.Placement, error) {
	if err := o.checkRandom(ctx); err != nil {
		return nil, err
	}
	n := o.n
	view := newProgressView(o.stderr, o.printer(), fmt.Sprintf("solve %d --random", n), "queens", o.quiet)
	opts := solve.RandomOptions{Seed: o.seed, Progress: func(done, total int) {
		view.update(progressState{Done: done, Units: total})
	}}
	view.update(progressState{Units: n, Note: o.printer().T("cli.solve.shuffling", nil)}) // the set-up: seconds on large boards
	start := time.Now()
	sol, err := solve.Random(ctx, n, opts)
	view.finish(err == nil)
	if err != nil && ctx.Err() != nil {
		if p := view.state(); p.Note == "" {
			return nil, interruptedT("cli.solve.random.int", i18n.Args{"N": strconv.Itoa(n), "Done": p.Done})
		}
		return nil, interruptedT("cli.solve.random.int.setup", i18n.Args{"N": strconv.Itoa(n)})
	}
	if err != nil {
		return nil, noSolution(err)
	}
	if time.Since(start) > reportAfter {
		o.noteT("cli.solve.random.found", i18n.Args{"N": strconv.Itoa(n), "Time": dur(time.Since(start).Round(time.Millisecond))})
	}
	return sol, nil
}

// verifyRandom checks the board the local search found, showing its
// progress (seconds for 10^8 queens).
func (o *solveOptions) verifyRandom(ctx context.Context, p board.Placement) error {
	view := newProgressView(o.stderr, o.printer(), o.printer().T("cli.solve.label.checking", i18n.Args{"N": strconv.Itoa(o.n)}), "queens", o.quiet)
	err := board.VerifyProgress(ctx, p, func(rows int) { view.update(progressState{Done: rows, Units: o.n}) })
	view.finish(err == nil)
	switch {
	case err != nil && ctx.Err() != nil:
		return interruptedT("cli.solve.random.int.check", i18n.Args{"N": strconv.Itoa(o.n)})
	case err != nil:
		return i18n.Wrap(err, "cli.solve.random.invalid", nil)
	}
	return nil
}

// writeOutput buffers the output of write to stdout or to the -o file
// (openOutput) and reports the first error of writing, flushing or
// closing. Writing stops when ctx ends, so that a long output (a board of
// 10^9 rows) ends within a buffer's write of Ctrl-C; the interruption says
// what was written.
func (s *streams) writeOutput(ctx context.Context, path string, write func(w *bufio.Writer) error) error {
	return s.writeOutputShown(ctx, path, "", 0, write)
}

// writeOutputShown is writeOutput with the bytes written shown as a job's
// progress under label (of total bytes, 0 if unknown), for outputs that
// take long by themselves: a board of 10^9 rows is 10 GB.
func (s *streams) writeOutputShown(ctx context.Context, path, label string, total int64, write func(w *bufio.Writer) error) error {
	out, commit, err := s.openOutput(path)
	if err != nil {
		return err
	}
	written := &countingWriter{w: out}
	if label != "" {
		view := newProgressView(s.stderr, s.printer(), label, "bytes", s.quiet)
		view.update(progressState{Units: int(total)})
		written.shown = func(n int64) { view.update(progressState{Done: int(n), Units: int(max(total, n))}) }
		defer func() { view.finish(err == nil) }()
	}
	bw := bufio.NewWriterSize(ctxWriter{ctx, written}, outputBuffer)
	err = write(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	err = commit(err)
	if err == nil || ctx.Err() == nil {
		return err
	}
	where := "stdout"
	if path != "" && path != "-" {
		where = path
	}
	var note i18n.Localizer = i18n.NewError("cli.output.int.partial", i18n.Args{"Size": formatBytes(written.n), "Where": where})
	switch {
	case isPending(path):
		note = i18n.NewError("cli.output.int.notwritten", i18n.Args{"Path": path})
	case written.n == 0:
		note = i18n.NewError("cli.output.int.nothing", i18n.Args{"Where": where})
	}
	var ie *interrupted
	if errors.As(err, &ie) && ie.kept != "" {
		var kept any = ie.kept
		if ie.said != nil {
			kept = ie.said
		}
		return interruptedT("cli.stopped.kept", i18n.Args{"How": kept, "Kept": note})
	}
	return &interrupted{kept: note.Localize(i18n.For(i18n.English)), said: note}
}

// countingWriter counts the bytes written through it, and shows the
// count if asked to.
type countingWriter struct {
	w     io.Writer
	n     int64
	shown func(n int64) // nil: not shown
}

func (c *countingWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += int64(k)
	if c.shown != nil {
		c.shown(c.n)
	}
	return k, err
}

// outputSize is the size in bytes of an n-row solution in format f (list
// or json: each column 1 … n once, so the digits are known), or 0 when it
// is not known in advance.
func outputSize(n int, f board.Format) int64 {
	var digits int64 // of 1 … n
	for d, lo := int64(1), 1; lo <= n; d, lo = d+1, lo*10 {
		digits += d * int64(min(n, lo*10-1)-lo+1)
	}
	switch f {
	case board.List:
		return digits + int64(n) // a space after each column, the last a newline
	case board.JSON:
		return int64(len(fmt.Sprintf(`{"n":%d,"queens":[]}`, n))) + digits + int64(n) // commas and the newline
	}
	return 0
}

// ctxWriter fails every write once ctx has ended.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
