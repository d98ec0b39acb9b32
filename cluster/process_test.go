package cluster

// Tests with real processes: the nqueens command is built once, and
// coordinators, workers and shards run as separate processes on loopback,
// some of them killed with SIGKILL. Each test is bounded by a deadline.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/syncbuf"
)

// The command under test is built once, on first use: fuzzing workers and
// runs of the unit tests alone (-run) never pay for the build.
var (
	binOnce  sync.Once
	binDir   string
	binPath  string
	binError error
)

// nqueensBin returns the path of the nqueens command, building it the first
// time.
func nqueensBin(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binError = os.MkdirTemp("", "nqueens-cluster-test-")
		if binError != nil {
			return
		}
		binPath = filepath.Join(binDir, "nqueens")
		build := exec.Command("go", "build", "-o", binPath, "github.com/nqueens/nqueens/cmd/nqueens")
		if out, err := build.CombinedOutput(); err != nil {
			binError = fmt.Errorf("building nqueens for the process tests: %v\n%s", err, out)
		}
	})
	if binError != nil {
		t.Fatal(binError)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

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
	p.cmd = exec.Command(nqueensBin(t), args...)
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
func (p *proc) wait(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	default:
		select {
		case <-p.done:
		case <-time.After(timeout):
			t.Fatalf("%s still runs after %s; stderr:\n%s", p.name, timeout, p.stderr.String())
		}
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

// waitFor polls cond until it holds, failing the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitMatch waits until the process's stderr matches re and returns the
// submatches.
func (p *proc) waitMatch(t *testing.T, timeout time.Duration, re string) []string {
	t.Helper()
	rx := regexp.MustCompile(re)
	var m []string
	waitFor(t, timeout, fmt.Sprintf("%s to log %q", p.name, re), func() bool {
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

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// storedBlock reads the record of the block starting at unit first from
// the run's bucket.
func storedBlock(ctx context.Context, kv jetstream.KeyValue, first int) (BlockRecord, error) {
	var rec BlockRecord
	e, err := kv.Get(ctx, resultKey(Block{First: first}))
	if err != nil {
		return rec, err
	}
	return rec, json.Unmarshal(e.Value(), &rec)
}

// TestProcessWorkerKilled runs a coordinator and three worker processes on
// N = 14 through a nats-server in the test. Worker A takes a unit and holds
// it (test hook) past two ack waits: its progress reports keep the unit
// from going to B or C. Then A is killed with SIGKILL; the unit is
// delivered again, counted by B or C, and the total is exact.
func TestProcessWorkerKilled(t *testing.T) {
	const n = 14
	const ackWait = 2 * time.Second
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	js, err := jetstream.New(connect(t, url))
	if err != nil {
		t.Fatal(err)
	}

	coord := start(t, "coordinator", nil, "coordinator", strconv.Itoa(n), "--nats", url,
		"--ack-wait", ackWait.String(), "--progress-every", "500ms", "--block-size", "8")
	coord.waitMatch(t, 10*time.Second, `published \d+ block`)
	a := start(t, "worker A", []string{HoldEnv + "=1m"}, "worker", "--nats", url, "--workers", "1", "--name", "A")
	m := a.waitMatch(t, 10*time.Second, `holding .* \(first (\d+)\)`)
	held, _ := strconv.Atoi(m[1])
	holdSince := time.Now()
	for _, name := range []string{"B", "C"} {
		start(t, "worker "+name, nil, "worker", "--nats", url, "--workers", "1", "--name", name)
	}

	kv, err := js.KeyValue(ctx, RunFor(n).Bucket)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(holdSince.Add(5 * ackWait / 2)))
	if rec, err := storedBlock(ctx, kv, held); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("block %d, held by A with progress reports, was counted by %q (%v) before A died", held, rec.Worker, err)
	}
	a.kill()

	if code := coord.wait(t, 15*time.Second); code != 0 {
		t.Fatalf("coordinator exit %d: %s", code, coord.stderr.String())
	}
	checkTotal(t, n, coord.stdout.String())
	rec, err := storedBlock(ctx, kv, held)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Worker != "B" && rec.Worker != "C" || rec.Delivered < 2 {
		t.Errorf("block %d was counted by %q on delivery %d; want B or C on a redelivery", held, rec.Worker, rec.Delivered)
	}
	if want := fmt.Sprintf("%s counted by %s on delivery %d", rec.Block(), rec.Worker, rec.Delivered); !strings.Contains(coord.stderr.String(), want) {
		t.Errorf("coordinator did not log %q:\n%s", want, coord.stderr.String())
	}
	t.Logf("%s: held by A for %s, killed, counted by %s on delivery %d", rec.Block(), time.Since(holdSince).Round(time.Millisecond), rec.Worker, rec.Delivered)
}

// TestProcessConflictingResult stores a wrong result for a unit first, as
// a faulty machine would, and queues the unit again. A worker process
// counts it, finds the stored value different and raises the alarm; the
// coordinator process then refuses to give a total.
func TestProcessConflictingResult(t *testing.T) {
	const n, unit = 10, 3
	_, url := startServer(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	js, err := jetstream.New(connect(t, url))
	if err != nil {
		t.Fatal(err)
	}
	run := RunFor(n)
	_, kv, _, size, err := ensureRun(ctx, js, run, CoordinatorOptions{AckWait: time.Minute, MaxDeliver: 5, Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := run.block(unit/size, size)
	wrong := BlockRecord{N: n, First: b.First, Last: b.Last, Worker: "faulty", Delivered: 1}
	for u := b.First; u <= b.Last; u++ {
		r, err := count.CountUnit(ctx, n, u)
		if err != nil {
			t.Fatal(err)
		}
		if u == unit {
			r.Total += 4
		}
		wrong.Units = append(wrong.Units, r)
	}
	if _, err := RecordResult(ctx, kv, wrong); err != nil {
		t.Fatal(err)
	}
	if err := publishBlocks(ctx, js, run, []Block{b}, func(b Block) string { return fmt.Sprintf("%s.%d", run.ID, b.First) }); err != nil {
		t.Fatal(err)
	}

	w := start(t, "worker W", nil, "worker", "--nats", url, "--workers", "1", "--name", "W")
	w.waitMatch(t, 10*time.Second, fmt.Sprintf(`ALARM: unit %d of N = %d has two different results`, unit, n))
	waitFor(t, 5*time.Second, "the alarm in the bucket", func() bool {
		keys, err := kv.ListKeys(ctx)
		if err != nil {
			return false
		}
		for k := range keys.Keys() {
			if strings.HasPrefix(k, fmt.Sprintf("alarm.%d.", b.First)) {
				return true
			}
		}
		return false
	})
	if rec, err := storedBlock(ctx, kv, b.First); err != nil || rec.Worker != "faulty" {
		t.Errorf("stored result of %s: %+v, %v; the first write must stand", b, rec, err)
	}

	coord := start(t, "coordinator", nil, "coordinator", strconv.Itoa(n), "--nats", url)
	if code := coord.wait(t, 15*time.Second); code != 1 {
		t.Fatalf("coordinator exit %d, want 1; stdout %q", code, coord.stdout.String())
	}
	if out := coord.stdout.String(); out != "" {
		t.Errorf("coordinator printed %q despite the alarm", out)
	}
	for _, want := range []string{"no total", fmt.Sprintf("unit %d of N = %d has two different results", unit, n), "worker faulty", "worker W"} {
		if !strings.Contains(coord.stderr.String(), want) {
			t.Errorf("coordinator stderr lacks %q:\n%s", want, coord.stderr.String())
		}
	}
}

// TestProcessCoordinatorRestart kills the coordinator, and with it its
// embedded nats-server, in the middle of a run of N = 14 (worker A holds a
// unit, so the run cannot finish first), starts it again on the same store
// folder, and checks that it resumes and gives the exact total.
func TestProcessCoordinatorRestart(t *testing.T) {
	const n = 14
	listen := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	url := "nats://" + listen
	args := []string{"coordinator", strconv.Itoa(n), "--listen", listen, "--store", t.TempDir(),
		"--ack-wait", "2s", "--progress-every", "100ms"}
	coord := start(t, "coordinator", nil, args...)
	coord.waitMatch(t, 10*time.Second, `published \d+ block`)
	a := start(t, "worker A", []string{HoldEnv + "=3s"}, "worker", "--nats", url, "--workers", "1", "--name", "A")
	a.waitMatch(t, 10*time.Second, `holding .* \(first \d+\)`)
	start(t, "worker B", nil, "worker", "--nats", url, "--workers", "1", "--name", "B")
	done := regexp.MustCompile(`N = 14: (\d+)/1632 units done`)
	waitFor(t, 10*time.Second, "100 units done", func() bool {
		for _, m := range done.FindAllStringSubmatch(coord.stderr.String(), -1) {
			if d, _ := strconv.Atoi(m[1]); d >= 100 {
				return true
			}
		}
		return false
	})
	coord.kill()
	coord.wait(t, 5*time.Second)
	if out := coord.stdout.String(); out != "" {
		t.Fatalf("the run finished before the kill: %q", out)
	}

	again := start(t, "coordinator again", nil, args...)
	m := again.waitMatch(t, 10*time.Second, `resuming run \S+: (\d+) of 1632 units already counted`)
	if d, _ := strconv.Atoi(m[1]); d < 100 || d == 1632 {
		t.Errorf("resumed with %d of 1632 units", d)
	}
	if code := again.wait(t, 15*time.Second); code != 0 {
		t.Fatalf("coordinator exit %d: %s", code, again.stderr.String())
	}
	checkTotal(t, n, again.stdout.String())
}

// TestProcessArrayShards runs the K = 4 shards of N = 16 as separate
// processes (two of them taking their index from the environment, as in a
// Kubernetes Indexed Job and a Slurm array), kills shard 2 with SIGKILL
// after its first ledger line, and checks that merge lists the missing
// units, that the rerun skips what the ledger holds, and that the merge of
// the four ledgers is exact.
func TestProcessArrayShards(t *testing.T) {
	const n, k = 16, 4
	dir := t.TempDir()
	ledgerOf := func(i int) string { return filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i)) }
	shard := func(i int) *proc {
		args := []string{"count", strconv.Itoa(n), "--ledger", ledgerOf(i), "--workers", "1", "--ledger-every", "20ms"}
		var env []string
		switch i {
		case 1:
			env = []string{"JOB_COMPLETION_INDEX=1"}
			args = append(args, "--shard-from-env", "--shards", strconv.Itoa(k))
		case 3:
			env = []string{"SLURM_ARRAY_TASK_ID=3"}
			args = append(args, "--shard-from-env", "--shards", strconv.Itoa(k))
		default:
			args = append(args, "--shard", fmt.Sprintf("%d/%d", i, k))
		}
		return start(t, fmt.Sprintf("shard %d", i), env, args...)
	}
	merge := func(paths ...string) *proc {
		p := start(t, "merge", nil, append([]string{"merge"}, paths...)...)
		p.wait(t, 10*time.Second)
		return p
	}
	var procs []*proc
	for i := range k {
		procs = append(procs, shard(i))
	}
	waitFor(t, 10*time.Second, "shard 2's first ledger line", func() bool {
		lf, err := ReadLedgerFile(ledgerOf(2))
		return err == nil && len(lf.Records) > 0
	})
	procs[2].kill()
	for i, p := range procs {
		if code := p.wait(t, 15*time.Second); i != 2 && code != 0 {
			t.Fatalf("shard %d exit %d: %s", i, code, p.stderr.String())
		}
	}
	lf, err := ReadLedgerFile(ledgerOf(2))
	if err != nil {
		t.Fatal(err)
	}
	size := (Shard{2, k}).Size(n)
	kept := 0
	for _, r := range lf.Records {
		kept += len(r.Units)
	}
	if kept == 0 || kept >= size {
		t.Fatalf("killed shard 2 left %d of its %d units; the kill was not mid-run", kept, size)
	}

	all := []string{ledgerOf(0), ledgerOf(1), ledgerOf(2), ledgerOf(3)}
	if p := merge(all...); p.wait(t, 0) != 1 || !strings.Contains(p.stderr.String(), fmt.Sprintf("%d of %d units of N = 16 are missing: ", size-kept, count.Units(n))) {
		t.Errorf("merge with the killed shard: exit %d, stdout %q, stderr %s", p.wait(t, 0), p.stdout.String(), p.stderr.String())
	}
	without := []string{ledgerOf(0), ledgerOf(1), ledgerOf(3)}
	if p := merge(without...); p.wait(t, 0) != 1 || !strings.Contains(p.stderr.String(), "(no result at all from shard 2/4: rerun it): 2, 6, 10, 14,") {
		t.Errorf("merge without shard 2: exit %d, stderr %s", p.wait(t, 0), p.stderr.String())
	}

	rerun := shard(2)
	if code := rerun.wait(t, 15*time.Second); code != 0 {
		t.Fatalf("rerun of shard 2: exit %d: %s", code, rerun.stderr.String())
	}
	if want := fmt.Sprintf("%d of its %d units were already in", kept, size); !strings.Contains(rerun.stderr.String(), want) {
		t.Errorf("rerun of shard 2 did not say %q:\n%s", want, rerun.stderr.String())
	}
	p := merge(all...)
	if code := p.wait(t, 0); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, p.stderr.String())
	}
	checkTotal(t, n, p.stdout.String())
	// A ledger given twice holds equal duplicates only.
	p = merge(append(all, ledgerOf(2))...)
	if code := p.wait(t, 0); code != 0 || !strings.Contains(p.stderr.String(), fmt.Sprintf("%d unit(s) were counted more than once", size)) {
		t.Errorf("merge with a ledger twice: exit %d: %s", code, p.stderr.String())
	}
	checkTotal(t, n, p.stdout.String())
}
