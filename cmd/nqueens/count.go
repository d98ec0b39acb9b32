package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/variant"
	"github.com/spf13/cobra"
)

// countOptions are the flags and arguments of count.
type countOptions struct {
	streams
	n               int // 0 until known: from the argument or the --resume file
	workers         int
	jsonOut         bool
	quiet           bool
	checkpoint      string
	resume          string
	checkpointEvery time.Duration
	ignoreSaveErrs  bool
	yes             bool
	rangeArg        string
	algo            string
	stats           bool
	shard           *shardFlags
	sh              ledger.Shard     // the shard the shard flags name
	lo, hi          int              // of --range
	strategy        classic.Strategy // of --algo
	key             sealKey
	variant         *variantFlags
	spec            variant.Spec // of the variant flags, when isVariant
	isVariant       bool
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
	cmd := &cobra.Command{
		Use:   "count N | count --resume FILE | count --range A-B",
		Short: "Count all solutions and their symmetry classes exactly",
		Long:  countLong,
		Args:  maxArgs(1),
	}
	fl := cmd.Flags()
	fl.IntVarP(&o.workers, "workers", "w", 0, "worker goroutines (default: all cores)")
	fl.BoolVar(&o.jsonOut, "json", false, "print a JSON object per count")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "print no progress or notes on stderr, only errors")
	fl.StringVar(&o.checkpoint, "checkpoint", "", "save finished units to this new file while counting")
	fl.StringVar(&o.resume, "resume", "", "continue the count saved in this checkpoint file")
	fl.DurationVar(&o.checkpointEvery, "checkpoint-every", count.DefaultCheckpointEvery, "time between checkpoint saves")
	fl.BoolVar(&o.ignoreSaveErrs, "ignore-save-errors", false, "keep counting when the checkpoint cannot be saved (warn instead)")
	fl.BoolVar(&o.yes, "yes", false, "start a count estimated to take over an hour")
	fl.StringVar(&o.rangeArg, "range", "", "count every N from A to B and print a table")
	fl.StringVar(&o.algo, "algo", "", "count with one classic strategy instead (see nqueens algorithms)")
	fl.BoolVar(&o.stats, "stats", false, "with --algo: print the strategy's counters and time")
	o.shard = addShardFlags(cmd)
	addKeyFlag(cmd, &o.key)
	o.variant = addVariantFlags(cmd, "range", "algo", "ledger", "checkpoint", "resume", "shard", "shard-from-env")
	algoNames(cmd, "algo")
	// Four modes: a whole count (with checkpoints), --range, --algo, and a
	// shard into a --ledger.
	cmd.MarkFlagsMutuallyExclusive("range", "algo", "ledger", "checkpoint")
	cmd.MarkFlagsMutuallyExclusive("range", "algo", "ledger", "resume")
	cmd.MarkFlagsMutuallyExclusive("shard", "shard-from-env")
	cmd.MarkFlagsRequiredTogether("shard-from-env", "shards")
	return command(cmd, o)
}

// validate checks the flag combinations and reads N.
func (o *countOptions) validate(args []string) error {
	if err := checkWorkers(o.workers); err != nil {
		return err
	}
	if o.checkpointEvery <= 0 {
		return usagef("--checkpoint-every must be positive, got %s", o.checkpointEvery)
	}
	if o.stats && o.algo == "" {
		return usagef("--stats goes with --algo NAME")
	}
	if o.algo != "" {
		var err error
		if o.strategy, err = lookupAlgo(o.algo); err != nil {
			return err
		}
	}
	if o.shard.active() {
		sh, err := o.shard.resolve()
		if err != nil {
			return err
		}
		o.sh = sh
	}
	if o.rangeArg != "" {
		if len(args) != 0 {
			return usagef("count takes N or --range A-B, not both")
		}
		var err error
		o.lo, o.hi, err = parseRange(o.rangeArg)
		return err
	}
	if len(args) == 1 {
		n, err := parseN(args[0], "count", count.MaxN)
		if err != nil {
			return err
		}
		o.n = n
		if o.variant.active(o.given) {
			if o.spec, err = o.variant.spec(n, o.given); err != nil {
				return err
			}
			o.isVariant = !plain(o.spec)
		}
	} else if o.resume == "" {
		return usagef("count needs N (or --resume FILE, or --range A-B)")
	}
	return nil
}

