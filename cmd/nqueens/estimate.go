package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// estimateOptions are the flags and arguments of estimate.
type estimateOptions struct {
	streams
	n       int
	probes  int
	seed    uint64
	jsonOut bool
	workers int
	memory  memoryFlag
	shard   string
	units   []int // the shard's units, nil for all
}

// estimateJSON is the --json output of estimate.
type estimateJSON struct {
	N           int              `json:"n"`
	Engine      string           `json:"engine"` // count.EngineJoin or count.EngineTree: the one that counts N
	Probes      int              `json:"probes"`
	Seed        uint64           `json:"seed"`
	Shard       string           `json:"shard,omitempty"` // --shard I/K: the estimate is of its units only
	Units       int              `json:"units"`
	Solutions   float64          `json:"solutions"`
	SolutionsSE float64          `json:"solutions_stderr"`
	Reference   *count.Reference `json:"reference"` // the published count, null past the table
	Nodes       float64          `json:"nodes"`
	NodesSE     float64          `json:"nodes_stderr"`
	RateN       int              `json:"rate_n"`
	NodesPerSec float64          `json:"nodes_per_second"`
	Seconds1    float64          `json:"seconds_one_worker"`
	Workers     int              `json:"workers"`
	SecondsW    float64          `json:"seconds"`
	Measured    bool             `json:"measured"` // the time is of a full count, not an estimate
	// The join's memory: allowed per worker (--memory), the most one
	// worker's lists and halves took in the probes, and the quarter tables
	// its workers share (0 when they would pass half the memory allowed
	// and each worker builds lists per row set; tables_need says what they
	// would take, 0 if not known).
	Memory      int64 `json:"memory_allowed,omitempty"`
	WorkerBytes int64 `json:"peak_bytes_per_worker,omitempty"`
	TableBytes  int64 `json:"table_bytes,omitempty"`
	TablesNeed  int64 `json:"tables_need_bytes,omitempty"`
	// LowerBound: no probe of the join finished in time, and the time is
	// what the count would take at least.
	LowerBound bool `json:"lower_bound,omitempty"`
}

// estimateLimit is how long the join's probes of estimate may take.
const estimateLimit = time.Hour

func newEstimateCmd(p *i18n.Printer) *cobra.Command {
	o := &estimateOptions{}
	cmd := &cobra.Command{
		Use:   "estimate N",
		Short: p.T("help.estimate.short", nil),
		Long: p.T("help.estimate.long", i18n.Args{"Tree": count.JoinTo + 1, "RateN": rateN, "JoinFrom": rateN + 1,
			"JoinTo": count.JoinTo, "Whole": rateN}),
		Args: exactArgs(1, "N"),
	}
	cmd.Flags().IntVar(&o.probes, "probes", 50000, p.T("help.estimate.flag.probes", nil))
	cmd.Flags().Uint64Var(&o.seed, "seed", 1, p.T("help.estimate.flag.seed", nil))
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, p.T("help.flag.json", nil))
	cmd.Flags().IntVarP(&o.workers, "workers", "w", 0, p.T("help.estimate.flag.workers", nil))
	cmd.Flags().StringVar(&o.shard, "shard", "", p.T("help.estimate.flag.shard", nil))
	addMemoryFlag(cmd, p, &o.memory)
	return command(cmd, o)
}

func (o *estimateOptions) validate(args []string) error {
	n, err := parseN(args[0], "estimate", count.MaxN)
	if err != nil {
		return err
	}
	o.n = n
	o.memory.apply()
	if o.probes < 2 {
		return usageT("cli.estimate.probes", i18n.Args{"Value": strconv.Itoa(o.probes)})
	}
	if o.shard != "" {
		sh, err := ledger.ParseShard(o.shard)
		if err != nil {
			return &usageError{i18n.Wrap(err, "cli.where", i18n.Args{"Name": "--shard"})}
		}
		// Never nil: a shard past the last unit has none.
		o.units = slices.AppendSeq(make([]int, 0, sh.Size(n)), sh.Units(n))
	}
	return checkWorkers(o.workers)
}

