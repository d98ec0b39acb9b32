package queue

// Process tests of workers that cannot or must not help a run: one whose
// results the coordinator refuses, one named with terminal escapes, and
// a rogue that floods the queue with its own admitted key.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// TestProcessRefusedWorker runs a worker whose results the coordinator
// refuses: sealed under another key than the coordinator's (the run's
// stream names its key: the worker sees it before it counts), or signed
// by an NKey the server admits but the coordinator's --auth-nkeys does
// not list (the coordinator tells it, and says so once, not once a
// result). The worker says why and leaves the run, and, stopped, exits 1
// naming the run (it used to count on for nothing, and exit 0 saying
// "0 failures").
func TestProcessRefusedWorker(t *testing.T) {
	const n = 10
	otherKey := filepath.Join(t.TempDir(), "other.key")
	if _, err := seal.CreateFile(otherKey); err != nil {
		t.Fatal(err)
	}
	voters, seeds := nkeyFiles(t, "listed", "unlisted")
	_, coordSeed := nkeyFiles(t, "coordinator")
	listedOnly := filepath.Join(t.TempDir(), "listed.pub")
	seed, _ := os.ReadFile(seeds["listed"])
	listed, err := IdentityFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(listedOnly, []byte(listed.Public()+"\n"), 0o644)
	tests := []struct {
		name     string
		worker   []string
		says     string // the worker's error line
		reason   string
		coordSay int // times the coordinator says it refuses results
	}{
		// Told by the run itself (the stream names the coordinator's key),
		// before it counts anything.
		{"another seal key", []string{"--key-file", otherKey}, "error: this worker cannot take part in a run; skipping it run=n10-",
			"the run's coordinator seals blocks and opens results with key ", 0},
		{"an NKey that is no voter's", []string{"--nats-nkey", seeds["unlisted"]}, "error: the coordinator refuses this worker's results; leaving the run run=n10-",
			"is not among the run's voters: list its public key in the coordinator's --auth-nkeys", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := startServerWithUsers(t, voters, coordSeed["coordinator"])
			coord := testkit.StartFaulty(t, "coordinator", nil, "coordinator", strconv.Itoa(n), "--nats", url, "--nats-nkey", coordSeed["coordinator"],
				"--auth-nkeys", listedOnly, "--block-size", "8", "--ack-wait", "2s")
			coord.WaitMatch(t, `published the block messages messages=\d+`)
			args := append([]string{"worker", "--nats", url, "--workers", "1", "--name", "w"}, tt.worker...)
			if tt.worker[0] != "--nats-nkey" {
				args = append(args, "--nats-nkey", seeds["listed"])
			}
			w := testkit.StartFaulty(t, "worker", nil, args...)
			w.WaitMatch(t, tt.says)
			if err := w.Cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			if code := w.Wait(t); code != 1 || !strings.Contains(w.Stderr.String(), "refused this worker's results, which can never count there: ") || !strings.Contains(w.Stderr.String(), tt.reason) {
				t.Errorf("worker: exit %d, want 1 and the reason %q; stderr:\n%s", code, tt.reason, w.Stderr.String())
			}
			if c := strings.Count(coord.Stderr.String(), "a worker's results are refused"); c != tt.coordSay {
				t.Errorf("the coordinator said %d times that the worker's results are refused, want %d:\n%s", c, tt.coordSay, coord.Stderr.String())
			}
			coord.Kill()
		})
	}
}

