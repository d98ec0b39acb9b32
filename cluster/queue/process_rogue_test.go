package queue

// Process tests of workers that cannot or must not help a run: one whose
// results the coordinator refuses, one named with terminal escapes, and
// a rogue that floods the queue with its own admitted key.

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/count"
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
