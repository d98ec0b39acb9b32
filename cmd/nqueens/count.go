package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// countFlags are the options of count.
type countFlags struct {
	workers         int
	jsonOut         bool
	checkpoint      string
	resume          string
	checkpointEvery time.Duration
	yes             bool
	rangeArg        string
	algo            string
	stats           bool
	shard           *shardFlags
}

// estimateFrom is the smallest N for which count estimates the run time
// first; below it a count takes seconds.
const estimateFrom = 18

func newCountCmd() *cobra.Command {
	var f countFlags
	cmd := &cobra.Command{
		Use:   "count N | count --range A-B",
		Short: "Count all solutions and their symmetry classes exactly",
		Long: `count prints the number of solutions of the N-Queens problem (OEIS A000170)
and of classes under rotation and reflection (OEIS A002562), exactly, for
1 ≤ N ≤ 64, using every core. From N = 18 on it first prints an estimate of
the run time, and asks for --yes when that is over an hour.

Progress goes to stderr. Ctrl-C or SIGTERM stops within a second and saves
the finished work units to the --checkpoint file (default
nqueens-count-N.ckpt.json); --resume FILE continues and gives exactly the
count of an uninterrupted run.

--range A-B prints a table of N, total, unique and seconds, checking each row
against the published counts.`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.rangeArg != "" {
				if len(args) != 0 {
					return usagef("count takes N or --range A-B, not both")
				}
				if f.algo != "" || f.shard.active() {
					return usagef("--range counts with the fast engine on this machine only; drop --algo and the shard flags")
				}
				return runCountRange(cmd, f)
			}
			if len(args) != 1 {
				return usagef("count needs N (or --range A-B)")
			}
			if f.algo != "" {
				if f.shard.active() || f.resume != "" || f.checkpoint != "" {
					return usagef("--algo runs one classic strategy; it takes no shard or checkpoint flags")
				}
				n, err := parseN(args[0], "count", count.MaxN)
				if err != nil {
					return err
				}
				return runAlgoCount(cmd, n, f.algo, f.stats, f.jsonOut)
			}
			if f.stats {
				return usagef("--stats goes with --algo NAME")
			}
			n, err := parseN(args[0], "count", count.MaxN)
			if err != nil {
				return err
			}
			if f.shard.active() {
				return runShardCount(cmd, n, f.shard)
			}
			return runCount(cmd, n, f)
		},
	}
	fl := cmd.Flags()
	fl.IntVarP(&f.workers, "workers", "w", 0, "worker goroutines (default: all cores)")
	fl.BoolVar(&f.jsonOut, "json", false, "print a JSON object per count")
	fl.StringVar(&f.checkpoint, "checkpoint", "", "save finished units to this file every few seconds")
	fl.StringVar(&f.resume, "resume", "", "continue the count saved in this checkpoint file")
	fl.DurationVar(&f.checkpointEvery, "checkpoint-every", 5*time.Second, "time between checkpoint saves")
	fl.BoolVar(&f.yes, "yes", false, "start a count estimated to take over an hour")
	fl.StringVar(&f.rangeArg, "range", "", "count every N from A to B and print a table")
	fl.StringVar(&f.algo, "algo", "", "count with one classic strategy instead (see nqueens algorithms)")
	fl.BoolVar(&f.stats, "stats", false, "with --algo: print the strategy's counters and time")
	f.shard = addShardFlags(cmd)
	algoNames(cmd, "algo")
	return cmd
}

func checkWorkers(w int) error {
	if w < 0 {
		return usagef("--workers must be at least 1, got %d", w)
	}
	return nil
}

// countJSON is the --json output of one count.
type countJSON struct {
	N         int           `json:"n"`
	Total     count.Uint128 `json:"total"`
	Unique    count.Uint128 `json:"unique"`
	Nodes     count.Uint128 `json:"nodes"`
	Seconds   float64       `json:"seconds"`
	Workers   int           `json:"workers"`
	Units     int           `json:"units"`
	Reference string        `json:"reference,omitempty"`
}

