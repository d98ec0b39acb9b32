package count_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/seal"
)

// pathKey seals the ledgers and checkpoints of these tests.
var pathKey, _ = seal.FromSecret(bytes.Repeat([]byte{0x35}, 32))

func longTestsOn() bool { return os.Getenv("NQUEENS_LONG") == "1" }

// unitPathTop returns the largest N that TestUnitPath counts: 12 in
// -short, 16 under the race detector, 17 otherwise, 21 with
// NQUEENS_LONG=1 (N = 20 and 21 take about one and six minutes of CPU
// for each of the two ways).
func unitPathTop() int {
	switch {
	case testing.Short():
		return 12
	case longTestsOn():
		return 21
	case count.RaceOn:
		return 16
	}
	return 17
}

// TestUnitPath counts every N from 4 to unitPathTop() through the unit
// path twice, and checks both totals and unique counts against the
// published table (internal/reference):
//
//   - in three shards, each into its ledger, as `count --shard I/3
//     --ledger FILE` does (ledger.RunShard), the first shard interrupted
//     at a unit and run again to the end, then merged (ledger.Merge, as
//     `merge` does);
//   - in one count with a checkpoint, interrupted at the middle unit and
//     resumed from the checkpoint file (count.OpenCheckpoint).
//
// The interruptions hold a unit (internal/faults) and cancel the run when
// it is reached, so the machine's speed does not decide where they stop.
func TestUnitPath(t *testing.T) {
	for n := 4; n <= unitPathTop(); n++ {
		t.Run(fmt.Sprintf("N=%d/shards", n), func(t *testing.T) { shardsAgainstTable(t, n, 3) })
		t.Run(fmt.Sprintf("N=%d/checkpoint", n), func(t *testing.T) { checkpointAgainstTable(t, n) })
	}
}

// shardsAgainstTable counts N in k shards into ledgers, interrupting the
// first shard at its middle unit and resuming it, merges the ledgers and
// checks the merge against the published table.
func shardsAgainstTable(t *testing.T, n, k int) {
	dir := t.TempDir()
	var files []*ledger.File
	for i := range k {
		s := ledger.Shard{I: i, K: k}
		path := filepath.Join(dir, fmt.Sprintf("n%d-shard-%d.jsonl", n, i))
		var mine []int
		for u := range s.Units(n) {
			mine = append(mine, u)
		}
		if i == 0 && len(mine) >= 2 {
			held := mine[len(mine)/2]
			p, err := runShardUntil(t, n, s, path, held)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("shard %s held at unit %d: %v, want context.Canceled", s, held, err)
			}
			// One worker takes the units in order: those before the held
			// one are in the ledger.
			if p.Done != len(mine)/2 {
				t.Errorf("shard %s interrupted at unit %d: %d units saved, want %d", s, held, p.Done, len(mine)/2)
			}
		}
		l, err := ledger.Open(context.Background(), path, n, pathKey)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ledger.RunShard(context.Background(), n, s, l, ledger.ShardOptions{Workers: 2})
		l.Close()
		if err != nil {
			t.Fatalf("shard %s: %v", s, err)
		}
		if p.Done != len(mine) || i == 0 && len(mine) >= 2 && p.Resumed != len(mine)/2 {
			t.Errorf("shard %s: %+v, want %d units done", s, p, len(mine))
		}
		f, err := ledger.ReadFile(context.Background(), path, pathKey)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	rep, err := ledger.Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Result.Units != count.Units(n) {
		t.Errorf("merged %d units, want %d", rep.Result.Units, count.Units(n))
	}
	if err := reference.Check(n, rep.Result.Total.String(), rep.Result.Unique.String()); err != nil {
		t.Errorf("the shards merged: %v", err)
	}
}

// runShardUntil runs shard s of N into the ledger at path on one worker
// until it reaches unit held, then cancels it.
func runShardUntil(t *testing.T, n int, s ledger.Shard, path string, held int) (ledger.ShardProgress, error) {
	t.Helper()
	l, err := ledger.Open(context.Background(), path, n, pathKey)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	hold := faults.HoldUnit(n, held)
	defer hold.Release()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-hold.Reached()
		cancel()
	}()
	return ledger.RunShard(ctx, n, s, l, ledger.ShardOptions{Workers: 1, SaveEvery: time.Hour})
}

// checkpointAgainstTable counts N with a checkpoint, interrupted at its
// middle unit, resumes the count from the checkpoint file, and checks it
// against the published table.
func checkpointAgainstTable(t *testing.T, n int) {
	path := filepath.Join(t.TempDir(), fmt.Sprintf("n%d.ck", n))
	c, err := count.CreateCheckpoint(path, n, time.Hour, pathKey)
	if err != nil {
		t.Fatal(err)
	}
	held := count.Units(n) / 2
	hold := faults.HoldUnit(n, held)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-hold.Reached()
		cancel()
	}()
	_, err = count.Count(ctx, n, count.Options{Workers: 1, Checkpoint: c})
	hold.Release()
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("count held at unit %d: %v, want context.Canceled", held, err)
	}
	c, err = count.OpenCheckpoint(context.Background(), path, time.Hour, pathKey)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != held {
		t.Errorf("the interrupted count saved %d units, want the %d before unit %d", c.Len(), held, held)
	}
	searched := 0
	r, err := count.Count(context.Background(), n, count.Options{Checkpoint: c, OnUnit: func(count.UnitResult) { searched++ }})
	if err != nil {
		t.Fatal(err)
	}
	if searched != count.Units(n)-held {
		t.Errorf("the resumed count searched %d units, want %d", searched, count.Units(n)-held)
	}
	if err := reference.Check(n, r.Total.String(), r.Unique.String()); err != nil {
		t.Errorf("resumed from the checkpoint: %v", err)
	}
}
