package ledger

// Tests with real processes: the nqueens command is built once, with the
// fault-injection hooks of internal/faults compiled in, and the shards of
// an array job run as separate processes, one of them killed with SIGKILL.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
)

func TestMain(m *testing.M) { os.Exit(testkit.Run(m)) }

// holdEnv makes a test build hold a unit until SIGUSR1, saying so on
// stderr (heldRx); see internal/faults.
const (
	holdEnv = "NQUEENS_FAULT_HOLD_UNIT"
	heldRx  = `fault injection: holding unit (\d+)`
)

// TestProcessArrayShards runs the K = 4 shards of N = 12 as separate
// processes (two of them taking their index from the environment, as in a
// Kubernetes Indexed Job and a Slurm array), kills shard 2 with SIGKILL
// while it holds its fifth unit (fault injection) and its ledger holds the
// four before, and checks that merge lists the missing units, that the
// rerun skips what the ledger holds, and that the merge of the four
// ledgers is exact.
func TestProcessArrayShards(t *testing.T) {
	const n, k = 12, 4
	const held, kept = 18, 4 // shard 2 of 4 counts units 2, 6, 10, 14, 18, …
	dir := t.TempDir()
	ledgerOf := func(i int) string { return filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i)) }
	shard := func(i int, env ...string) *testkit.Proc {
		args := []string{"count", strconv.Itoa(n), "--ledger", ledgerOf(i), "--workers", "1", "--ledger-every", "20ms"}
		switch i {
		case 1:
			env = append(env, "JOB_COMPLETION_INDEX=1")
			args = append(args, "--shard-from-env", "--shards", strconv.Itoa(k))
		case 3:
			env = append(env, "SLURM_ARRAY_TASK_ID=3")
			args = append(args, "--shard-from-env", "--shards", strconv.Itoa(k))
		default:
			args = append(args, "--shard", fmt.Sprintf("%d/%d", i, k))
		}
		return testkit.StartFaulty(t, fmt.Sprintf("shard %d", i), env, args...)
	}
	merge := func(paths ...string) *testkit.Proc {
		p := testkit.StartFaulty(t, "merge", nil, append([]string{"merge"}, paths...)...)
		p.Wait(t)
		return p
	}
	var procs []*testkit.Proc
	for i := range k {
		var env []string
		if i == 2 {
			env = []string{fmt.Sprintf("%s=%d", holdEnv, held)}
		}
		procs = append(procs, shard(i, env...))
	}
	procs[2].WaitMatch(t, heldRx)
	testkit.WaitFor(t, "shard 2's ledger to hold the units before the held one", func() bool {
		lf, err := ReadFile(context.Background(), ledgerOf(2), testkit.UserKey(t))
		return err == nil && lf.Units() == kept
	})
	procs[2].Kill()
	for i, p := range procs {
		if code := p.Wait(t); i != 2 && code != 0 {
			t.Fatalf("shard %d exit %d: %s", i, code, p.Stderr.String())
		}
	}
	lf, err := ReadFile(context.Background(), ledgerOf(2), testkit.UserKey(t))
	if err != nil {
		t.Fatal(err)
	}
	size := (Shard{2, k}).Size(n)
	if got := lf.Units(); got != kept {
		t.Fatalf("killed shard 2 left %d of its %d units, want the %d before the held unit", got, size, kept)
	}

	all := []string{ledgerOf(0), ledgerOf(1), ledgerOf(2), ledgerOf(3)}
	if p := merge(all...); p.Wait(t) != 1 || !strings.Contains(p.Stderr.String(), fmt.Sprintf("%d of %d units of N = %d are missing: ", size-kept, count.Units(n), n)) {
		t.Errorf("merge with the killed shard: exit %d, stdout %q, stderr %s", p.Wait(t), p.Stdout.String(), p.Stderr.String())
	}
	without := []string{ledgerOf(0), ledgerOf(1), ledgerOf(3)}
	if p := merge(without...); p.Wait(t) != 1 || !strings.Contains(p.Stderr.String(), "(no result at all from shard 2/4: rerun it): 2, 6, 10, 14,") {
		t.Errorf("merge without shard 2: exit %d, stderr %s", p.Wait(t), p.Stderr.String())
	}

	rerun := shard(2)
	if code := rerun.Wait(t); code != 0 {
		t.Fatalf("rerun of shard 2: exit %d: %s", code, rerun.Stderr.String())
	}
	if want := fmt.Sprintf("%d of its %d units were already in", kept, size); !strings.Contains(rerun.Stderr.String(), want) {
		t.Errorf("rerun of shard 2 did not say %q:\n%s", want, rerun.Stderr.String())
	}
	p := merge(all...)
	if code := p.Wait(t); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, p.Stderr.String())
	}
	if err := reference.CheckOutput(n, p.Stdout.String()); err != nil {
		t.Error(err)
	}
	// A ledger given twice holds equal duplicates only.
	p = merge(append(all, ledgerOf(2))...)
	if code := p.Wait(t); code != 0 || !strings.Contains(p.Stderr.String(), fmt.Sprintf("%d units were counted more than once", size)) {
		t.Errorf("merge with a ledger twice: exit %d: %s", code, p.Stderr.String())
	}
	if err := reference.CheckOutput(n, p.Stdout.String()); err != nil {
		t.Error(err)
	}
}
