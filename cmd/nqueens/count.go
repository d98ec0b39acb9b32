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

func newCountCmd(p *i18n.Printer) *cobra.Command {
	o := &countOptions{}
	c := &o.countCommon
	cmd := &cobra.Command{
		Use:   "count N | count --resume FILE | count --range A-B",
		Short: p.T("help.count.short", nil),
		Long:  p.T("help.count.long", nil),
		Args:  maxArgs(1),
	}
	fl := cmd.Flags()
	fl.IntVarP(&c.workers, "workers", "w", 0, p.T("help.flag.workers", nil))
	fl.BoolVar(&c.jsonOut, "json", false, p.T("help.count.flag.json", nil))
	fl.BoolVarP(&c.quiet, "quiet", "q", false, p.T("help.flag.quiet", nil))
	fl.BoolVar(&c.yes, "yes", false, p.T("help.count.flag.yes", nil))
	addKeyFlag(cmd, p, &c.key)
	addMemoryFlag(cmd, p, &c.memory)
	// In the order the flags choose them: --algo, --range, a shard flag, a
	// variant flag, else a count of N.
	whole := newWholeCount(cmd, p, c)
	o.modes = []countMode{newAlgoCount(cmd, p, c), newRangeCount(cmd, p, c), newShardCount(cmd, p, c), newVariantCount(cmd, p, c, whole), whole}
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