func (o *countOptions) run(ctx context.Context) error {
	switch {
	case o.rangeArg != "":
		return o.runRange(ctx)
	case o.algo != "":
		return o.runAlgo(ctx)
	case o.shard.active():
		return o.runShard(ctx)
	case o.isVariant:
		return o.runVariant(ctx)
	}
	ck, cleanup, err := o.openCheckpoint()
	if err != nil {
		return err
	}
	n := o.n
	var est float64
	if todo := remainingUnits(n, ck); n >= estimateFrom && len(todo) > 0 {
		if est, err = o.checkTime(ctx, n, todo); err != nil {
			return err
		}
	}
	prog := newProgressView(o.stderr, fmt.Sprintf("count %d", n), "units", o.quiet)
	prog.setEstimate(est)
	var finished []count.UnitResult // for a checkpoint written only on interruption
	opts := count.Options{Workers: o.workers, Checkpoint: ck, Progress: prog.updateCount}
	if ck == nil {
		opts.OnUnit = func(u count.UnitResult) { finished = append(finished, u) }
	}
	if o.ignoreSaveErrs {
		opts.SaveFailed = func(err error) error {
			fmt.Fprintf(o.stderr, "nqueens: warning: %v; counting on (--ignore-save-errors)\n", err)
			return nil
		}
	}
	resumed := 0
	if ck != nil {
		resumed = ck.Len()
	}
	r, err := count.Count(ctx, n, opts)
	prog.finish(err == nil)
	if err != nil {
		if ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
			return err
		}
		return o.interrupted(n, ck, finished, err)
	}
	if _, _, known := count.Known(n); !known {
		backing := "counted on this machine"
		if resumed > 0 {
			// Units read from a file are checked against the estimate of
			// the whole, as merged ledgers are.
			if err := count.CheckSpread(ctx, r); err != nil {
				return err
			}
			backing = fmt.Sprintf("%d of %d units counted on this machine, %d from %s sealed under %s, total within the estimate's spread",
				r.Units-resumed, r.Units, resumed, ck.Path(), o.key.key)
		}
		if !o.quiet {
			fmt.Fprintf(o.stderr, "nqueens: N = %d is past the published counts: %s\n", n, backing)
		}
	}
	if err := printCountResult(o.stdout, r, o.jsonOut); err != nil {
		return err
	}
	if ck != nil && ck.Path() != defaultCheckpoint(n) && !o.quiet {
		// A file the user named is theirs to keep or remove: say that it
		// is complete, not just left behind.
		fmt.Fprintf(o.stderr, "nqueens: %s holds the complete count of N = %d (count --resume %s prints it again at once); remove it when you no longer need it\n", ck.Path(), n, ck.Path())
	}
	return cleanup()
}

// defaultCheckpoint is where an interrupted plain count saves its units.
func defaultCheckpoint(n int) string { return fmt.Sprintf("nqueens-count-%d.ckpt.json", n) }