func toJSON(r count.Result) countJSON {
	return countJSON{N: r.N, Total: r.Total, Unique: r.Unique, Nodes: r.Nodes, Seconds: r.Elapsed.Seconds(), Workers: r.Workers, Units: r.Units}
}

func runCount(cmd *cobra.Command, n int, f countFlags) error {
	if err := checkWorkers(f.workers); err != nil {
		return err
	}
	ctx := cmd.Context()
	stderr := cmd.ErrOrStderr()
	prog := newProgressView(stderr, fmt.Sprintf("count %d", n))
	if n >= estimateFrom {
		e, took, err := estimateRun(ctx, n, f.workers, 4000)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "nqueens: N = %d: about %s on %d worker(s) (%.3g ± %.1g nodes; %s)\n",
			n, formatSeconds(took), workersOf(f.workers), e.Nodes, e.NodesErr, "estimate, see nqueens estimate")
		if took > 3600 && !f.yes {
			return usagef("the count of N = %d would take about %s; add --yes to start it", n, formatSeconds(took))
		}
		prog.estNodes = e.Nodes
	}

	// Checkpoint: --resume FILE continues FILE (and keeps saving there
	// unless --checkpoint names another file).
	ckPath := f.checkpoint
	var done []count.UnitResult
	if f.resume != "" {
		ck, err := count.ReadCheckpoint(f.resume, n)
		if err != nil {
			return fmt.Errorf("cannot resume: %w", err)
		}
		done = ck.Units
		if ckPath == "" {
			ckPath = f.resume
		}
		fmt.Fprintf(stderr, "nqueens: resuming N = %d from %s: %d of %d units done\n", n, f.resume, len(done), count.Units(n))
	} else if ckPath != "" {
		if _, err := os.Stat(ckPath); err == nil {
			return usagef("checkpoint %s already exists; continue it with --resume %s, or remove it", ckPath, ckPath)
		}
	}
	explicit := ckPath != ""
	if ckPath == "" {
		ckPath = fmt.Sprintf("nqueens-count-%d.ckpt.json", n)
	}
	ck := count.NewCheckpoint(n)
	ck.Units = append(ck.Units, done...)
	var mu sync.Mutex
	dirty := false
	save := func() error {
		mu.Lock()
		defer mu.Unlock()
		if !dirty {
			return nil
		}
		dirty = false
		return count.WriteCheckpoint(ckPath, ck)
	}

	saveErr := make(chan error, 1)
	stopSaving := make(chan struct{})
	var savers sync.WaitGroup
	if explicit {
		savers.Go(func() {
			t := time.NewTicker(f.checkpointEvery)
			defer t.Stop()
			for {
				select {
				case <-stopSaving:
					return
				case <-t.C:
					if err := save(); err != nil {
						select {
						case saveErr <- err:
						default:
						}
					}
				}
			}
		})
	}
	r, err := count.Count(ctx, n, count.Options{
		Workers: f.workers,
		Done:    done,
		OnUnit: func(u count.UnitResult) {
			mu.Lock()
			ck.Units = append(ck.Units, u)
			dirty = true
			mu.Unlock()
		},
		Progress: prog.update,
	})
	close(stopSaving)
	savers.Wait()
	prog.finish(err == nil)
	if err != nil {
		if ctx.Err() == nil {
			return err
		}
		mu.Lock()
		finished := len(ck.Units)
		mu.Unlock()
		if finished == 0 && !explicit {
			return fmt.Errorf("count of N = %d interrupted before any unit finished; nothing to save", n)
		}
		dirty = true
		if werr := save(); werr != nil {
			return fmt.Errorf("count of N = %d interrupted, and the checkpoint could not be written: %v", n, werr)
		}
		return fmt.Errorf("count of N = %d interrupted after %d of %d units; resume with: nqueens count %d --resume %s",
			n, finished, count.Units(n), n, ckPath)
	}
	select {
	case err := <-saveErr:
		fmt.Fprintf(stderr, "nqueens: warning: a checkpoint save failed: %v\n", err)
	default:
	}
	if explicit {
		dirty = true
		if err := save(); err != nil {
			fmt.Fprintf(stderr, "nqueens: warning: final checkpoint not written: %v\n", err)
		}
	}
	return printCountResult(cmd.OutOrStdout(), r, f.jsonOut)
}

