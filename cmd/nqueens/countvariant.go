package main

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/variant"
	"github.com/spf13/cobra"
)

// variantCount is count N with --torus, --super, --queens K or --cols M
// (docs/variants.md): a variant counted by its own engine. Flags that
// spell the N-Queens problem itself (count 8 --cols 8) have count's own
// engine count it, faster and checked against the published table.
type variantCount struct {
	*countCommon
	flags *variantFlags
	spec  variant.Spec
	whole *wholeCount // for a variant that is the N-Queens problem
}

func newVariantCount(cmd *cobra.Command, p *i18n.Printer, c *countCommon, whole *wholeCount) *variantCount {
	flags := addVariantFlags(cmd, p, "range", "algo", "ledger", "checkpoint", "resume", "shard", "shard-from-env")
	return &variantCount{countCommon: c, flags: flags, whole: whole}
}

func (o *variantCount) chosen() bool { return o.flags.active(o.given) }

// check: the variant flags' values are checked with N, by validate.
func (o *variantCount) check() error { return nil }

func (o *variantCount) validate(args []string) error {
	n, err := countN(args)
	if err != nil {
		return err
	}
	if o.spec, err = o.flags.spec(n, o.given); err != nil {
		return err
	}
	if plain(o.spec) {
		return o.whole.validate(args)
	}
	return nil
}

// variantRateFrom is the estimated nodes from which a variant's count
// measures the node rate and prints its estimated time (about a second).
const variantRateFrom = 1e8

// run counts the variant o.spec, or has count's own engine count the
// N-Queens problem that the flags may spell (count 8 --cols 8).
func (o *variantCount) run(ctx context.Context) error {
	if plain(o.spec) {
		return o.whole.run(ctx)
	}
	s := o.spec
	e, err := variant.EstimateTree(ctx, s, 2000, 1)
	if ie := stoppedEarly(ctx, err, i18n.NewError("cli.what.variant.estimate", i18n.Args{"Variant": s}), i18n.NewError("cli.kept.nothingprinted", nil)); ie != nil {
		return ie
	} else if err != nil {
		return err
	}
	var est float64
	if e.Nodes >= variantRateFrom {
		rt, err := variant.MeasureRate(ctx, s)
		if ie := stoppedEarly(ctx, err, i18n.NewError("cli.what.variant.rate", i18n.Args{"Variant": s}), i18n.NewError("cli.kept.nothingprinted", nil)); ie != nil {
			return ie
		} else if err != nil {
			return i18n.Wrap(err, "cli.estimate.rate.err", nil)
		}
		secs := e.Nodes / rt.NodesPerSec / float64(workersOf(o.workers))
		o.noteN("cli.variant.about", workersOf(o.workers), i18n.Args{"Variant": s, "Time": estSecs(secs),
			"Nodes": fmt.Sprintf("%.3g", e.Nodes), "Err": fmt.Sprintf("%.1g", e.NodesErr), "Rate": fmt.Sprintf("%.3g", rt.NodesPerSec)})
		if secs > longRun.Seconds() && !o.yes {
			return usageT("cli.variant.long", i18n.Args{"Variant": s, "Time": estSecs(secs)})
		}
		est = e.Nodes
	}
	prog := newProgressView(o.stderr, o.printer(), "count "+s.String(), "units", o.quiet)
	prog.setEstimate(est)
	r, err := variant.Count(ctx, s, variant.Options{Workers: o.workers, Progress: func(p variant.Progress) {
		prog.update(progressState{Done: p.UnitsDone, Units: p.Units, Nodes: p.Nodes, Elapsed: p.Elapsed})
	}})
	prog.finish(err == nil)
	if ie := stoppedEarly(ctx, err, i18n.NewError("cli.what.variant.count", i18n.Args{"Variant": s}), i18n.NewError("cli.kept.variant", nil)); ie != nil {
		return ie
	} else if err != nil {
		return err
	}
	if why := s.NoneFitWhy(); why != nil {
		o.noteT("count.variant.nonefit", i18n.Args{"Why": why}) // r.Note, in the reader's language
	} else if r.Note != "" {
		o.note("%s", r.Note)
	}
	return printVariantResult(o.stdout, r, o.jsonOut)
}
