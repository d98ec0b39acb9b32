package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// rangeCount is count --range A-B: a table of every N from A to B.
type rangeCount struct {
	*countCommon
	arg    string
	lo, hi int
}

func newRangeCount(cmd *cobra.Command, p *i18n.Printer, c *countCommon) *rangeCount {
	o := &rangeCount{countCommon: c}
	cmd.Flags().StringVar(&o.arg, "range", "", p.T("help.count.flag.range", nil))
	return o
}

func (o *rangeCount) chosen() bool { return o.arg != "" }

func (o *rangeCount) check() error { return nil }

func (o *rangeCount) validate(args []string) error {
	if len(args) != 0 {
		return usageT("cli.range.both", nil)
	}
	var err error
	o.lo, o.hi, err = parseRange(o.arg)
	return err
}

// parseRange reads "A-B" with 1 ≤ A ≤ B ≤ MaxN.
func parseRange(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, usageT("cli.range.form", i18n.Args{"Value": strconv.Quote(s)})
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
		return 0, 0, usageT("cli.range.empty", i18n.Args{"Value": s, "Lo": lo, "Hi": hi})
	}
	return lo, hi, nil
}

// run counts every N of --range and prints a table. Every count is
// checked against the published table by the count itself, so a row that
// prints is exact.
func (o *rangeCount) run(ctx context.Context) error {
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
			return usageT("cli.range.long", i18n.Args{"Value": o.arg, "Time": estSecs(sum)})
		}
	}
	w := o.stdout
	if !o.jsonOut {
		fmt.Fprintln(w, "n\ttotal\tunique\tseconds\treference")
	}
	for n := lo; n <= hi; n++ {
		prog := newProgressView(o.stderr, o.printer(), fmt.Sprintf("count %d", n), "units", o.quiet)
		r, err := count.Count(ctx, n, count.Options{Workers: o.workers, Progress: prog.updateCount})
		prog.finish(err == nil)
		if err != nil && ctx.Err() != nil && n > lo {
			return interruptedT("cli.range.int", i18n.Args{"How": howStopped{err}, "Last": n - 1, "Again": fmt.Sprintf("nqueens count --range %d-%d", n, hi)})
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
