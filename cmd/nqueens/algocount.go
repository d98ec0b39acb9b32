package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// firstRun is how long the first run of count --algo may take before it is
// stopped to estimate the whole run.
const firstRun = 50 * time.Millisecond

// algoCount is count N --algo NAME: one classic strategy's count of the
// solutions, with --stats every counter and the time.
type algoCount struct {
	*countCommon
	name     string
	stats    bool
	n        int
	strategy classic.Strategy // named by --algo
}

func newAlgoCount(cmd *cobra.Command, p *i18n.Printer, c *countCommon) *algoCount {
	o := &algoCount{countCommon: c}
	fl := cmd.Flags()
	fl.StringVar(&o.name, "algo", "", p.T("help.count.flag.algo", nil))
	fl.BoolVar(&o.stats, "stats", false, p.T("help.count.flag.stats", nil))
	algoNames(cmd, "algo")
	return o
}

func (o *algoCount) chosen() bool { return o.name != "" }

func (o *algoCount) check() (err error) {
	if o.stats && o.name == "" {
		return usageT("cli.with", i18n.Args{"Flag": "--stats", "With": "--algo NAME"})
	}
	if o.name != "" {
		o.strategy, err = lookupAlgo(o.name)
	}
	return err
}

func (o *algoCount) validate(args []string) (err error) {
	o.n, err = countN(args)
	return err
}

// run runs the strategy and prints its number of solutions, with --stats
// every counter and the time.
func (o *algoCount) run(ctx context.Context) error {
	n, s, stats, jsonOut, yes := o.n, o.strategy, o.stats, o.jsonOut, o.yes
	// A short first run either finishes (most boards) or measures the
	// strategy's speed for an estimate of the whole run.
	run, cancel := context.WithTimeout(ctx, firstRun)
	c, stopped := s.Solve(run, n, nil)
	cancel()
	var se *classic.SizeError
	switch {
	case ctx.Err() != nil:
		return interruptedT("cli.algo.int", i18n.Args{"Algo": s.Name(), "Counters": counters(c)})
	case errors.As(stopped, &se):
		return &usageError{stopped}
	}
	if stopped != nil {
		secs, how := algoTime(s, n, c)
		if secs > longRun.Seconds() && !yes {
			return usageT(how+".long", i18n.Args{"Algo": s.Name(), "N": n, "Time": estSecs(secs)})
		}
		o.noteT(how, i18n.Args{"Algo": s.Name(), "N": n, "Time": estSecs(secs)})
		var err error
		if c, err = s.Solve(ctx, n, nil); err != nil {
			if ctx.Err() != nil {
				return interruptedT("cli.algo.int", i18n.Args{"Algo": s.Name(), "Counters": counters(c)})
			}
			return i18n.Wrap(err, "cli.algo.stopped", i18n.Args{"Algo": s.Name(), "Counters": counters(c)})
		}
	}
	// Like the engine's, a classic count that differs from the published
	// one is an error, never a number.
	ref := count.ReferenceOf(n)
	var matches *bool
	if ref != nil {
		m := ref.Total == count.U128(c.Solutions)
		if !m {
			return errT("cli.algo.wrong", i18n.Args{"Algo": s.Name(), "Got": strconv.FormatUint(uint64(c.Solutions), 10), "N": n, "Want": ref.Total.String()})
		}
		matches = &m
	}
	w := o.stdout
	if jsonOut {
		out := struct {
			N         int               `json:"n"`
			Algorithm string            `json:"algorithm"`
			Solutions uint64            `json:"solutions"`
			Counters  *classic.Counters `json:"counters,omitempty"`
			Reference *count.Reference  `json:"reference"`
			Matches   *bool             `json:"matches"`
		}{N: n, Algorithm: s.Name(), Solutions: c.Solutions, Reference: ref, Matches: matches}
		if stats {
			out.Counters = &c
		}
		line, err := json.Marshal(out)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", line)
		return err
	}
	if !stats {
		_, err := fmt.Fprintln(w, c.Solutions)
		return err
	}
	for _, kv := range [][2]string{
		{"algorithm", s.Name()},
		{"n", fmt.Sprint(n)},
		{"solutions", classic.Group(c.Solutions)},
		{"nodes", classic.Group(c.Nodes)},
		{"tries", classic.Group(c.Tries)},
		{"reads", classic.Group(c.Reads)},
		{"placed", classic.Group(c.Placed)},
		{"rejected", classic.Group(c.Rejected)},
		{"backtracks", classic.Group(c.Backtracks)},
		{"time", roundDuration(c.Elapsed).String()},
	} {
		if _, err := fmt.Fprintf(w, "%-11s %s\n", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// groupBig writes a big number exactly with thousands separators, or
// roughly (1.05e+26) when it has more than 30 digits.
func groupBig(v *big.Int) string {
	s := v.String()
	if len(s) > 30 {
		f, _ := new(big.Float).SetInt(v).Float64()
		return fmt.Sprintf("%.3g", f)
	}
	return classic.GroupDigits(s)
}

// algoTime estimates the seconds a whole run of s on n takes from the
// counters of a run stopped after calibration: the candidates a brute-force
// strategy tests over its measured rate, or for a backtracking strategy a
// lower bound, the published number of solutions (each one a node of its
// search) over its measured node rate. how says which ("about", "at least").
// how is the message key of the note (an estimate, or a lower bound), how
// + ".long" the one of the refusal.
func algoTime(s classic.Strategy, n int, c classic.Counters) (secs float64, how string) {
	rate := float64(max(c.Nodes, 1)) / max(c.Elapsed.Seconds(), 1e-9)
	if e, ok := s.(classic.Estimator); ok {
		work, _ := new(big.Float).SetInt(e.Candidates(n)).Float64()
		return work / rate, "cli.algo.about"
	}
	return solutionsAtLeast(n) / rate, "cli.algo.atleast"
}

// solutionsAtLeast is the published Q(N), or past the table a lower bound:
// Q(N+1)/Q(N) is over 10 from N = 24 on and grows with N.
func solutionsAtLeast(n int) float64 {
	for k := n; k >= 1; k-- {
		if total, _, ok := count.Known(k); ok {
			return total.Float64() * math.Pow(10, float64(n-k))
		}
	}
	return 1
}
