package main

import (
	"context"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// shardCount is count N --shard I/K --ledger FILE (or --shard-from-env
// --shards K): the array-job mode of count, one shard of the units counted
// into a ledger file (see docs/cluster.md).
type shardCount struct {
	*countCommon
	shard     string
	ledger    string
	fromEnv   bool
	shards    int
	saveEvery time.Duration
	n         int
	sh        ledger.Shard // the shard the flags name
}

// newShardCount registers --shard, --ledger, --shard-from-env, --shards
// and --ledger-every on the count command.
func newShardCount(cmd *cobra.Command, p *i18n.Printer, c *countCommon) *shardCount {
	o := &shardCount{countCommon: c}
	fl := cmd.Flags()
	fl.StringVar(&o.shard, "shard", "", p.T("help.count.flag.shard", nil))
	fl.StringVar(&o.ledger, "ledger", "", p.T("help.count.flag.ledger", nil))
	fl.BoolVar(&o.fromEnv, "shard-from-env", false, p.T("help.count.flag.shard-from-env", nil))
	fl.IntVar(&o.shards, "shards", 0, p.T("help.count.flag.shards", nil))
	fl.DurationVar(&o.saveEvery, "ledger-every", 2*time.Second, p.T("help.count.flag.ledger-every", nil))
	return o
}

// chosen reports whether count was asked for a shard rather than a whole
// count.
func (o *shardCount) chosen() bool {
	return o.shard != "" || o.ledger != "" || o.fromEnv || o.shards != 0
}

// check reads the shard the flags name, if any: a shard flag given with
// another mode lacks its --ledger, which excludes the others. (The flag
// groups of count have excluded --shard with --shard-from-env, and
// --shard-from-env without --shards.)
func (o *shardCount) check() (err error) {
	if o.chosen() {
		o.sh, err = o.resolve()
	}
	return err
}

func (o *shardCount) validate(args []string) (err error) {
	o.n, err = countN(args)
	return err
}

// resolve checks the shard flags and returns the shard they name.
func (o *shardCount) resolve() (ledger.Shard, error) {
	var sh ledger.Shard
	var err error
	switch {
	case o.ledger == "":
		return sh, usageT("cli.shard.ledger", nil)
	case o.shard != "":
		if sh, err = ledger.ParseShard(o.shard); err != nil {
			return sh, &usageError{i18n.Wrap(err, "cli.where", i18n.Args{"Name": "--shard"})}
		}
	case o.fromEnv:
		if o.shards < 1 {
			return sh, usageT("cli.shard.shards", i18n.Args{"Value": strconv.Itoa(o.shards)})
		}
		if sh, err = ledger.ShardFromEnv(o.shards, os.Getenv); err != nil {
			return sh, &usageError{i18n.Wrap(err, "cli.where", i18n.Args{"Name": "--shard-from-env"})}
		}
	default:
		return sh, usageT("cli.shard.needshard", nil)
	}
	if o.saveEvery <= 0 {
		return sh, usageT("cli.count.every", i18n.Args{"Flag": "--ledger-every", "Value": o.saveEvery.String()})
	}
	return sh, nil
}

// run counts shard I/K of N into the ledger; the merge command adds the
// ledgers up.
func (o *shardCount) run(ctx context.Context) error {
	n, sh := o.n, o.sh
	key, err := o.key.get(o.stderr, o.quiet)
	if err != nil {
		return err
	}
	l, err := ledger.Open(ctx, o.ledger, n, key)
	if err != nil {
		return err
	}
	defer l.Close()
	l.Worker, _ = os.Hostname()
	l.Shard = sh.String()
	if l.Repaired > 0 {
		o.noteT("cli.shard.repaired", i18n.Args{"Path": o.ledger, "Line": l.Repaired})
	}
	view := newProgressView(o.stderr, o.printer(), o.printer().T("cli.shard.label", i18n.Args{"Shard": sh.String(), "N": n}), "units", o.quiet)
	p, err := ledger.RunShard(ctx, n, sh, l, ledger.ShardOptions{
		Workers:   o.workers,
		SaveEvery: o.saveEvery,
		Progress: func(p ledger.ShardProgress) {
			view.update(progressState{Done: p.Done + p.Waiting, Units: p.Units, Resumed: p.Resumed, Nodes: p.Nodes, Elapsed: p.Elapsed})
		},
	})
	view.finish(err == nil)
	if p.Resumed > 0 {
		o.noteN("cli.shard.resumed", p.Units, i18n.Args{"Count": strconv.Itoa(p.Units), "Shard": sh.String(), "N": n, "Resumed": strconv.Itoa(p.Resumed), "Path": o.ledger})
	}
	if err != nil {
		if errors.Is(err, ctx.Err()) && ctx.Err() != nil {
			return interruptedT("cli.shard.int", i18n.Args{"How": howStopped{err}, "Path": o.ledger})
		}
		return i18n.Wrap(err, "cli.shard.failed", i18n.Args{"Path": o.ledger})
	}
	if o.jsonOut {
		return writeJSONLine(o.stdout, struct {
			N       int     `json:"n"`
			Shard   string  `json:"shard"`
			Units   int     `json:"units"`
			Resumed int     `json:"resumed"`
			Seconds float64 `json:"seconds"`
			Ledger  string  `json:"ledger"`
		}{n, sh.String(), p.Units, p.Resumed, p.Elapsed.Seconds(), o.ledger})
	}
	o.noteN("cli.shard.done", p.Units, i18n.Args{"Count": strconv.Itoa(p.Units), "Shard": sh.String(), "N": n, "Path": o.ledger, "Time": dur(p.Elapsed)})
	return nil
}
