package queue

// Tests with real processes: the nqueens command is built once, with the
// fault-injection hooks of internal/faults compiled in, and coordinators,
// workers and shards run as separate processes on loopback, some of them
// killed with SIGKILL, some of them lying. Every wait is bounded by
// testkit.WaitLimit.

import (
	"context"
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

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// The command under test is built once, on first use (testkit.BuildBinary):
// fuzzing workers and runs of the unit tests alone (-run) never pay for the
// build.
func TestMain(m *testing.M) { os.Exit(testkit.Run(m)) }

// startServerWithUsers runs a nats-server whose users are the NKeys of
// the file voters, with the permissions of workers on an embedded server,
// and the coordinator's NKey (its seed file), without limits.
func startServerWithUsers(t *testing.T, voters, coordSeed string) string {
	t.Helper()
	keys, err := ReadVoters(voters)
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := os.ReadFile(coordSeed)
	coord, err := IdentityFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	opts := &server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true, NoLog: true,
		Nkeys: []*server.NkeyUser{{Nkey: coord.Public()}}}
	for _, k := range keys {
		opts.Nkeys = append(opts.Nkeys, &server.NkeyUser{Nkey: k, Permissions: workerPermissions(k)})
	}
	s, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s.ClientURL()
}

// nkeyFiles makes an NKey for each name in a folder of its own: the file
// of their public keys (a server's users, a coordinator's --auth-nkeys) and
// each one's seed file (a client's --nats-nkey).
func nkeyFiles(t *testing.T, names ...string) (pubs string, seeds map[string]string) {
	return testkit.NKeys(t, t.TempDir(), "workers.pub", names...)
}

