package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/solve"
	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// verifyConstructionUpTo bounds the check of constructed boards: the
// pattern is proved and tested, and above this size the check's 3n bits
// would break the constant memory that streaming promises.
const verifyConstructionUpTo = 10_000_000

const solveLong = `solve prints one solution of the N-Queens problem.

By default it uses the closed-form construction (cases on N mod 6), which
computes each row's column on the fly: any N from 4 up to 10^9 (and N = 1)
streams in list or json format in constant memory. N = 2 and 3 have no
solution.

--random finds a random solution by local search (Sosic and Gu's QS4): the
same --seed gives the same board, different seeds different ones. It keeps
the board in memory, 4 bytes a queen (10^8 queens take about 500 MB).

Every board is verified before it is printed (random ones always unless
--no-verify; constructed ones up to N = 10^7), so an invalid board is never
printed. Board formats (grid, dots, unicode) are limited to N ≤ 1000;
svg and png draw large boards downsampled, as queen density per pixel.`

// solveOptions are the flags and arguments of solve.
type solveOptions struct {
	streams
	n                         int
	format                    *string
	f                         board.Format
	output                    string
	random, noVerify, jsonOut bool
	seed                      uint64
}

func newSolveCmd() *cobra.Command {
	o := &solveOptions{}
	cmd := &cobra.Command{
		Use:   "solve N",
		Short: "Print one solution: the closed-form construction, or a random one",
		Long:  solveLong,
		Example: `  nqueens solve 8 --format unicode
  nqueens solve 1000000000 --format list | tail -c 40
  nqueens solve 10000000 --random --seed 7 -o queens.txt
  nqueens solve 100000 --random --format png -o big.png`,
		Args: exactArgs(1, "N"),
	}
	o.format = formatFlag(cmd, board.List, board.Formats)
	fl := cmd.Flags()
	fl.StringVarP(&o.output, "output", "o", "", "write to this file instead of stdout")
	fl.BoolVar(&o.random, "random", false, "find a random solution by local search")
	fl.Uint64Var(&o.seed, "seed", 1, "seed of --random: the same seed gives the same solution")
	fl.BoolVar(&o.noVerify, "no-verify", false, "skip the O(N) check of a --random solution")
	fl.BoolVar(&o.jsonOut, "json", false, "print JSON (the same as --format json)")
	return command(cmd, o)
}

func (o *solveOptions) validate(args []string) error {
	var err error
	if o.f, err = checkFormat(*o.format, board.Formats); err != nil {
		return err
	}
	if o.jsonOut {
		o.f = board.JSON
	}
	if err := o.refuseBinaryToTerminal(o.output, o.f); err != nil {
		return err
	}
	if o.given("seed") && !o.random {
		return usagef("--seed goes with --random")
	}
	if o.noVerify && !o.random {
		return usagef("--no-verify goes with --random")
	}
	if o.n, err = parseN(args[0], "solve", board.MaxN); err != nil {
		return err
	}
	if limit := board.MaxWriteN(o.f); o.n > limit {
		return usagef("%v; use list, json, svg or png", &board.SizeError{Op: "the " + string(o.f) + " format", N: o.n, Max: limit})
	}
	return nil
}

func (o *solveOptions) run(ctx context.Context) error {
	var sol board.Columns
	if o.random {
		p, err := o.solveRandom(ctx)
		if err != nil {
			return err
		}
		if !o.noVerify {
			if err := board.Verify(p); err != nil {
				return fmt.Errorf("internal error, the local search gave an invalid board: %w", err)
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
				return fmt.Errorf("internal error, the construction is invalid: %w", err)
			}
		}
		sol = pat
	}
	return o.writeOutput(o.output, func(w *bufio.Writer) error { return board.Write(w, sol, o.f) })
}

// noSolution turns "no solution for n = 2 or 3" into a plain failure.
func noSolution(err error) error {
	var ns *solve.NoSolutionError
	if errors.As(err, &ns) {
		return &failure{code: 1, msg: ns.Error()}
	}
	return err
}

const (
	// progressBarN is the smallest random solve that shows a progress bar:
	// below it the search takes a fraction of a second.
	progressBarN = 1_000_000
	// reportAfter is how long a random solve must take for its time to be
	// reported on stderr.
	reportAfter = 2 * time.Second
	// outputBuffer is the size of the buffer between a command and its
	// output.
	outputBuffer = 1 << 16
)

// solveRandom runs the local search with a progress bar on a terminal for
// boards big enough to take a while.
func (o *solveOptions) solveRandom(ctx context.Context) (board.Placement, error) {
	n := o.n
	opts := solve.RandomOptions{Seed: o.seed}
	stderr := o.stderr
	if isTerminal(stderr) && n >= progressBarN {
		p := mpb.New(mpb.WithOutput(stderr), mpb.WithWidth(30))
		bar := p.AddBar(int64(n),
			mpb.PrependDecorators(decor.Name(fmt.Sprintf("solve %d ", n)), decor.Percentage()),
			mpb.AppendDecorators(decor.Elapsed(decor.ET_STYLE_GO)),
			mpb.BarRemoveOnComplete())
		opts.Progress = func(done, total int) { bar.SetCurrent(int64(done)) }
		defer func() {
			bar.Abort(true)
			p.Wait()
		}()
	}
	start := time.Now()
	sol, err := solve.Random(ctx, n, opts)
	if err != nil {
		return nil, noSolution(err)
	}
	if time.Since(start) > reportAfter {
		fmt.Fprintf(stderr, "nqueens: found a random solution of %d queens in %s\n", n, time.Since(start).Round(time.Millisecond))
	}
	return sol, nil
}

// writeOutput buffers the output of write to stdout or to the -o file and
// reports the first error of writing, flushing or closing.
func (s *streams) writeOutput(path string, write func(w *bufio.Writer) error) error {
	out, done, err := s.openOutput(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, outputBuffer)
	err = write(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := done(); err == nil {
		err = cerr
	}
	return err
}
