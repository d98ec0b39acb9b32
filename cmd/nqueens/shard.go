package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/spf13/cobra"
)

// shardFlags are the array-job options of count: count one shard of the
// units into a ledger file (see docs/cluster.md).
type shardFlags struct {
	shard     string
	ledger    string
	fromEnv   bool
	shards    int
	saveEvery time.Duration
}

// addShardFlags registers --shard, --ledger, --shard-from-env and --shards
// on the count command.
func addShardFlags(cmd *cobra.Command) *shardFlags {
	s := &shardFlags{}
	fl := cmd.Flags()
	fl.StringVar(&s.shard, "shard", "", "count only shard I/K (0 ≤ I < K: the units whose index is I mod K) into --ledger")
	fl.StringVar(&s.ledger, "ledger", "", "append the shard's unit results to this JSON Lines file (skipping units already in it)")
	fl.BoolVar(&s.fromEnv, "shard-from-env", false, "take the shard index I from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID (needs --shards K)")
	fl.IntVar(&s.shards, "shards", 0, "number of shards K, with --shard-from-env")
	fl.DurationVar(&s.saveEvery, "ledger-every", 2*time.Second, "longest time a finished unit waits before it is synced to the ledger")
	return s
}

// active reports whether count was asked for a shard rather than a whole
// count.
func (s *shardFlags) active() bool {
	return s.shard != "" || s.ledger != "" || s.fromEnv || s.shards != 0
}

// resolve checks the shard flags and returns the shard they name (the
// flag groups of count have excluded --shard with --shard-from-env, and
// --shard-from-env without --shards).
func (s *shardFlags) resolve() (ledger.Shard, error) {
	var sh ledger.Shard
	var err error
	switch {
	case s.ledger == "":
		return sh, usagef("a shard needs --ledger FILE to write its results to")
	case s.shard != "":
		if sh, err = ledger.ParseShard(s.shard); err != nil {
			return sh, usagef("--shard: %v", err)
		}
	case s.fromEnv:
		if s.shards < 1 {
			return sh, usagef("--shards K is the number of array tasks, at least 1; got %d", s.shards)
		}
		if sh, err = ledger.ShardFromEnv(s.shards, os.Getenv); err != nil {
			return sh, usagef("--shard-from-env: %v", err)
		}
	default:
		return sh, usagef("--ledger needs --shard I/K or --shard-from-env --shards K")
	}
	if s.saveEvery <= 0 {
		return sh, usagef("--ledger-every must be positive, got %s", s.saveEvery)
	}
	return sh, nil
}

// runShard counts shard I/K of N into the ledger; the merge command adds
// the ledgers up.
func (o *countOptions) runShard(ctx context.Context) error {
	n, s, sh := o.n, o.shard, o.sh
	key, err := o.key.get(o.stderr, o.quiet)
	if err != nil {
		return err
	}
	l, err := ledger.Open(s.ledger, n, key)
	if err != nil {
		return err
	}
	defer l.Close()
	l.Worker, _ = os.Hostname()
	l.Shard = sh.String()
	note := func(format string, args ...any) {
		if !o.quiet {
			fmt.Fprintf(o.stderr, "nqueens: "+format+"\n", args...)
		}
	}
	if l.Repaired > 0 {
		note("%s:%d: removed a last line cut short while it was written (a kill, a crash or a full disk)", s.ledger, l.Repaired)
	}
	view := newProgressView(o.stderr, fmt.Sprintf("shard %s of N = %d", sh, n), "units", o.quiet)
	p, err := ledger.RunShard(ctx, n, sh, l, ledger.ShardOptions{
		Workers:   o.workers,
		SaveEvery: s.saveEvery,
		Progress: func(p ledger.ShardProgress) {
			view.update(progressState{Done: p.Done + p.Waiting, Units: p.Units, Resumed: p.Resumed, Nodes: p.Nodes, Elapsed: p.Elapsed})
		},
	})
	view.finish(err == nil)
	if p.Resumed > 0 {
		note("shard %s of N = %d: %d of its %s were already in %s", sh, n, p.Resumed, plural(p.Units, "unit"), s.ledger)
	}
	if err != nil {
		if errors.Is(err, ctx.Err()) && ctx.Err() != nil {
			return interruptedf("%s; the ledger %s keeps the finished units, run the same command again to continue", stoppedHow(err), s.ledger)
		}
		return fmt.Errorf("%w; the ledger %s keeps the units synced before, run the same command again to continue once this is fixed", err, s.ledger)
	}
	if o.jsonOut {
		return writeJSONLine(o.stdout, struct {
			N       int     `json:"n"`
			Shard   string  `json:"shard"`
			Units   int     `json:"units"`
			Resumed int     `json:"resumed"`
			Seconds float64 `json:"seconds"`
			Ledger  string  `json:"ledger"`
		}{n, sh.String(), p.Units, p.Resumed, p.Elapsed.Seconds(), s.ledger})
	}
	note("shard %s of N = %d complete: %s in %s (%s); add up all shards with: nqueens merge LEDGER…",
		sh, n, plural(p.Units, "unit"), s.ledger, formatDuration(p.Elapsed))
	return nil
}
