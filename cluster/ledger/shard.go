package ledger

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
)

// Shard is part I of K (0 ≤ I < K) of a run: the units whose index is I
// modulo K.
type Shard struct{ I, K int }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.K) }

// maxShards bounds K; more shards than units would leave some empty.
const maxShards = 1 << 20

// ParseShard reads "I/K" with 0 ≤ I < K (I is 0-based, like
// JOB_COMPLETION_INDEX). Cost O(len(s)).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, i18n.NewError("count.shard.form", i18n.Args{"Value": strconv.Quote(s)})
	}
	i, err1 := strconv.Atoi(a)
	k, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return Shard{}, i18n.NewError("count.shard.whole", i18n.Args{"Value": strconv.Quote(s)})
	}
	sh := Shard{i, k}
	return sh, sh.check()
}

func (s Shard) check() error {
	if s.K < 1 || s.K > maxShards {
		return i18n.NewError("count.shard.k", i18n.Args{"K": strconv.Itoa(s.K), "Max": strconv.Itoa(maxShards)})
	}
	if s.I < 0 || s.I >= s.K {
		return i18n.NewError("count.shard.i", i18n.Args{"I": strconv.Itoa(s.I), "Max": strconv.Itoa(s.K - 1)})
	}
	return nil
}

// ShardFromEnv returns shard I of k with I taken from JOB_COMPLETION_INDEX
// (Kubernetes Indexed Jobs) or else SLURM_ARRAY_TASK_ID (Slurm arrays, which
// must be submitted as --array=0-(K-1)). getenv is os.Getenv in production.
func ShardFromEnv(k int, getenv func(string) string) (Shard, error) {
	for _, name := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			continue
		}
		i, err := strconv.Atoi(v)
		if err != nil {
			return Shard{}, i18n.NewError("ledger.env.whole", i18n.Args{"Name": name, "Value": strconv.Quote(v)})
		}
		s := Shard{i, k}
		if err := s.check(); err != nil {
			return Shard{}, i18n.Wrap(err, "ledger.env.at", i18n.Args{"Name": name, "Value": v})
		}
		return s, nil
	}
	return Shard{}, i18n.NewError("ledger.env.unset", i18n.Args{"Job": "JOB_COMPLETION_INDEX", "Slurm": "SLURM_ARRAY_TASK_ID"})
}

// Units yields the unit indices of the shard for N in increasing order.
// Cost O(units/K) for the whole sequence.
func (s Shard) Units(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		if s.K < 1 {
			return
		}
		for i := s.I; i < count.Units(n); i += s.K {
			if !yield(i) {
				return
			}
		}
	}
}

// Size returns the number of units of the shard for N. Cost O(1).
func (s Shard) Size(n int) int {
	u := count.Units(n)
	if s.K < 1 || s.I >= u {
		return 0
	}
	return (u-s.I-1)/s.K + 1
}

// ShardOptions tune [RunShard]. The zero value uses every core and saves
// results every 2 seconds.
type ShardOptions struct {
	Workers int // goroutines counting units; 0 means GOMAXPROCS
	// SaveEvery is the longest time a finished unit waits before it is
	// appended (and synced) to the ledger; what a kill can lose.
	SaveEvery time.Duration
	// Progress, if set, is called after every append, from one goroutine.
	Progress func(ShardProgress)
}

// ShardProgress reports a shard's state.
type ShardProgress struct {
	Shard   Shard
	Units   int           // units of the shard
	Resumed int           // found in the ledger at the start
	Done    int           // in the ledger now (resumed included)
	Waiting int           // counted, to be written at the next save
	Nodes   count.Uint128 // nodes of the units counted in this run, waiting ones included
	Elapsed time.Duration
}

// Appends are batched: at most every SaveEvery, or as soon as this many
// units wait, so that a line stays a few hundred kilobytes.
const (
	defaultSaveEvery = 2 * time.Second
	maxRecordUnits   = 4096
)

// RunShard counts the units of shard s of N that the ledger lacks and
// appends their results to it, with the shard named in each record (it
// sets l.Shard, or refuses a ledger open for another shard). If ctx ends
// first it saves the units finished so far and returns ctx's error; a later
// call resumes. Cost: the shard's share of the count.
func RunShard(ctx context.Context, n int, s Shard, l *Ledger, o ShardOptions) (ShardProgress, error) {
	start := time.Now()
	if err := s.check(); err != nil {
		return ShardProgress{}, err
	}
	if l.n != n {
		return ShardProgress{}, i18n.NewError("ledger.othern", i18n.Args{"Path": l.path, "Held": strconv.Itoa(l.n), "N": strconv.Itoa(n)})
	}
	// The records name their shard, so that merge can say which shard to
	// rerun when one left nothing at all.
	switch l.Shard {
	case "":
		l.Shard = s.String()
	case s.String():
	default:
		return ShardProgress{}, i18n.NewError("ledger.othershard", i18n.Args{"Path": l.path, "Held": l.Shard, "Shard": s.String()})
	}
	p := ShardProgress{Shard: s, Units: s.Size(n)}
	var todo []int
	for i := range s.Units(n) {
		if l.Has(i) {
			p.Resumed++
		} else {
			todo = append(todo, i)
		}
	}
	p.Done = p.Resumed
	every := o.SaveEvery
	if every <= 0 {
		every = defaultSaveEvery
	}
	var waiting count.Batch
	lastSave := time.Now()
	save := func() error {
		if len(waiting.Units) == 0 {
			return nil
		}
		if err := l.Append(waiting.Units, waiting.Seconds); err != nil {
			return err
		}
		p.Done += len(waiting.Units)
		p.Waiting = 0
		waiting = count.Batch{}
		lastSave = time.Now()
		if o.Progress != nil {
			p.Elapsed = time.Since(start)
			o.Progress(p)
		}
		return nil
	}
	err := count.RunUnits(ctx, n, todo, count.RunOptions{
		Workers: o.Workers,
		Take: func(b count.Batch) error {
			// b is reused after Take returns: keep copies.
			waiting.Units = append(waiting.Units, b.Units...)
			waiting.Seconds += b.Seconds
			p.Waiting = len(waiting.Units)
			for _, u := range b.Units {
				p.Nodes, _ = p.Nodes.Add(count.U128(u.Nodes))
			}
			if len(waiting.Units) >= maxRecordUnits || time.Since(lastSave) >= every {
				return save()
			}
			// Every hand-over, not only every save: a bar that moved
			// every 2 s looked stuck.
			if o.Progress != nil {
				p.Elapsed = time.Since(start)
				o.Progress(p)
			}
			return nil
		},
	})
	if serr := save(); err == nil {
		err = serr
	}
	p.Elapsed = time.Since(start)
	if err != nil {
		return p, i18n.Stopped(i18n.NewError("count.shard.stopped", i18n.Args{"Shard": s.String(), "N": n, "Done": p.Done, "Units": p.Units}), err)
	}
	return p, nil
}