// estimate is the estimate of N, or of the shard's units.
func (o *estimateOptions) estimate(ctx context.Context) (count.Estimate, error) {
	if o.units != nil {
		return count.EstimateUnitsWithin(ctx, o.n, o.units, o.probes, o.seed, estimateLimit)
	}
	return count.EstimateTreeWithin(ctx, o.n, o.probes, o.seed, estimateLimit)
}

func (o *estimateOptions) run(ctx context.Context) error {
	start := time.Now()
	// An estimate asked for may take its time: past N = 26 a probe counts
	// a rows set for minutes.
	e, err := o.estimate(ctx)
	if ie := stoppedEarly(ctx, err, i18n.NewError("cli.what.estimate", i18n.Args{"N": o.n}), i18n.NewError("cli.kept.nothingprinted", nil)); ie != nil {
		return ie
	} else if err != nil {
		return err
	}
	probeTime := time.Since(start)
	w := workersOf(o.workers)
	j := estimateJSON{N: o.n, Engine: e.Engine, Probes: e.Probes, Seed: o.seed, Shard: o.shard, Units: e.Units, Solutions: e.Total, SolutionsSE: e.TotalErr,
		Nodes: e.Nodes, NodesSE: e.NodesErr, Workers: w}
	if o.units == nil {
		// A shard's solutions are a part of N's: the published count is
		// no check of them.
		j.Reference = count.ReferenceOf(o.n)
	}
	if o.n <= rateN && o.units == nil {
		// Small boards: count in full, on one worker, and report that.
		r, err := count.Count(ctx, o.n, count.Options{Workers: 1})
		if err != nil {
			return err
		}
		j.Measured, j.RateN, j.Seconds1 = true, o.n, r.Elapsed.Seconds()
		j.SecondsW = j.Seconds1 // a board this small gains nothing from more workers
		if j.Seconds1 > 0 {
			j.NodesPerSec = r.Nodes.Float64() / j.Seconds1
		}
	} else if e.Engine == count.EngineJoin {
		// The join timed its probes.
		j.Memory, j.WorkerBytes, j.TableBytes, j.TablesNeed, j.LowerBound = count.Memory(), e.WorkerBytes, e.TableBytes, e.TablesNeed, e.LowerBound
		j.Seconds1 = e.Seconds
		if e.Seconds > 0 {
			j.NodesPerSec = e.Nodes / e.Seconds
		}
		j.SecondsW = j.Seconds1 / float64(w)
	} else {
		rt, err := measuredRate(ctx, rateN)
		if err != nil {
			return err
		}
		j.RateN, j.NodesPerSec = rt.N, rt.NodesPerSec
		j.Seconds1 = e.Nodes / rt.NodesPerSec
		j.SecondsW = j.Seconds1 / float64(w)
	}
	out := o.stdout
	if o.jsonOut {
		return writeJSONLine(out, j)
	}
	o.writeHuman(e, j, w, probeTime)
	return nil
}

