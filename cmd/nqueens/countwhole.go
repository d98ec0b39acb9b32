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
	"github.com/nqueens/nqueens/i18n"
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

func newWholeCount(cmd *cobra.Command, p *i18n.Printer, c *countCommon) *wholeCount {
	o := &wholeCount{countCommon: c}
	fl := cmd.Flags()
	fl.StringVar(&o.checkpoint, "checkpoint", "", p.T("help.count.flag.checkpoint", nil))
	fl.StringVar(&o.resume, "resume", "", p.T("help.count.flag.resume", nil))
	fl.DurationVar(&o.checkpointEvery, "checkpoint-every", count.DefaultCheckpointEvery, p.T("help.count.flag.checkpoint-every", nil))
	fl.BoolVar(&o.ignoreSaveErrs, "ignore-save-errors", false, p.T("help.count.flag.ignore-save-errors", nil))
	return o
}

// chosen: a count of N is what count does when no other mode is asked for.
func (o *wholeCount) chosen() bool { return true }

func (o *wholeCount) check() error {
	if o.checkpointEvery <= 0 {
		return usageT("cli.count.every", i18n.Args{"Flag": "--checkpoint-every", "Value": o.checkpointEvery.String()})
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
	prog := newProgressView(o.stderr, o.printer(), fmt.Sprintf("count %d", n), "units", o.quiet)
	prog.setEstimate(est)
	var finished []count.UnitResult // for a checkpoint written only on interruption
	opts := count.Options{Workers: o.workers, Checkpoint: ck, Progress: prog.updateCount}
	if ck == nil {
		opts.OnUnit = func(u count.UnitResult) { finished = append(finished, u) }
	}
	if o.ignoreSaveErrs {
		opts.SaveFailed = func(err error) error {
			fmt.Fprintf(o.stderr, "nqueens: %s\n", o.printer().T("cli.count.savewarn", i18n.Args{"Err": err, "Flag": "--ignore-save-errors"}))
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
		if resumed == 0 {
			o.noteT("cli.count.pastknown", i18n.Args{"N": n})
		} else {
			// Units read from a file are checked against the estimate of
			// the whole, as merged ledgers are.
			if err := count.CheckSpread(ctx, r); err != nil {
				return err
			}
			o.noteT("cli.count.pastknown.resumed", i18n.Args{"N": n, "Here": r.Units - resumed, "Units": r.Units,
				"Resumed": resumed, "Path": ck.Path(), "Key": o.key.key})
		}
	}
	if err := printCountResult(o.stdout, r, o.jsonOut); err != nil {
		return err
	}
	if ck != nil && ck.Path() != defaultCheckpoint(n) {
		// A file the user named is theirs to keep or remove: say that it
		// is complete, not just left behind.
		o.noteT("cli.count.kept", i18n.Args{"Path": ck.Path(), "N": n})
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
			return nil, nil, usageT("cli.count.folder", i18n.Args{"Flag": flag, "Path": path, "Example": filepath.Join(path, defaultCheckpoint(max(o.n, 1)))})
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
			return nil, nil, usageT("cli.count.resumeck", i18n.Args{"Path": o.resume})
		}
		if ck, err = count.OpenCheckpoint(ctx, o.resume, o.checkpointEvery, key); err != nil {
			return nil, nil, i18n.Wrap(err, "cli.count.cannotresume", nil)
		}
		if o.n != 0 && o.n != ck.N() {
			return nil, nil, usageT("cli.count.otherN.resume", i18n.Args{"Path": o.resume, "Held": ck.N(), "N": o.n})
		}
		o.n = ck.N()
		o.noteT("cli.count.resuming", i18n.Args{"N": o.n, "Path": o.resume, "Done": ck.Len(), "Units": count.Units(o.n)})
		return ck, cleanup, nil
	case o.checkpoint != "":
		ck, err = count.CreateCheckpoint(o.checkpoint, o.n, o.checkpointEvery, key)
		if errors.Is(err, count.ErrCheckpointExists) {
			return nil, nil, usageT("cli.count.exists", i18n.Args{"Path": o.checkpoint})
		}
		return ck, cleanup, err
	}
	path := defaultCheckpoint(o.n)
	ck, err = count.OpenCheckpoint(ctx, path, o.checkpointEvery, key)
	if err != nil {
		return nil, nil, i18n.Wrap(err, "cli.count.leftbad", i18n.Args{"N": o.n})
	}
	if ck.N() != o.n {
		return nil, nil, errT("cli.count.otherN", i18n.Args{"Path": path, "Held": ck.N(), "N": o.n})
	}
	o.noteT("cli.count.resuming.left", i18n.Args{"N": o.n, "Path": path, "Done": ck.Len(), "Units": count.Units(o.n)})
	cleanup = func() error {
		if err := os.Remove(path); err != nil {
			return i18n.Wrap(err, "cli.count.notremoved", i18n.Args{"Path": path})
		}
		o.noteT("cli.count.removed", i18n.Args{"Path": path})
		return nil
	}
	return ck, cleanup, nil
}

// interrupted saves what an interrupted count finished and says how to
// resume it: the default checkpoint by running the same count again (which
// removes the file once the count is complete), a named one with --resume.
func (o *wholeCount) interrupted(n int, ck *count.CheckpointFile, finished []count.UnitResult, cause error) error {
	// The library's message says how far the count got.
	got := howStopped{cause}
	path, again := defaultCheckpoint(n), fmt.Sprintf("nqueens count %d", n)
	switch {
	case ck != nil && ck.Path() != path:
		return interruptedT("cli.count.int.saved", i18n.Args{"How": got, "Path": ck.Path(), "Again": "nqueens count --resume " + ck.Path()})
	case ck != nil:
		return interruptedT("cli.count.int.saved", i18n.Args{"How": got, "Path": path, "Again": again})
	case len(finished) == 0:
		return interruptedT("cli.count.int.none", i18n.Args{"N": n})
	}
	// Never replace a file that appeared meanwhile.
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return interruptedT("cli.count.int.exists", i18n.Args{"How": got, "Units": len(finished), "Path": path})
	}
	key, err := o.key.get(o.stderr, o.quiet)
	if err != nil {
		return interruptedT("cli.count.int.notsaved", i18n.Args{"How": got, "Units": len(finished), "Err": err})
	}
	c := count.NewCheckpoint(n)
	c.Units = finished
	if err := count.WriteCheckpoint(path, c, key); err != nil {
		return interruptedT("cli.count.int.notwritten", i18n.Args{"How": got, "Err": err})
	}
	return interruptedT("cli.count.int.default", i18n.Args{"How": got, "Path": path, "Again": again})
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
	if !o.quiet && e.LowerBound {
		o.noteN("cli.count.atleast", workersOf(o.workers), i18n.Args{"N": n, "Time": estSecs(took), "Limit": dur(count.JoinProbeLimit)})
	} else if !o.quiet {
		key := "cli.count.about.nodes"
		if e.Engine == count.EngineJoin {
			key = "cli.count.about.pairs"
		}
		o.noteN(key, workersOf(o.workers), i18n.Args{"N": n, "Time": estSecs(took),
			"Nodes": fmt.Sprintf("%.3g", e.Nodes), "Err": fmt.Sprintf("%.1g", e.NodesErr)})
	}
	if took > longRun.Seconds() && !o.yes {
		return 0, usageT("cli.count.long", i18n.Args{"N": n, "Time": estSecs(took)})
	}
	return e.Nodes, nil
}