// TestProcessEscapedName: a worker may not name itself with terminal
// escape sequences (clear the screen, set the window title): it stops at
// once, exit 2, the name quoted. A modified worker that stores a lying
// result under such a label anyway is banned, and the coordinator's
// output names it with the sequences escaped, and holds no control
// character at all.
func TestProcessEscapedName(t *testing.T) {
	const n = 10
	const evil = "evil\x1b[2J\x1b]0;pwned\x07"
	_, url := startServer(t, t.TempDir())
	named := testkit.StartFaulty(t, "worker named with escapes", nil, "worker", "--nats", url, "--name", evil)
	if code := named.Wait(t); code != 2 || !strings.Contains(named.Stderr.String(), `--name: worker name "evil\x1b[2J\x1b]0;pwned\a": character 5 (U+001B) is not printable`) ||
		strings.ContainsAny(named.Stderr.String(), "\x1b\x07") {
		t.Errorf("worker named with escapes: exit %d, stderr %q", code, named.Stderr.String())
	}
	coord := testkit.StartFaulty(t, "coordinator", nil, "coordinator", strconv.Itoa(n), "--nats", url, "--verify-fraction", "1", "--block-size", "8", "--progress-every", "200ms")
	coord.WaitMatch(t, `published the block messages messages=\d+`)
	// What a modified worker could store: block 0 with its first total
	// that is not 0 raised by 8, under the label, with the shared
	// credential.
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	js, _ := jetstream.New(connect(t, url))
	run := runFor(n, 8, 1)
	kv, err := js.KeyValue(ctx, run.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	b := run.block(0)
	v := vote{N: n, First: b.First, Last: b.Last, Units: testkit.AllUnits(t, n, count.Units, count.CountUnit)[b.First : b.Last+1], Worker: evil, Delivered: 1}
	for k := range v.Units {
		if v.Units[k].Total != 0 {
			v.Units[k].Total += 8
			break
		}
	}
	val, err := signVote(v, testkit.UserKey(t), SharedIdentity())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Create(ctx, voteKey(b, SharedIdentity().token(evil)), val); err != nil {
		t.Fatal(err)
	}
	coord.WaitMatch(t, `ALARM: a worker is banned`)
	testkit.StartFaulty(t, "honest worker", nil, "worker", "--nats", url, "--workers", "1", "--name", "honest", "--exit-when-idle", "2s")
	if code := coord.Wait(t); code != 0 {
		t.Fatalf("coordinator exit %d", code)
	}
	out := coord.Stderr.String()
	if want := `worker="evil\x1b[2J\x1b]0;pwned\a"`; !strings.Contains(out, want) {
		t.Errorf("coordinator output lacks %s:\n%s", want, out)
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("a control character reached the coordinator's output: %q", out)
	}
}

// rogue is an admitted worker's key in the hands of the test, used as an
// attacker would: on every subject its permissions leave it, as fast as it
// can.
type rogue struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	pub string
	run Run
}