// openCheckpoint opens the checkpoint the flags ask for: --resume FILE,
// a new --checkpoint FILE, or the default file an interrupted plain count
// left behind, which is resumed (and removed by cleanup once the count is
// complete). It returns nil when the count keeps no checkpoint while it
// runs.
func (o *countOptions) openCheckpoint() (ck *count.CheckpointFile, cleanup func() error, err error) {
	cleanup = func() error { return nil }
	note := func(format string, args ...any) {
		if !o.quiet {
			fmt.Fprintf(o.stderr, "nqueens: "+format+"\n", args...)
		}
	}
	for flag, path := range map[string]string{"--resume": o.resume, "--checkpoint": o.checkpoint} {
		if fi, err := os.Stat(path); path != "" && err == nil && fi.IsDir() {
			return nil, nil, usagef("%s %s is a folder; give a checkpoint file, such as %s", flag, path, filepath.Join(path, defaultCheckpoint(max(o.n, 1))))
		}
	}
	if o.resume == "" && o.checkpoint == "" {
		if _, err := os.Stat(defaultCheckpoint(o.n)); errors.Is(err, fs.ErrNotExist) {
			return nil, cleanup, nil
		}
	}
	key, err := o.key.get(o.stderr, o.quiet)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case o.resume != "":
		if o.checkpoint != "" && o.checkpoint != o.resume {
			return nil, nil, usagef("--resume %s keeps saving to %s; drop --checkpoint", o.resume, o.resume)
		}
		if ck, err = count.OpenCheckpoint(o.resume, o.checkpointEvery, key); err != nil {
			return nil, nil, fmt.Errorf("cannot resume: %w", err)
		}
		if o.n != 0 && o.n != ck.N() {
			return nil, nil, usagef("%s holds a count of N = %d, not N = %d (N may be left out with --resume)", o.resume, ck.N(), o.n)
		}
		o.n = ck.N()
		note("resuming N = %d from %s: %d of %d units done", o.n, o.resume, ck.Len(), count.Units(o.n))
		return ck, cleanup, nil
	case o.checkpoint != "":
		ck, err = count.CreateCheckpoint(o.checkpoint, o.n, o.checkpointEvery, key)
		if errors.Is(err, count.ErrCheckpointExists) {
			return nil, nil, usagef("checkpoint %s already exists; continue it with --resume %s, or remove it", o.checkpoint, o.checkpoint)
		}
		return ck, cleanup, err
	}
	path := defaultCheckpoint(o.n)
	ck, err = count.OpenCheckpoint(path, o.checkpointEvery, key)
	if err != nil {
		return nil, nil, fmt.Errorf("%v; it was left by an interrupted count of N = %d: remove it to start again, or keep it and pass --checkpoint OTHER-FILE", err, o.n)
	}
	if ck.N() != o.n {
		return nil, nil, fmt.Errorf("%s holds a count of N = %d, not N = %d; remove or rename it", path, ck.N(), o.n)
	}
	note("resuming N = %d from %s, left by an interrupted count: %d of %d units done (remove the file to start again)",
		o.n, path, ck.Len(), count.Units(o.n))
	cleanup = func() error {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("the count is complete, but its checkpoint %s could not be removed: %w", path, err)
		}
		note("removed %s: the count it held is complete", path)
		return nil
	}
	return ck, cleanup, nil
}

// interrupted saves what an interrupted count finished and says how to
// resume it: the default checkpoint by running the same count again (which
// removes the file once the count is complete), a named one with --resume.
func (o *countOptions) interrupted(n int, ck *count.CheckpointFile, finished []count.UnitResult, cause error) error {
	// The library's message says how far the count got.
	got := stoppedHow(cause)
	path, again := defaultCheckpoint(n), fmt.Sprintf("nqueens count %d", n)
	switch {
	case ck != nil && ck.Path() != path:
		return interruptedf("%s; saved in %s, resume with: nqueens count --resume %s", got, ck.Path(), ck.Path())
	case ck != nil:
		return interruptedf("%s; saved in %s, resume with: %s", got, path, again)
	case len(finished) == 0:
		return interruptedf("count of N = %d stopped before any unit finished; nothing to save", n)
	}
	// Never replace a file that appeared meanwhile.
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return interruptedf("%s; %d finished units not saved: %s already exists", got, len(finished), path)
	}
	key, err := o.key.get(o.stderr, o.quiet)
	if err != nil {
		return interruptedf("%s; %d finished units not saved: %v", got, len(finished), err)
	}
	c := count.NewCheckpoint(n)
	c.Units = finished
	if err := count.WriteCheckpoint(path, c, key); err != nil {
		return interruptedf("%s, and the checkpoint could not be written: %v", got, err)
	}
	return interruptedf("%s; saved in %s, resume with: %s (which removes the file when the count is complete)", got, path, again)
}

