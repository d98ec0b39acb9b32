package cluster

// Tests with real processes: the nqueens command is built once, with the
// fault-injection hooks of internal/faults compiled in, and coordinators,
// workers and shards run as separate processes on loopback, some of them
// killed with SIGKILL, some of them lying. Every wait is bounded by
// testkit.WaitLimit.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
)

// The command under test is built once, on first use (testkit.BuildBinary):
// fuzzing workers and runs of the unit tests alone (-run) never pay for the
// build.
func TestMain(m *testing.M) { os.Exit(testkit.Run(m)) }

// proc is one nqueens process.
type proc struct {
	name           string
	cmd            *exec.Cmd
	stdout, stderr syncbuf.Buffer
	done           chan struct{}
	err            error
}

// start runs nqueens with args; env adds variables. The process is killed
// at the end of the test if it still runs.
func start(t *testing.T, name string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, done: make(chan struct{})}
	p.cmd = exec.Command(testkit.BuildBinary(t, "nqueens_faults"), args...)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.kill()
		<-p.done
		if t.Failed() {
			t.Logf("%s (%s) stderr:\n%s", p.name, strings.Join(args, " "), p.stderr.String())
		}
	})
	return p
}

func (p *proc) kill() {
	select {
	case <-p.done:
	default:
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
	}
}

// wait waits for the process to end and returns its exit code.
func (p *proc) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(testkit.WaitLimit):
		t.Fatalf("%s still runs after %s; stderr:\n%s", p.name, testkit.WaitLimit, p.stderr.String())
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	if p.err != nil {
		t.Fatalf("%s: %v", p.name, p.err)
	}
	return 0
}

// waitMatch waits until the process's stderr matches re and returns the
// submatches.
func (p *proc) waitMatch(t *testing.T, re string) []string {
	t.Helper()
	rx := regexp.MustCompile(re)
	var m []string
	testkit.WaitFor(t, fmt.Sprintf("%s to log %q", p.name, re), func() bool {
		m = rx.FindStringSubmatch(p.stderr.String())
		return m != nil
	})
	return m
}

// checkTotal compares "total X\nunique Y\n" with the reference table.
func checkTotal(t *testing.T, n int, stdout string) {
	t.Helper()
	var total, unique string
	if _, err := fmt.Sscanf(stdout, "total %s\nunique %s\n", &total, &unique); err != nil {
		t.Fatalf("output %q is not a count: %v", stdout, err)
	}
	checkResult(t, n, total, unique)
}