// votesFor reads the results stored for the block starting at unit first,
// sealed under key.
func votesFor(ctx context.Context, kv jetstream.KeyValue, first int, key *seal.Key) ([]vote, error) {
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
		v, err := openVote(e.Value(), key, tokenOf(k))
		if err != nil {
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
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	js, err := jetstream.New(connect(t, url))
	if err != nil {
		t.Fatal(err)
	}

	coord := testkit.StartFaulty(t, "coordinator", nil, "coordinator", strconv.Itoa(n), "--nats", url,
		"--ack-wait", ackWait.String(), "--progress-every", "500ms", "--block-size", "8", "--verify-fraction", "0")
	coord.WaitMatch(t, `published the block messages messages=\d+`)
	a := testkit.StartFaulty(t, "worker A", []string{holdEnv + "=0"}, "worker", "--nats", url, "--workers", "1", "--name", "A")
	a.WaitMatch(t, heldRx)
	const held = 0 // the first unit of the block A holds
	holdSince := time.Now()
	for _, name := range []string{"B", "C"} {
		testkit.StartFaulty(t, "worker "+name, nil, "worker", "--nats", url, "--workers", "1", "--name", name)
	}

	kv, err := js.KeyValue(ctx, runFor(n, 8, 1).Bucket)
	if err != nil {
		t.Fatal(err)
	}
	// The server's ack wait is wall-clock time: let two and a half pass.
	time.Sleep(time.Until(holdSince.Add(5 * ackWait / 2)))
	if vs, err := votesFor(ctx, kv, held, testkit.UserKey(t)); err != nil || len(vs) != 0 {
		t.Fatalf("block %d, held by A with progress reports, was counted by %+v (%v) before A died", held, vs, err)
	}
	a.Kill()

	if code := coord.Wait(t); code != 0 {
		t.Fatalf("coordinator exit %d: %s", code, coord.Stderr.String())
	}
	if err := reference.CheckOutput(n, coord.Stdout.String()); err != nil {
		t.Error(err)
	}
	vs, err := votesFor(ctx, kv, held, testkit.UserKey(t))
	if err != nil || len(vs) != 1 {
		t.Fatalf("results of block %d: %+v, %v", held, vs, err)
	}
	v := vs[0]
	if v.Worker != "B" && v.Worker != "C" || v.Delivered < 2 {
		t.Errorf("block %d was counted by %q on delivery %d; want B or C on a redelivery", held, v.Worker, v.Delivered)
	}
	if want := fmt.Sprintf("counted on a later delivery (an earlier worker died, failed or lost its connection) units=%d-%d worker=%s delivery=%d", v.First, v.Last, v.Worker, v.Delivered); !strings.Contains(coord.Stderr.String(), want) {
		t.Errorf("coordinator did not log %q:\n%s", want, coord.Stderr.String())
	}
	t.Logf("%s: held by A for %s, killed, counted by %s on delivery %d", v.block(), time.Since(holdSince).Round(time.Millisecond), v.Worker, v.Delivered)
}

// TestProcessRogueWorkers runs workers that lie (fault injection: every
// non-zero unit total raised by 8, which no single-result check can see)
// beside honest ones, and checks that each defence catches them: the
// coordinator's spot checks and a quorum each ban the liar, discard its
// results and still print the exact count, and the honest workers leave
// the empty queue; with both defences off, the published table refuses
// the wrong total.
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
			[]string{`ALARM: a worker is banned; its results are discarded and counted again worker=R voter=`, `reason="its result for units`, "differs from the coordinator's recount"}},
		{"quorum", []string{"--replicas", "2", "--verify-fraction", "0"}, []string{"H1", "H2"}, false, 0,
			[]string{"workers disagree; the coordinator counts it again", "ALARM: a worker is banned; its results are discarded and counted again worker=R"}},
		{"published table", []string{"--verify-fraction", "0"}, nil, false, 1,
			[]string{"N = 12: the total", "does not match the published count 14200"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Each worker has an NKey of its own, with the permissions an
			// embedded server gives it, and the coordinator one without
			// limits that is no voter's.
			voters, seeds := nkeyFiles(t, "R", "H1", "H2")
			_, coordSeed := nkeyFiles(t, "coordinator")
			url := startServerWithUsers(t, voters, coordSeed["coordinator"])
			args := append([]string{"coordinator", strconv.Itoa(n), "--nats", url, "--nats-nkey", coordSeed["coordinator"],
				"--ack-wait", "2s", "--block-size", "32", "--auth-nkeys", voters}, tt.args...)
			coord := testkit.StartFaulty(t, "coordinator", nil, args...)
			coord.WaitMatch(t, `published the block messages messages=\d+`)
			rogue := testkit.StartFaulty(t, "worker R", []string{addTotalEnv + "=8"}, "worker", "--nats", url, "--nats-nkey", seeds["R"], "--workers", "1", "--name", "R", "--exit-when-idle", "2s")
			if tt.alone {
				// R alone takes every block at first, so that the random
				// checks must meet its work.
				coord.WaitMatch(t, "ALARM: a worker is banned.* worker=R ")
			}
			var honest []*testkit.Proc
			for _, name := range tt.honest {
				honest = append(honest, testkit.StartFaulty(t, "worker "+name, nil, "worker", "--nats", url, "--nats-nkey", seeds[name], "--workers", "1", "--name", name, "--exit-when-idle", "2s"))
			}
			if code := coord.Wait(t); code != tt.code {
				t.Fatalf("coordinator exit %d, want %d; stdout %q", code, tt.code, coord.Stdout.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(coord.Stderr.String(), w) {
					t.Errorf("coordinator stderr lacks %q:\n%s", w, coord.Stderr.String())
				}
			}
			if tt.code != 0 {
				if out := coord.Stdout.String(); out != "" {
					t.Errorf("coordinator printed %q, a wrong count", out)
				}
				return
			}
			if err := reference.CheckOutput(n, coord.Stdout.String()); err != nil {
				t.Error(err)
			}
			if code := rogue.Wait(t); code != 1 || !strings.Contains(rogue.Stderr.String(), "banned this worker") {
				t.Errorf("rogue worker: exit %d, stderr %s", code, rogue.Stderr.String())
			}
			// The coordinator removed the copies nobody needs any more:
			// the honest workers find the queue empty and leave (a spare
			// copy used to go round between them for ever).
			for _, h := range honest {
				if code := h.Wait(t); code != 0 {
					t.Errorf("%s: exit %d, stderr %s", h.Name, code, h.Stderr.String())
				}
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
	first := testkit.StartFaulty(t, "coordinator", nil, "coordinator", "14", "--listen", listen, "--store", store)
	first.WaitMatch(t, `published the block messages messages=\d+`)
	second := testkit.StartFaulty(t, "second coordinator", nil, "coordinator", "14", "--listen", fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t)), "--store", store)
	if code := second.Wait(t); code != 1 {
		t.Fatalf("second coordinator: exit %d", code)
	}
	want := fmt.Sprintf("is in use by another coordinator (pid %d on host ", first.Cmd.Process.Pid)
	if !strings.Contains(second.Stderr.String(), want) {
		t.Errorf("second coordinator's error lacks %q: %s", want, second.Stderr.String())
	}
	testkit.StartFaulty(t, "worker", nil, "worker", "--nats", "nats://"+listen, "--exit-when-idle", "2s")
	if code := first.Wait(t); code != 0 {
		t.Fatalf("first coordinator: exit %d: %s", code, first.Stderr.String())
	}
	if err := reference.CheckOutput(14, first.Stdout.String()); err != nil {
		t.Error(err)
	}
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
	coord := testkit.StartFaulty(t, "coordinator", nil, args...)
	coord.WaitMatch(t, `published the block messages messages=\d+`)
	a := testkit.StartFaulty(t, "worker A", []string{holdEnv + "=0"}, "worker", "--nats", url, "--workers", "1", "--name", "A")
	a.WaitMatch(t, heldRx)
	testkit.StartFaulty(t, "worker B", nil, "worker", "--nats", url, "--workers", "1", "--name", "B")
	units := count.Units(n)
	done := regexp.MustCompile(fmt.Sprintf(`N = 14: (\d+)/%d units`, units))
	testkit.WaitFor(t, "100 units done", func() bool {
		for _, m := range done.FindAllStringSubmatch(coord.Stderr.String(), -1) {
			if d, _ := strconv.Atoi(m[1]); d >= 100 {
				return true
			}
		}
		return false
	})
	coord.Kill()
	coord.Wait(t)
	if out := coord.Stdout.String(); out != "" {
		t.Fatalf("the run finished before the kill: %q", out)
	}

	again := testkit.StartFaulty(t, "coordinator again", nil, args...)
	m := again.WaitMatch(t, fmt.Sprintf(`resuming a run run=\S+ counted=(\d+) units=%d`, units))
	if d, _ := strconv.Atoi(m[1]); d < 100 || d == units {
		t.Errorf("resumed with %d of %d units", d, units)
	}
	if err := a.Cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	if code := again.Wait(t); code != 0 {
		t.Fatalf("coordinator exit %d: %s", code, again.Stderr.String())
	}
	if err := reference.CheckOutput(n, again.Stdout.String()); err != nil {
		t.Error(err)
	}
}

// TestProcessFullDisk fills the disk under an embedded server for real: a
// tmpfs of 1 MB, nearly full before the run, holds the coordinator's store
// (a JetStream limit is TestStoreFull's). The coordinator of N = 12 ends
// with exit status 1 and an error that says the store is full (JetStream
// answers no write on a full disk: it used to wait for ever), and nothing
// is printed on stdout; once there is room again, the same command
// resumes from every result the server had acknowledged and gives the
// exact total.
func TestProcessFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root; TestStoreFull fills a JetStream limit instead")
	}
	disk := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s); TestStoreFull fills a JetStream limit instead", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", disk).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", disk, err, out)
		}
	})
	// 96 kB left: the run's stream and bucket take about 156 kB.
	filler := filepath.Join(disk, "filler")
	if err := os.WriteFile(filler, make([]byte, 928<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	const n = 12
	listen := fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t))
	args := []string{"coordinator", strconv.Itoa(n), "--listen", listen, "--store", filepath.Join(disk, "js"),
		"--block-size", "4", "--ack-wait", "2s", "--progress-every", "1s"}
	coord := testkit.StartFaulty(t, "coordinator", nil, args...)
	coord.WaitMatch(t, `published the block messages messages=\d+`)
	worker := testkit.StartFaulty(t, "worker", nil, "worker", "--nats", "nats://"+listen, "--workers", "1")
	if code := coord.Wait(t); code != 1 {
		t.Fatalf("coordinator on a full disk: exit %d, want 1", code)
	}
	m := regexp.MustCompile(`stopped with (\d+) of \d+ units counted: the NATS server can store no more: the disk that holds its store is full\. .*no space left on device`).FindStringSubmatch(coord.Stderr.String())
	if m == nil || coord.Stdout.String() != "" {
		t.Fatalf("coordinator on a full disk: stdout %q, stderr:\n%s", coord.Stdout.String(), coord.Stderr.String())
	}
	counted, _ := strconv.Atoi(m[1])
	// The worker's summary counts the results the server acknowledged:
	// those must all be there after the disk is full. (The coordinator
	// may have seen one more, which the server passed on from memory but
	// could not write.)
	if err := worker.Cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	worker.Wait(t)
	sm := regexp.MustCompile(`worker \S+: (\d+) units? counted`).FindStringSubmatch(worker.Stderr.String())
	if sm == nil {
		t.Fatalf("no summary from the worker:\n%s", worker.Stderr.String())
	}
	stored, _ := strconv.Atoi(sm[1])

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	again := testkit.StartFaulty(t, "coordinator again", nil, args...)
	again.WaitMatch(t, `resuming a run run=\S+ counted=\d+`)
	// Before any worker is back, the rerun finds every result stored.
	progress := regexp.MustCompile(fmt.Sprintf(`N = %d: (\d+)/\d+ units`, n))
	testkit.WaitFor(t, fmt.Sprintf("the rerun to find the %d units the worker stored", stored), func() bool {
		for _, p := range progress.FindAllStringSubmatch(again.Stderr.String(), -1) {
			if d, _ := strconv.Atoi(p[1]); d >= stored && stored > 0 {
				return true
			}
		}
		return false
	})
	testkit.StartFaulty(t, "worker again", nil, "worker", "--nats", "nats://"+listen, "--workers", "1", "--exit-when-idle", "2s")
	if code := again.Wait(t); code != 0 {
		t.Fatalf("the rerun: exit %d", code)
	}
	if err := reference.CheckOutput(n, again.Stdout.String()); err != nil {
		t.Error(err)
	}
	t.Logf("stopped at %d units counted, %d stored by the worker", counted, stored)
}
