package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/spf13/cobra"
)

// wholeCount is count N, count --resume FILE and count N --checkpoint
// FILE: every unit of N counted by count's own engine, saved to a
// checkpoint while it runs or when it is interrupted, and checked against
// the published counts.
type wholeCount struct {
	*countCommon
	n               int // 0 until known: from the argument or the --resume file
	checkpoint      string
	resume          string
	checkpointEvery time.Duration
	ignoreSaveErrs  bool
}

func newWholeCount(cmd *cobra.Command, c *countCommon) *wholeCount {
	o := &wholeCount{countCommon: c}
	fl := cmd.Flags()
	fl.StringVar(&o.checkpoint, "checkpoint", "", "save finished units to this new file while counting")
	fl.StringVar(&o.resume, "resume", "", "continue the count saved in this checkpoint file")
	fl.DurationVar(&o.checkpointEvery, "checkpoint-every", count.DefaultCheckpointEvery, "time between checkpoint saves")
	fl.BoolVar(&o.ignoreSaveErrs, "ignore-save-errors", false, "keep counting when the checkpoint cannot be saved (warn instead)")
	return o
}

// chosen: a count of N is what count does when no other mode is asked for.
func (o *wholeCount) chosen() bool { return true }

func (o *wholeCount) check() error {
	if o.checkpointEvery <= 0 {
		return usagef("--checkpoint-every must be positive, got %s", o.checkpointEvery)
	}
	return nil
}

func (o *wholeCount) validate(args []string) error {
	if len(args) == 0 && o.resume != "" {
		return nil // N comes from the file
	}
	var err error
	o.n, err = countN(args)
	return err
}

func (o *wholeCount) run(ctx context.Context) error {
	ck, cleanup, err := o.openCheckpoint(ctx)
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
		o.note("N = %d is past the published counts: %s", n, backing)
	}
	if err := printCountResult(o.stdout, r, o.jsonOut); err != nil {
		return err
	}
	if ck != nil && ck.Path() != defaultCheckpoint(n) {
		// A file the user named is theirs to keep or remove: say that it
		// is complete, not just left behind.
		o.note("%s holds the complete count of N = %d (count --resume %s prints it again at once); remove it when you no longer need it", ck.Path(), n, ck.Path())
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
func (o *wholeCount) openCheckpoint(ctx context.Context) (ck *count.CheckpointFile, cleanup func() error, err error) {
	cleanup = func() error { return nil }
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
		if ck, err = count.OpenCheckpoint(ctx, o.resume, o.checkpointEvery, key); err != nil {
			return nil, nil, fmt.Errorf("cannot resume: %w", err)
		}
		if o.n != 0 && o.n != ck.N() {
			return nil, nil, usagef("%s holds a count of N = %d, not N = %d (N may be left out with --resume)", o.resume, ck.N(), o.n)
		}
		o.n = ck.N()
		o.note("resuming N = %d from %s: %d of %d units done", o.n, o.resume, ck.Len(), count.Units(o.n))
		return ck, cleanup, nil
	case o.checkpoint != "":
		ck, err = count.CreateCheckpoint(o.checkpoint, o.n, o.checkpointEvery, key)
		if errors.Is(err, count.ErrCheckpointExists) {
			return nil, nil, usagef("checkpoint %s already exists; continue it with --resume %s, or remove it", o.checkpoint, o.checkpoint)
		}
		return ck, cleanup, err
	}
	path := defaultCheckpoint(o.n)
	ck, err = count.OpenCheckpoint(ctx, path, o.checkpointEvery, key)
	if err != nil {
		return nil, nil, fmt.Errorf("%v; it was left by an interrupted count of N = %d: remove it to start again, or keep it and pass --checkpoint OTHER-FILE", err, o.n)
	}
	if ck.N() != o.n {
		return nil, nil, fmt.Errorf("%s holds a count of N = %d, not N = %d; remove or rename it", path, ck.N(), o.n)
	}
	o.note("resuming N = %d from %s, left by an interrupted count: %d of %d units done (remove the file to start again)",
		o.n, path, ck.Len(), count.Units(o.n))
	cleanup = func() error {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("the count is complete, but its checkpoint %s could not be removed: %w", path, err)
		}
		o.note("removed %s: the count it held is complete", path)
		return nil
	}
	return ck, cleanup, nil
}

// interrupted saves what an interrupted count finished and says how to
// resume it: the default checkpoint by running the same count again (which
// removes the file once the count is complete), a named one with --resume.
func (o *wholeCount) interrupted(n int, ck *count.CheckpointFile, finished []count.UnitResult, cause error) error {
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
func (o *wholeCount) checkTime(ctx context.Context, n int, todo []int) (float64, error) {
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