// writeHuman writes the estimate for people: a line of what was probed,
// then one a quantity, under labels padded to one column in every
// language.
func (o *estimateOptions) writeHuman(e count.Estimate, j estimateJSON, w int, probeTime time.Duration) {
	p, out := o.printer(), o.stdout
	labels := map[string]string{"solutions": "cli.estimate.label.solutions", "pairs": "cli.estimate.label.pairs",
		"nodes": "cli.estimate.label.nodes", "time": "cli.estimate.label.time", "rate": "cli.estimate.label.rate"}
	width := 0
	for k, key := range labels {
		labels[k] = p.T(key, nil)
		width = max(width, displayWidth(labels[k])+2)
	}
	line := func(label, key string, args i18n.Args) {
		fmt.Fprintln(out, padRight(labels[label], width)+p.T(key, args))
	}
	fmt.Fprintln(out, p.N("cli.estimate.head", e.Units, i18n.Args{"Count": strconv.Itoa(e.Units), "N": strconv.Itoa(o.n), "Probes": strconv.Itoa(e.Probes),
		"Seed": strconv.FormatUint(o.seed, 10), "Time": dur(probeTime)}))
	a := i18n.Args{"V": fmt.Sprintf("%.4g", e.Total), "E": fmt.Sprintf("%.2g", e.TotalErr)}
	if j.Reference != nil {
		a["Total"] = j.Reference.Total.String()
		line("solutions", "cli.estimate.solutions.published", a)
	} else {
		line("solutions", "cli.estimate.solutions", a)
	}
	relErr := 0.0
	if e.Nodes > 0 {
		relErr = e.NodesErr / e.Nodes
	}
	a = i18n.Args{"V": fmt.Sprintf("%.4g", e.Nodes), "E": fmt.Sprintf("%.2g", e.NodesErr), "Pct": fmt.Sprintf("%.1f", 100*relErr)}
	// The label follows the engine that counts N (N = 14 and 15 are the
	// join's, measured in full, and were once called nodes of a tree).
	if e.Engine == count.EngineJoin {
		line("pairs", "cli.estimate.pairs", a)
	} else {
		line("nodes", "cli.estimate.nodes", a)
	}
	if j.Measured {
		line("time", "cli.estimate.time.measured", i18n.Args{"Time": dur(seconds(j.Seconds1)), "N": strconv.Itoa(o.n)})
		return
	}
	a = i18n.Args{"Time": estSecs(j.Seconds1), "TimeW": estSecs(j.SecondsW), "W": strconv.Itoa(w)}
	suffix := ""
	if w > 1 {
		suffix = ".w" // the same message with the time on w workers
	}
	if e.Engine == count.EngineJoin {
		a["Pct"] = fmt.Sprintf("%.0f", 100*e.SecondsErr/max(e.Seconds, 1e-9))
		line("time", "cli.estimate.time.join"+suffix, a)
		return
	}
	line("rate", "cli.estimate.rate", i18n.Args{"Rate": fmt.Sprintf("%.3g", j.NodesPerSec), "N": strconv.Itoa(j.RateN)})
	a["Pct"] = fmt.Sprintf("%.0f", 100*relErr)
	line("time", "cli.estimate.time.tree"+suffix, a)
}

// estimateRun estimates the engine's nodes for the units todo of N (nil:
// all) with Knuth probes and turns them into wall time with the node rate
// measured on N = 15 (or N itself when smaller), or takes the time the
// probes measured (the join), assuming the workers scale linearly.
func estimateRun(ctx context.Context, n int, todo []int, workers, probes int) (count.Estimate, float64, error) {
	if count.Engine(n) == count.EngineJoin {
		probes = min(probes, runJoinProbes)
	}
	var e count.Estimate
	var err error
	if todo == nil {
		e, err = count.EstimateTree(ctx, n, probes, 1)
	} else {
		e, err = count.EstimateUnits(ctx, n, todo, probes, 1)
	}
	if err != nil {
		return e, 0, err
	}
	if e.Engine == count.EngineJoin {
		// The join's own time, not the tree's node rate: its "nodes" are
		// pairs of half boards, which it compares some 3000 times faster.
		return e, e.Seconds / float64(workersOf(workers)), nil
	}
	rt, err := measuredRate(ctx, rateN)
	if err != nil {
		return e, 0, err
	}
	return e, e.Nodes / rt.NodesPerSec / float64(workersOf(workers)), nil
}

// runJoinProbes are the probes of the estimate before a count by the join.
// Each counts a key in full, work the count does again, and all of it
// before the count starts: 64 forecast N = 18 within about 6% in 0.6% of
// the count's time (estimate's 200, within 3.5%, took 1.9%, a serial part
// that kept two workers from twice the speed of one).
const runJoinProbes = 64

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
		return r, i18n.Wrap(err, "cli.estimate.rate.err", nil)
	}
	rateCache.m[n] = r
	return r, nil
}
