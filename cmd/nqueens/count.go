package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// count is one command of five modes, each an options type of its own
// with its flags, its check, validate and run: a count of N, saved to and
// resumed from checkpoints (wholeCount, countwhole.go), a table of every N
// of --range (rangeCount, countrange.go), one classic strategy's count
// (algoCount, algocount.go), one shard of the units into a --ledger
// (shardCount, shard.go), and the variants (variantCount, countvariant.go).
// The flags given choose the mode, and which flags exclude each other is
// declared with cobra's flag groups.

// countCommon are the flags that every mode of count takes.
type countCommon struct {
	streams
	workers int
	jsonOut bool
	quiet   bool
	yes     bool
	key     sealKey
	memory  memoryFlag
}

// countMode is one mode of count: chosen reports whether the flags given
// choose it; check checks the values of its flags, whatever mode runs (a
// bad value is an error even where it would not be read); validate reads
// the arguments for the mode that runs; run does the work.
type countMode interface {
	chosen() bool
	check() error
	validate(args []string) error
	run(ctx context.Context) error
}

// countOptions are the flags and arguments of count: the common ones, and
// the modes, the first of which the flags choose runs.
type countOptions struct {
	countCommon
	modes []countMode
	mode  countMode
}

// estimateFrom is the smallest N for which count estimates the run time
// first; below it a count takes seconds.
const estimateFrom = 18

// longRun is the estimated run time past which a count asks for --yes.
const longRun = time.Hour

const countLong = `count prints the number of solutions of the N-Queens problem (OEIS A000170)
and of classes under rotation and reflection (OEIS A002562), exactly, for
1 ≤ N ≤ 64, using every core. From N = 18 on it first prints an estimate of
the run time, and asks for --yes when that is over an hour. For N ≤ 27 the
result is compared with the published counts before it is printed; a
difference is an error (exit 1), never a number.

Progress goes to stderr (--quiet: none). Ctrl-C or SIGTERM stops within a
second and saves the finished work units: to the --checkpoint file, which
is kept current every --checkpoint-every while the count runs, or else to
nqueens-count-N.ckpt.json in the current folder, which the next plain
"count N" resumes (and removes when the count is complete). --resume FILE
continues a checkpoint (N comes from the file) and gives exactly the count
of an uninterrupted run; a file named by --checkpoint or --resume is kept
once the count is complete (a note says so). A checkpoint that cannot be
written stops the count at once (exit 1) unless --ignore-save-errors is
given. Checkpoints carry a keyed seal (HMAC-SHA-256) made with the user's
seal key, created on first use in the configuration folder
(~/.config/nqueens/seal.key), or with --key-file: one edited, or sealed
under another key, is refused.

--range A-B prints a table of N, total, unique and seconds, checking each row
against the published counts.

The variants (see docs/variants.md) are counted with their own engine:
--torus (diagonals wrap round the edges: OEIS A051906), --super (queens that
also move as a knight: A051223, classes A051224), --queens K (K pieces, at
most one a row: A036464, A047659, A061994, A108792 for K = 2 … 5 on N × N)
and --cols M (N rows × M columns; N queens on N ≤ M columns: the triangle
A269133), together where they make sense (a torus is square). They print
the total and the classes under the board's symmetries (8 for a square, the
torus included, whose turns are not merged; 4 for a rectangle), with the
OEIS sequence each number is a term of; where its term is published (the
table is in the binary) the count is compared with it: "matches OEIS
A051906 a(13)", and a difference is an error (exit 1), never a number. More
pieces than the board's shorter side gives 0 with a sentence. A run
estimated over an hour asks for --yes.`

func newCountCmd() *cobra.Command {
	o := &countOptions{}
	c := &o.countCommon
	cmd := &cobra.Command{
		Use:   "count N | count --resume FILE | count --range A-B",
		Short: "Count all solutions and their symmetry classes exactly",
		Long:  countLong,
		Args:  maxArgs(1),
	}
	fl := cmd.Flags()
	fl.IntVarP(&c.workers, "workers", "w", 0, "worker goroutines (default: all cores)")
	fl.BoolVar(&c.jsonOut, "json", false, "print a JSON object per count")
	fl.BoolVarP(&c.quiet, "quiet", "q", false, "print no progress or notes on stderr, only errors")
	fl.BoolVar(&c.yes, "yes", false, "start a count estimated to take over an hour")
	addKeyFlag(cmd, &c.key)
	addMemoryFlag(cmd, &c.memory)
	// In the order the flags choose them: --algo, --range, a shard flag, a
	// variant flag, else a count of N.
	whole := newWholeCount(cmd, c)
	o.modes = []countMode{newAlgoCount(cmd, c), newRangeCount(cmd, c), newShardCount(cmd, c), newVariantCount(cmd, c, whole), whole}
	cmd.MarkFlagsMutuallyExclusive("range", "algo", "ledger", "checkpoint")
	cmd.MarkFlagsMutuallyExclusive("range", "algo", "ledger", "resume")
	cmd.MarkFlagsMutuallyExclusive("shard", "shard-from-env")
	cmd.MarkFlagsRequiredTogether("shard-from-env", "shards")
	return command(cmd, o)
}

// validate checks every flag, chooses the mode and has it read the
// arguments.
func (o *countOptions) validate(args []string) error {
	o.memory.apply()
	if err := checkWorkers(o.workers); err != nil {
		return err
	}
	for _, m := range o.modes {
		if err := m.check(); err != nil {
			return err
		}
	}
	for _, m := range o.modes {
		if m.chosen() {
			o.mode = m
			break
		}
	}
	return o.mode.validate(args)
}

func (o *countOptions) run(ctx context.Context) error { return o.mode.run(ctx) }

// countN reads the N of a mode that needs one.
func countN(args []string) (int, error) {
	if len(args) == 0 {
		return 0, usageT("cli.count.needn", nil)
	}
	return parseN(args[0], "count", count.MaxN)
}

// noteT prints the message key for the user on stderr, unless --quiet.
func (c *countCommon) noteT(key string, args i18n.Args) {
	if !c.quiet {
		fmt.Fprintf(c.stderr, "nqueens: %s\n", c.printer().T(key, args))
	}
}

// noteN is noteT of a message in the plural form of count.
func (c *countCommon) noteN(key string, count any, args i18n.Args) {
	if !c.quiet {
		fmt.Fprintf(c.stderr, "nqueens: %s\n", c.printer().N(key, count, args))
	}
}

// printCountResult prints a finished count, for count, merge and the
// coordinator alike.
func printCountResult(w io.Writer, r count.Result, jsonOut bool) error {
	if jsonOut {
		return writeJSONLine(w, r.JSON())
	}
	_, err := fmt.Fprintf(w, "total %s\nunique %s\n", r.Total, r.Unique)
	return err
}