// remainingUnits lists the units of N that the checkpoint (nil: none)
// does not hold.
func remainingUnits(n int, ck *count.CheckpointFile) []int {
	done := map[int]bool{}
	if ck != nil {
		for _, u := range ck.Units() {
			done[u.Index] = true
		}
	}
	var todo []int
	for i := range count.Units(n) {
		if !done[i] {
			todo = append(todo, i)
		}
	}
	return todo
}

// checkTime estimates the run time of the units todo of N and refuses runs
// over longRun without --yes. It returns the estimated nodes.
func (o *countOptions) checkTime(ctx context.Context, n int, todo []int) (float64, error) {
	e, took, err := estimateRun(ctx, n, todo, o.workers, 4000)
	if err != nil {
		return 0, err
	}
	if !o.quiet {
		work := "nodes"
		if e.Engine == count.EngineJoin {
			work = "pairs of half boards"
		}
		fmt.Fprintf(o.stderr, "nqueens: N = %d: about %s on %s (%.3g ± %.1g %s; estimate, see nqueens estimate)\n",
			n, formatSeconds(took), plural(workersOf(o.workers), "worker"), e.Nodes, e.NodesErr, work)
	}
	if took > longRun.Seconds() && !o.yes {
		return 0, usagef("the count of N = %d would take about %s; add --yes to start it", n, formatSeconds(took))
	}
	return e.Nodes, nil
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

// parseRange reads "A-B" with 1 ≤ A ≤ B ≤ MaxN.
func parseRange(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, usagef("--range wants A-B, like 1-16, got %q", s)
	}
	lo, err := parseN(a, "count", count.MaxN)
	if err != nil {
		return 0, 0, err
	}
	hi, err := parseN(b, "count", count.MaxN)
	if err != nil {
		return 0, 0, err
	}
	if lo > hi {
		return 0, 0, usagef("--range %s is empty (%d > %d)", s, lo, hi)
	}
	return lo, hi, nil
}

// runRange counts every N of --range and prints a table. Every count is
// checked against the published table by the count itself, so a row that
// prints is exact.
func (o *countOptions) runRange(ctx context.Context) error {
	lo, hi := o.lo, o.hi
	if hi >= estimateFrom && !o.yes {
		var sum float64
		for n := max(lo, estimateFrom); n <= hi; n++ {
			_, took, err := estimateRun(ctx, n, nil, o.workers, 1000)
			if err != nil {
				return err
			}
			sum += took
		}
		if sum > longRun.Seconds() {
			return usagef("--range %s would take about %s; add --yes to start it", o.rangeArg, formatSeconds(sum))
		}
	}
	w := o.stdout
	if !o.jsonOut {
		fmt.Fprintln(w, "n\ttotal\tunique\tseconds\treference")
	}
	for n := lo; n <= hi; n++ {
		prog := newProgressView(o.stderr, fmt.Sprintf("count %d", n), "units", o.quiet)
		r, err := count.Count(ctx, n, count.Options{Workers: o.workers, Progress: prog.updateCount})
		prog.finish(err == nil)
		if err != nil && ctx.Err() != nil && n > lo {
			return interruptedf("%s; the rows up to N = %d are printed, continue with: nqueens count --range %d-%d", stoppedHow(err), n-1, n, hi)
		}
		if err != nil {
			return err
		}
		check := "none"
		if _, _, ok := count.Known(n); ok {
			check = "ok"
		}
		if o.jsonOut {
			if err := writeJSONLine(w, r.JSON()); err != nil {
				return err
			}
			continue
		}
		if _, err := fmt.Fprintf(w, "%d\t%s\t%s\t%.3f\t%s\n", n, r.Total, r.Unique, r.Elapsed.Seconds(), check); err != nil {
			return err
		}
	}
	return nil
}