func newRogue(t *testing.T, url, seed string, run Run) *rogue {
	t.Helper()
	nc, err := Connect(ConnOptions{URL: url, NKey: seed, FailFast: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	b, _ := os.ReadFile(seed)
	id, err := IdentityFromSeed(b)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	return &rogue{nc: nc, js: js, pub: id.Public(), run: run}
}

// flood publishes, n times over the run's blocks: a forged block message
// on the block's real subject (a body that names the block, unsealed), the
// coordinator's record of the block set aside, a failure report of its
// own that says the server gave up, a hand-back notice, and a result
// under its own key that no one sealed, with one under a key of no block.
func (r *rogue) flood(t *testing.T, n int) {
	t.Helper()
	kv := func(key string) string { return "$KV." + r.run.Bucket + "." + key }
	for i := range n {
		b := r.run.block(i % r.run.blocks())
		job, _ := json.Marshal(blockJob{Run: r.run.ID, N: r.run.N, First: b.First, Last: b.Last, Replicas: r.run.Replicas})
		gaveUp, _ := json.Marshal(failure{First: b.First, Last: b.Last, GaveUp: true, Error: "forged", Delivered: 5})
		for _, m := range []struct {
			subject string
			data    []byte
		}{
			{r.run.blockSubject(b), job},
			{kv(failedKey(b)), gaveUp},
			{kv(failureKey(b, r.pub)), gaveUp},
			{r.run.backSubject(r.pub), []byte(strconv.Itoa(b.First))},
			{kv(voteKey(b, r.pub)), []byte(`{"vote":{"n":1}}`)},
			{kv(fmt.Sprintf("vote.%d.%s", b.First+1, r.pub)), []byte("{}")},
		} {
			if err := r.nc.Publish(m.subject, m.data); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := r.nc.Flush(); err != nil {
		t.Fatal(err)
	}
}

// spend, until ctx ends, takes block messages and hands each back at once
// (each such nak spends one of its deliveries), and naks every message in
// flight to the honest workers through acknowledgement subjects it makes
// up from the stream's and the consumer's sequences.
func (r *rogue) spend(ctx context.Context) {
	cons, err := r.js.Consumer(ctx, r.run.Stream, consumer)
	if err != nil {
		return
	}
	stream, err := r.js.Stream(ctx, r.run.Stream)
	if err != nil {
		return
	}
	for ctx.Err() == nil {
		if batch, err := cons.Fetch(16, jetstream.FetchMaxWait(100*time.Millisecond)); err == nil {
			for m := range batch.Messages() {
				_ = m.Nak()
			}
		}
		si, err1 := stream.Info(ctx)
		ci, err2 := cons.Info(ctx)
		if err1 != nil || err2 != nil {
			continue
		}
		for seq := si.State.FirstSeq; seq <= si.State.LastSeq; seq++ {
			ack := fmt.Sprintf("$JS.ACK.%s.%s.1.%d.%d.%d.0", r.run.Stream, consumer, seq, ci.Delivered.Consumer, time.Now().UnixNano())
			_ = r.nc.Publish(ack, []byte("-NAK"))
		}
	}
}

// TestProcessRogueFlood: one admitted worker key attacks a run of N = 12
// beside two honest workers, with only what its permissions leave it: it
// floods the run with 20,000 forged block messages on the real block
// subjects, forged records of blocks set aside, failure reports, hand-back
// notices and results nobody sealed, and all the while spends the
// deliveries of every block it can reach, its own (nak) and the honest
// workers' (naks through made-up acknowledgement subjects). The run ends
// with the right total; blocks that ran out of deliveries are counted by
// the coordinator; no process writes a raw NATS line, and the coordinator
// says a few dozen warnings, naming the rogue's key. The same flood used
// to set genuine blocks aside and end the run with exit 1, a restart then
// made no progress while it wrote thousands of warnings, and the
// coordinator blamed no worker.
func TestProcessRogueFlood(t *testing.T) {
	const n = 12
	voters, seeds := nkeyFiles(t, "R", "H1", "H2")
	_, coordSeed := nkeyFiles(t, "coordinator")
	url := startServerWithUsers(t, voters, coordSeed["coordinator"])
	coord := testkit.StartFaulty(t, "coordinator", nil, "coordinator", strconv.Itoa(n), "--nats", url, "--nats-nkey", coordSeed["coordinator"],
		"--auth-nkeys", voters, "--ack-wait", "2s", "--block-size", "8", "--verify-fraction", "0")
	coord.WaitMatch(t, `published the block messages messages=\d+`)
	r := newRogue(t, url, seeds["R"], runFor(n, 8, 1))
	start := time.Now()
	r.flood(t, 20000)
	t.Logf("flooded in %s", time.Since(start).Round(time.Millisecond))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	spent := make(chan struct{})
	go func() { r.spend(ctx); close(spent) }()
	var honest []*testkit.Proc
	for _, name := range []string{"H1", "H2"} {
		honest = append(honest, testkit.StartFaulty(t, "worker "+name, nil, "worker", "--nats", url, "--nats-nkey", seeds[name], "--workers", "1", "--name", name, "--exit-when-idle", "2s"))
	}
	if code := coord.Wait(t); code != 0 {
		t.Fatalf("coordinator exit %d", code)
	}
	stop()
	<-spent
	if err := reference.CheckOutput(n, coord.Stdout.String()); err != nil {
		t.Error(err)
	}
	for _, h := range honest {
		if code := h.Wait(t); code != 0 {
			t.Errorf("%s: exit %d", h.Name, code)
		}
	}
	for _, p := range append(honest, coord) {
		for _, line := range strings.Split(strings.TrimSpace(p.Stderr.String()), "\n") {
			if !strings.HasPrefix(line, "nqueens: ") {
				t.Errorf("%s wrote a line that is not the program's: %q", p.Name, line)
			}
		}
	}
	out := coord.Stderr.String()
	if w := strings.Count(out, "warning: "); w > 30 {
		t.Errorf("the coordinator wrote %d warnings:\n%s", w, out)
	}
	if !strings.Contains(out, r.pub) {
		t.Errorf("the coordinator's log does not name the rogue's key %s:\n%s", r.pub, out)
	}
	t.Logf("%s after the flood; coordinator: %d lines, %d warnings, %d blocks counted by itself", time.Since(start).Round(time.Millisecond),
		strings.Count(out, "\n"), strings.Count(out, "warning: "), strings.Count(out, "ran out of deliveries; the coordinator counts it itself"))
}

// TestProcessRestartOverForgeries: on an embedded server without
// credentials (loopback: anyone on the machine may connect), a stranger
// fills a run's queue with 20,000 block messages on the real subjects
// whose bodies are not the coordinator's, and records of every block set
// aside, while worker A holds unit 0; the coordinator is killed and
// started again over that queue. The new worker B removes the forgeries
// it meets, A lets its unit go, and the restarted run gives the right
// total. Such messages used to be handed back until they ran out of
// deliveries, setting their genuine blocks aside: the run ended with exit
// 1, and a restart made no progress while it wrote thousands of warnings.
func TestProcessRestartOverForgeries(t *testing.T) {
	const n, forgeries = 12, 20000
	listen := fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t))
	url := "nats://" + listen
	args := []string{"coordinator", strconv.Itoa(n), "--listen", listen, "--store", t.TempDir(), "--block-size", "8", "--ack-wait", "2s"}
	coord := testkit.StartFaulty(t, "coordinator", nil, args...)
	coord.WaitMatch(t, `published the block messages messages=\d+`)
	a := testkit.StartFaulty(t, "worker A", []string{holdEnv + "=0"}, "worker", "--nats", url, "--workers", "1", "--name", "A")
	a.WaitMatch(t, heldRx)

	nc := connect(t, url)
	js, _ := jetstream.New(nc)
	run := runFor(n, 8, 1)
	for i := range forgeries {
		b := run.block(i % run.blocks())
		if _, err := js.PublishAsync(run.blockSubject(b), []byte(`{"run":"forged"}`)); err != nil {
			t.Fatal(err)
		}
		if i < run.blocks() {
			gaveUp, _ := json.Marshal(failure{First: b.First, Last: b.Last, GaveUp: true, Delivered: 5, Error: "forged"})
			nc.Publish("$KV."+run.Bucket+"."+failedKey(b), gaveUp)
		}
		if i%1000 == 999 { // the client holds at most 4000 publishes unanswered
			select {
			case <-js.PublishAsyncComplete():
			case <-time.After(testkit.WaitLimit):
				t.Fatal("the forgeries were not stored")
			}
		}
	}
	coord.Kill()
	coord.Wait(t)

	again := testkit.StartFaulty(t, "coordinator again", nil, args...)
	again.WaitMatch(t, `embedded NATS server at`)
	b := testkit.StartFaulty(t, "worker B", nil, "worker", "--nats", url, "--workers", "1", "--name", "B", "--exit-when-idle", "2s")
	b.WaitMatch(t, "warning: a block message that the run's coordinator did not seal; removed")
	if err := a.Cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	if code := again.Wait(t); code != 0 {
		t.Fatalf("the restarted coordinator: exit %d", code)
	}
	if err := reference.CheckOutput(n, again.Stdout.String()); err != nil {
		t.Error(err)
	}
	if code := b.Wait(t); code != 0 || !strings.Contains(b.Stderr.String(), "forged block messages removed") {
		t.Errorf("worker B: exit %d, stderr:\n%s", code, b.Stderr.String())
	}
	out := again.Stderr.String()
	if w := strings.Count(out, "warning: "); w > 10 {
		t.Errorf("the restarted coordinator wrote %d warnings:\n%s", w, out)
	}
	t.Logf("restarted coordinator: %d lines; worker B: %s", strings.Count(out, "\n"), b.Stderr.String())
}