func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func workersOf(w int) int {
	if w > 0 {
		return w
	}
	return defaultWorkers()
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

func runCountRange(cmd *cobra.Command, f countFlags) error {
	lo, hi, err := parseRange(f.rangeArg)
	if err != nil {
		return err
	}
	if err := checkWorkers(f.workers); err != nil {
		return err
	}
	if f.checkpoint != "" || f.resume != "" {
		return usagef("--checkpoint and --resume work with one N, not --range")
	}
	ctx := cmd.Context()
	if hi >= estimateFrom && !f.yes {
		var sum float64
		for n := max(lo, estimateFrom); n <= hi; n++ {
			_, took, err := estimateRun(ctx, n, f.workers, 1000)
			if err != nil {
				return err
			}
			sum += took
		}
		if sum > 3600 {
			return usagef("--range %s would take about %s; add --yes to start it", f.rangeArg, formatSeconds(sum))
		}
	}
	w := cmd.OutOrStdout()
	if !f.jsonOut {
		fmt.Fprintln(w, "n\ttotal\tunique\tseconds\treference")
	}
	mismatches := 0
	for n := lo; n <= hi; n++ {
		prog := newProgressView(cmd.ErrOrStderr(), fmt.Sprintf("count %d", n))
		r, err := count.Count(ctx, n, count.Options{Workers: f.workers, Progress: prog.update})
		prog.finish(err == nil)
		if err != nil {
			return err
		}
		check := "none"
		if tot, uni, ok := count.Known(n); ok {
			check = "ok"
			if tot != r.Total || uni != r.Unique {
				check = "MISMATCH"
				mismatches++
			}
		}
		if f.jsonOut {
			j := toJSON(r)
			j.Reference = strings.ToLower(check)
			if err := writeJSONLine(w, j); err != nil {
				return err
			}
			continue
		}
		if _, err := fmt.Fprintf(w, "%d\t%s\t%s\t%.3f\t%s\n", n, r.Total, r.Unique, r.Elapsed.Seconds(), check); err != nil {
			return err
		}
	}
	if mismatches > 0 {
		return fmt.Errorf("%d count(s) disagree with the published values", mismatches)
	}
	return nil
}

// progressView shows count progress on stderr: a bar on a terminal, else a
// status line every few seconds once a run has lasted a couple of seconds.
type progressView struct {
	w        io.Writer
	label    string
	tty      bool
	estNodes float64 // estimated nodes of the whole count, 0 if unknown

	mu       sync.Mutex
	p        *mpb.Progress
	bar      *mpb.Bar
	last     count.Progress
	lastLine time.Time
}

// statusEvery is the gap between status lines when stderr is not a terminal.
var statusEvery = 5 * time.Second

func newProgressView(w io.Writer, label string) *progressView {
	v := &progressView{w: w, label: label}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		v.tty = true
	}
	return v
}

// eta is computed from this run's rate only (resumed units excluded). Units
// differ in size by orders of magnitude, so when the run has an estimate of
// its nodes (N ≥ estimateFrom) the ETA is remaining nodes over this run's
// node rate; otherwise it is remaining units over this run's unit rate.
func (v *progressView) eta(p count.Progress) string {
	doneHere := p.UnitsDone - p.Resumed
	if doneHere <= 0 || p.Elapsed <= 0 {
		return "?"
	}
	if nodes := p.Nodes.Float64(); v.estNodes > 0 && nodes > 0 {
		// Resumed units are assumed average-sized: their nodes are not known.
		left := v.estNodes*float64(p.Units-p.Resumed)/float64(p.Units) - nodes
		if left > 0 {
			return formatDuration(time.Duration(float64(p.Elapsed) / nodes * left))
		}
	}
	left := p.Units - p.UnitsDone
	return formatDuration(time.Duration(float64(p.Elapsed) / float64(doneHere) * float64(left)))
}