// votesFor reads the results stored for the block starting at unit first.
func votesFor(ctx context.Context, kv jetstream.KeyValue, first int) ([]vote, error) {
	keys, err := kv.ListKeys(ctx, jetstream.MetaOnly())
	if err != nil {
		return nil, err
	}
	var out []vote
	for k := range keys.Keys() {
		if !strings.HasPrefix(k, fmt.Sprintf("vote.%d.", first)) {
			continue
		}
		e, err := kv.Get(ctx, k)
		if err != nil {
			return nil, err
		}
		var v vote
		if err := json.Unmarshal(e.Value(), &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// holdEnv makes a test build hold a unit until SIGUSR1, saying so on
// stderr (heldRx); addTotalEnv makes a worker lie (see internal/faults).
const (
	holdEnv     = "NQUEENS_FAULT_HOLD_UNIT"
	heldRx      = `fault injection: holding unit (\d+)`
	addTotalEnv = "NQUEENS_FAULT_ADD_TOTAL"
)

// TestProcessWorkerKilled runs a coordinator and three worker processes on
// N = 14 through a nats-server in the test. Worker A, alone at first, takes
// the first block and holds its unit 0 (fault injection) past two ack
// waits: its progress reports keep the block from going to B or C. Then A
// is killed with SIGKILL; the block is delivered again, counted by B or C,
// and the total is exact.
func TestProcessWorkerKilled(t *testing.T) {
	const n = 14
	const ackWait = 2 * time.Second
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js, err := jetstream.New(connect(t, url))
	if err != nil {
		t.Fatal(err)
	}

	coord := start(t, "coordinator", nil, "coordinator", strconv.Itoa(n), "--nats", url,
		"--ack-wait", ackWait.String(), "--progress-every", "500ms", "--block-size", "8", "--verify-fraction", "0")
	coord.waitMatch(t, `published \d+ block`)
	a := start(t, "worker A", []string{holdEnv + "=0"}, "worker", "--nats", url, "--workers", "1", "--name", "A")
	a.waitMatch(t, heldRx)
	const held = 0 // the first unit of the block A holds
	holdSince := time.Now()
	for _, name := range []string{"B", "C"} {
		start(t, "worker "+name, nil, "worker", "--nats", url, "--workers", "1", "--name", name)
	}

	kv, err := js.KeyValue(ctx, runFor(n, 8, 1).Bucket)
	if err != nil {
		t.Fatal(err)
	}
	// The server's ack wait is wall-clock time: let two and a half pass.
	time.Sleep(time.Until(holdSince.Add(5 * ackWait / 2)))
	if vs, err := votesFor(ctx, kv, held); err != nil || len(vs) != 0 {
		t.Fatalf("block %d, held by A with progress reports, was counted by %+v (%v) before A died", held, vs, err)
	}
	a.kill()

	if code := coord.wait(t); code != 0 {
		t.Fatalf("coordinator exit %d: %s", code, coord.stderr.String())
	}
	checkTotal(t, n, coord.stdout.String())
	vs, err := votesFor(ctx, kv, held)
	if err != nil || len(vs) != 1 {
		t.Fatalf("results of block %d: %+v, %v", held, vs, err)
	}
	v := vs[0]
	if v.Worker != "B" && v.Worker != "C" || v.Delivered < 2 {
		t.Errorf("block %d was counted by %q on delivery %d; want B or C on a redelivery", held, v.Worker, v.Delivered)
	}
	if want := fmt.Sprintf("%s counted by %s on delivery %d", v.block(), v.Worker, v.Delivered); !strings.Contains(coord.stderr.String(), want) {
		t.Errorf("coordinator did not log %q:\n%s", want, coord.stderr.String())
	}
	t.Logf("%s: held by A for %s, killed, counted by %s on delivery %d", v.block(), time.Since(holdSince).Round(time.Millisecond), v.Worker, v.Delivered)
}

// TestProcessRogueWorkers runs workers that lie (fault injection: every
// non-zero unit total raised by 8, which no single-result check can see)
// beside honest ones, and checks that each defence catches them: the
// coordinator's spot checks and a quorum each ban the liar, discard its
// results and still print the exact count; with both defences off, the
// published table refuses the wrong total.
func TestProcessRogueWorkers(t *testing.T) {
	const n = 12
	tests := []struct {
		name   string
		args   []string
		honest []string
		alone  bool // the honest workers start once R is banned
		code   int
		want   []string // in the coordinator's stderr
	}{
		{"spot checks", []string{"--verify-fraction", "0.3"}, []string{"H1"}, true, 0,
			[]string{"ALARM: worker R is banned: its result for units", "differs from the coordinator's recount"}},
		{"quorum", []string{"--replicas", "2", "--verify-fraction", "0"}, []string{"H1", "H2"}, false, 0,
			[]string{"workers disagree; the coordinator counts it again", "ALARM: worker R is banned"}},
		{"published table", []string{"--verify-fraction", "0"}, nil, false, 1,
			[]string{"N = 12: the total", "does not match the published count 14200"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, url := startServer(t, t.TempDir())
			args := append([]string{"coordinator", strconv.Itoa(n), "--nats", url, "--ack-wait", "2s", "--block-size", "32"}, tt.args...)
			coord := start(t, "coordinator", nil, args...)
			coord.waitMatch(t, `published \d+ block`)
			rogue := start(t, "worker R", []string{addTotalEnv + "=8"}, "worker", "--nats", url, "--workers", "1", "--name", "R", "--exit-when-idle", "2s")
			if tt.alone {
				// R alone takes every block at first, so that the random
				// checks must meet its work.
				coord.waitMatch(t, "worker R is banned")
			}
			for _, name := range tt.honest {
				start(t, "worker "+name, nil, "worker", "--nats", url, "--workers", "1", "--name", name, "--exit-when-idle", "2s")
			}
			if code := coord.wait(t); code != tt.code {
				t.Fatalf("coordinator exit %d, want %d; stdout %q", code, tt.code, coord.stdout.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(coord.stderr.String(), w) {
					t.Errorf("coordinator stderr lacks %q:\n%s", w, coord.stderr.String())
				}
			}
			if tt.code != 0 {
				if out := coord.stdout.String(); out != "" {
					t.Errorf("coordinator printed %q, a wrong count", out)
				}
				return
			}
			checkTotal(t, n, coord.stdout.String())
			if code := rogue.wait(t); code != 1 || !strings.Contains(rogue.stderr.String(), "banned this worker") {
				t.Errorf("rogue worker: exit %d, stderr %s", code, rogue.stderr.String())
			}
		})
	}
}

// TestProcessStoreLocked starts a second coordinator on the store folder
// of a running one: it must stop at once, naming the first, and leave the
// stored results alone (before the lock, it erased them).
func TestProcessStoreLocked(t *testing.T) {
	store := t.TempDir()
	listen := fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t))
	first := start(t, "coordinator", nil, "coordinator", "14", "--listen", listen, "--store", store)
	first.waitMatch(t, `published \d+ block`)
	second := start(t, "second coordinator", nil, "coordinator", "14", "--listen", fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t)), "--store", store)
	if code := second.wait(t); code != 1 {
		t.Fatalf("second coordinator: exit %d", code)
	}
	want := fmt.Sprintf("is in use by another coordinator (pid %d on host ", first.cmd.Process.Pid)
	if !strings.Contains(second.stderr.String(), want) {
		t.Errorf("second coordinator's error lacks %q: %s", want, second.stderr.String())
	}
	start(t, "worker", nil, "worker", "--nats", "nats://"+listen, "--exit-when-idle", "2s")
	if code := first.wait(t); code != 0 {
		t.Fatalf("first coordinator: exit %d: %s", code, first.stderr.String())
	}
	checkTotal(t, 14, first.stdout.String())
}

// TestProcessCoordinatorRestart kills the coordinator, and with it its
// embedded nats-server, in the middle of a run of N = 14 (worker A holds
// unit 0 until SIGUSR1, so the run cannot finish first), starts it again on
// the same store folder, and checks that it resumes and, once A lets the
// unit go, gives the exact total.
func TestProcessCoordinatorRestart(t *testing.T) {
	const n = 14
	listen := fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t))
	url := "nats://" + listen
	args := []string{"coordinator", strconv.Itoa(n), "--listen", listen, "--store", t.TempDir(),
		"--ack-wait", "2s", "--progress-every", "100ms"}
	coord := start(t, "coordinator", nil, args...)
	coord.waitMatch(t, `published \d+ block`)
	a := start(t, "worker A", []string{holdEnv + "=0"}, "worker", "--nats", url, "--workers", "1", "--name", "A")
	a.waitMatch(t, heldRx)
	start(t, "worker B", nil, "worker", "--nats", url, "--workers", "1", "--name", "B")
	done := regexp.MustCompile(`N = 14: (\d+)/1632 units`)
	testkit.WaitFor(t, "100 units done", func() bool {
		for _, m := range done.FindAllStringSubmatch(coord.stderr.String(), -1) {
			if d, _ := strconv.Atoi(m[1]); d >= 100 {
				return true
			}
		}
		return false
	})
	coord.kill()
	coord.wait(t)
	if out := coord.stdout.String(); out != "" {
		t.Fatalf("the run finished before the kill: %q", out)
	}

	again := start(t, "coordinator again", nil, args...)
	m := again.waitMatch(t, `resuming run \S+: (\d+) of 1632 units already counted`)
	if d, _ := strconv.Atoi(m[1]); d < 100 || d == 1632 {
		t.Errorf("resumed with %d of 1632 units", d)
	}
	if err := a.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	if code := again.wait(t); code != 0 {
		t.Fatalf("coordinator exit %d: %s", code, again.stderr.String())
	}
	checkTotal(t, n, again.stdout.String())
}

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
	shard := func(i int, env ...string) *proc {
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
		return start(t, fmt.Sprintf("shard %d", i), env, args...)
	}
	merge := func(paths ...string) *proc {
		p := start(t, "merge", nil, append([]string{"merge"}, paths...)...)
		p.wait(t)
		return p
	}
	var procs []*proc
	for i := range k {
		var env []string
		if i == 2 {
			env = []string{fmt.Sprintf("%s=%d", holdEnv, held)}
		}
		procs = append(procs, shard(i, env...))
	}
	procs[2].waitMatch(t, heldRx)
	testkit.WaitFor(t, "shard 2's ledger to hold the units before the held one", func() bool {
		lf, err := ReadLedgerFile(ledgerOf(2))
		return err == nil && lf.Units() == kept
	})
	procs[2].kill()
	for i, p := range procs {
		if code := p.wait(t); i != 2 && code != 0 {
			t.Fatalf("shard %d exit %d: %s", i, code, p.stderr.String())
		}
	}
	lf, err := ReadLedgerFile(ledgerOf(2))
	if err != nil {
		t.Fatal(err)
	}
	size := (Shard{2, k}).Size(n)
	if got := lf.Units(); got != kept {
		t.Fatalf("killed shard 2 left %d of its %d units, want the %d before the held unit", got, size, kept)
	}

	all := []string{ledgerOf(0), ledgerOf(1), ledgerOf(2), ledgerOf(3)}
	if p := merge(all...); p.wait(t) != 1 || !strings.Contains(p.stderr.String(), fmt.Sprintf("%d of %d units of N = %d are missing: ", size-kept, count.Units(n), n)) {
		t.Errorf("merge with the killed shard: exit %d, stdout %q, stderr %s", p.wait(t), p.stdout.String(), p.stderr.String())
	}
	without := []string{ledgerOf(0), ledgerOf(1), ledgerOf(3)}
	if p := merge(without...); p.wait(t) != 1 || !strings.Contains(p.stderr.String(), "(no result at all from shard 2/4: rerun it): 2, 6, 10, 14,") {
		t.Errorf("merge without shard 2: exit %d, stderr %s", p.wait(t), p.stderr.String())
	}

	rerun := shard(2)
	if code := rerun.wait(t); code != 0 {
		t.Fatalf("rerun of shard 2: exit %d: %s", code, rerun.stderr.String())
	}
	if want := fmt.Sprintf("%d of its %d units were already in", kept, size); !strings.Contains(rerun.stderr.String(), want) {
		t.Errorf("rerun of shard 2 did not say %q:\n%s", want, rerun.stderr.String())
	}
	p := merge(all...)
	if code := p.wait(t); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, p.stderr.String())
	}
	checkTotal(t, n, p.stdout.String())
	// A ledger given twice holds equal duplicates only.
	p = merge(append(all, ledgerOf(2))...)
	if code := p.wait(t); code != 0 || !strings.Contains(p.stderr.String(), fmt.Sprintf("%d unit(s) were counted more than once", size)) {
		t.Errorf("merge with a ledger twice: exit %d: %s", code, p.stderr.String())
	}
	checkTotal(t, n, p.stdout.String())
}