func rate(p count.Progress) string {
	if p.Elapsed <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.3g nodes/s", p.Nodes.Float64()/p.Elapsed.Seconds())
}

func (v *progressView) update(p count.Progress) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.last = p
	if v.tty {
		if v.p == nil {
			if p.Elapsed < time.Second {
				return
			}
			v.p = mpb.New(mpb.WithOutput(v.w), mpb.WithWidth(30))
			v.bar = v.p.AddBar(int64(p.Units),
				mpb.PrependDecorators(decor.Name(v.label+" "), decor.CountersNoUnit("%d/%d units")),
				mpb.AppendDecorators(decor.Percentage(), decor.Any(func(decor.Statistics) string {
					v.mu.Lock()
					defer v.mu.Unlock()
					return "  " + rate(v.last) + "  ETA " + v.eta(v.last)
				})))
		}
		v.bar.SetCurrent(int64(p.UnitsDone))
		return
	}
	if p.Elapsed < 2*time.Second || time.Since(v.lastLine) < statusEvery {
		return
	}
	v.lastLine = time.Now()
	fmt.Fprintf(v.w, "nqueens: %s: %d/%d units (%.1f%%), %s, ETA %s\n", v.label, p.UnitsDone, p.Units,
		100*float64(p.UnitsDone)/float64(max(1, p.Units)), rate(p), v.eta(p))
}

func (v *progressView) finish(ok bool) {
	v.mu.Lock()
	p, bar := v.p, v.bar
	v.mu.Unlock()
	if p == nil {
		return
	}
	if ok {
		bar.SetCurrent(int64(v.last.Units))
	} else {
		bar.Abort(false)
	}
	p.Wait()
}

// maxDuration stands for any time beyond what a time.Duration holds.
const maxDuration = time.Duration(math.MaxInt64)

// seconds converts to a Duration, saturating at maxDuration.
func seconds(s float64) time.Duration {
	if !(s < maxDuration.Seconds()) {
		return maxDuration
	}
	return time.Duration(s * float64(time.Second))
}

// formatDuration prints a duration for people: 850ms, 42s, 3m20s, 5h10m,
// 12 days, 31.7 years.
func formatDuration(d time.Duration) string {
	switch {
	case d == maxDuration:
		return "over 290 years"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	case d < time.Hour:
		return d.Round(time.Second).String()
	case d < 48*time.Hour:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	case d < 365*24*time.Hour:
		return strconv.Itoa(int(d.Hours()/24)) + " days"
	}
	return fmt.Sprintf("%.3g years", d.Hours()/24/365.25)
}

// formatSeconds is formatDuration for estimates, which may pass 290 years.
func formatSeconds(s float64) string {
	const year = 365.25 * 24 * 3600
	if s >= year {
		return fmt.Sprintf("%.3g years", s/year)
	}
	return formatDuration(seconds(s))
}

// estimateRun estimates the engine's nodes for N with Knuth probes and
// turns them into wall time with the node rate measured on N = 15 (or N
// itself when smaller), assuming the workers scale linearly.
func estimateRun(ctx context.Context, n, workers, probes int) (count.Estimate, float64, error) {
	e, err := count.EstimateTree(ctx, n, probes, 1)
	if err != nil {
		return e, 0, err
	}
	rt, err := measuredRate(ctx, min(n, rateN))
	if err != nil {
		return e, 0, err
	}
	return e, e.Nodes / rt.NodesPerSec / float64(workersOf(workers)), nil
}

// rateN is the board counted to measure the node rate.
const rateN = 15

var rateCache = struct {
	sync.Mutex
	m map[int]count.Rate
}{m: map[int]count.Rate{}}

func measuredRate(ctx context.Context, n int) (count.Rate, error) {
	rateCache.Lock()
	defer rateCache.Unlock()
	if r, ok := rateCache.m[n]; ok {
		return r, nil
	}
	r, err := count.MeasureRate(ctx, n)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return r, err
		}
		return r, fmt.Errorf("measuring the node rate: %w", err)
	}
	rateCache.m[n] = r
	return r, nil
}

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }
