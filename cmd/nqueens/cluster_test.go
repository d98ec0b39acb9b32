package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/cluster/queue"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// writeLedger writes a ledger of N with the given units in one record per
// group, with fixed seconds and worker so that the output is reproducible.
func writeLedger(t *testing.T, path string, n int, groups ...[]count.UnitResult) {
	t.Helper()
	l, err := ledger.Open(context.Background(), path, n, testkit.UserKey(t))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Worker = "host-" + filepath.Base(path)
	for _, g := range groups {
		if err := l.Append(g, 1.5); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	all := testkit.AllUnits(t, 8, count.Units, count.CountUnit)
	changed := append([]count.UnitResult(nil), all[10:12]...)
	changed[1].Total += 8
	writeLedger(t, p("a.jsonl"), 8, all[:40])
	writeLedger(t, p("b.jsonl"), 8, all[40:60], all[60:])
	writeLedger(t, p("c.jsonl"), 8, changed)
	writeLedger(t, p("n9.jsonl"), 9, testkit.AllUnits(t, 9, count.Units, count.CountUnit)[:3])
	if err := os.WriteFile(p("junk.jsonl"), []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		inStderr string
	}{
		{"complete", []string{p("a.jsonl"), p("b.jsonl")}, 0, "total 92\nunique 12\n", ""},
		{"equal duplicates", []string{p("a.jsonl"), p("b.jsonl"), p("a.jsonl")}, 0, "total 92\nunique 12\n", "40 units were counted more than once"},
		{"missing", []string{p("b.jsonl")}, 1, "", "40 of 78 units of N = 8 are missing: 0-39"},
		{"conflict", []string{p("a.jsonl"), p("b.jsonl"), p("c.jsonl")}, 1, "", fmt.Sprintf("unit 11 of N = 8 has two different results: total=0 rot180=0 rot90=0 nodes=%[1]d in %[2]s:1 and total=8 rot180=0 rot90=0 nodes=%[1]d in %[3]s:1", all[11].Nodes, p("a.jsonl"), p("c.jsonl"))},
		{"different runs", []string{p("a.jsonl"), p("n9.jsonl")}, 1, "", "ledgers of different runs"},
		{"malformed", []string{p("junk.jsonl")}, 1, "", "junk.jsonl:1: not a ledger record"},
		{"no such file", []string{p("none.jsonl")}, 1, "", "none.jsonl"},
		{"no files", nil, 2, "", "at least one ledger"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(append([]string{"merge"}, tt.args...)...)
			if code != tt.code || out != tt.stdout || !strings.Contains(errOut, tt.inStderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q",
					code, out, errOut, tt.code, tt.stdout, tt.inStderr)
			}
		})
	}
	code, out, errOut := runCLI("merge", "--json", p("a.jsonl"), p("b.jsonl"))
	if code != 0 {
		t.Fatalf("merge --json: exit %d: %s", code, errOut)
	}
	testkit.Golden(t, "testdata/cli/merge_8_json.txt", []byte(out))
}

func TestCountShardCommand(t *testing.T) {
	dir := t.TempDir()
	ledgerPath := filepath.Join(dir, "l.jsonl")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	tests := []struct {
		args     []string
		code     int
		inStderr string
	}{
		{[]string{"--shard", "1/4"}, 2, "needs --ledger"},
		{[]string{"--ledger", ledgerPath}, 2, "--ledger needs --shard"},
		{[]string{"--shard", "4/4", "--ledger", ledgerPath}, 2, "--shard: shard index 4 is outside 0..3"},
		{[]string{"--shard", "x", "--ledger", ledgerPath}, 2, "not I/K"},
		{[]string{"--shard", "0/2", "--shard-from-env", "--shards", "2", "--ledger", ledgerPath}, 2, "not both"},
		{[]string{"--shard", "0/2", "--shards", "2", "--ledger", ledgerPath}, 2, "--shard-from-env and --shards go together: add --shard-from-env"},
		{[]string{"--shard-from-env", "--ledger", ledgerPath}, 2, "--shard-from-env and --shards go together: add --shards"},
		{[]string{"--shard-from-env", "--shards", "0", "--ledger", ledgerPath}, 2, "--shards K is the number of array tasks, at least 1"},
		{[]string{"--shard-from-env", "--shards", "2", "--ledger", ledgerPath}, 2, "neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID"},
		{[]string{"--shard", "0/2", "--ledger", ledgerPath, "--ledger-every", "0s"}, 2, "--ledger-every"},
		{[]string{"--shard", "0/2", "--ledger", filepath.Join(dir, "no", "such", "dir.jsonl")}, 1, "no such file"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(append([]string{"count", "10"}, tt.args...)...)
			if code != tt.code || out != "" || !strings.Contains(errOut, tt.inStderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr containing %q", code, out, errOut, tt.code, tt.inStderr)
			}
		})
	}

	// Both shards of N = 10, the second from the environment as in an
	// Indexed Job; the second run of shard 0 finds its work done.
	for _, args := range [][]string{
		{"--shard", "0/2"},
		{"--shard", "0/2"},
	} {
		if code, _, errOut := runCLI(append([]string{"count", "10", "--ledger", ledgerPath}, args...)...); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	}
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	ledger1 := filepath.Join(dir, "l1.jsonl")
	code, out, errOut := runCLI("count", "10", "--shard-from-env", "--shards", "2", "--ledger", ledger1, "--json")
	var j struct {
		Shard string `json:"shard"`
		Units int    `json:"units"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j.Shard != "1/2" || j.Units != count.Units(10)/2 {
		t.Fatalf("shard from env: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	code, out, errOut = runCLI("merge", ledgerPath, ledger1)
	if code != 0 || out != "total 724\nunique 92\n" {
		t.Errorf("merge: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	lf, err := ledger.ReadFile(context.Background(), ledgerPath, testkit.UserKey(t))
	if err != nil || lf.Records() != 1 {
		t.Errorf("shard 0 ledgerPath after two runs: %v, %v; want 1 record", lf, err)
	}
}

func TestCoordinatorWorkerUsage(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		inStderr string
	}{
		{[]string{"coordinator"}, 2, "needs N"},
		{[]string{"coordinator", "0"}, 2, "out of range for coordinator"},
		{[]string{"coordinator", "10", "--ack-wait", "100ms"}, 2, "--ack-wait"},
		{[]string{"coordinator", "10", "--max-deliver", "0"}, 2, "--max-deliver"},
		{[]string{"coordinator", "10", "--replicas", "0"}, 2, "--replicas"},
		{[]string{"coordinator", "10", "--block-size", "5000"}, 2, "--block-size"},
		{[]string{"coordinator", "10", "--progress-every", "0s"}, 2, "--progress-every"},
		{[]string{"coordinator", "10", "--nats", "nats://127.0.0.1:1", "--store", "x"}, 2, "embedded server"},
		{[]string{"coordinator", "10", "--tls-ca", "ca.pem"}, 2, "go with --nats"},
		{[]string{"coordinator", "10", "--nats", "nats://127.0.0.1:1", "--tls-cert", "c.pem"}, 2, "--tls-cert and --tls-key go together"},
		{[]string{"coordinator", "10", "--nats", "nats://127.0.0.1:1"}, 1, "connecting to nats://127.0.0.1:1"},
		{[]string{"coordinator", "10", "--verify-fraction", "1.5"}, 2, "--verify-fraction"},
		{[]string{"coordinator", "10", "--replicas", "6"}, 2, "--replicas must be 1 to 5"},
		{[]string{"coordinator", "10", "--auth-token-file", "t", "--auth-nkeys", "k"}, 2, "not both"},
		{[]string{"coordinator", "10", "--server-tls-cert", "c.pem"}, 2, "go together"},
		{[]string{"coordinator", "10", "--nats", "nats://127.0.0.1:1", "--auth-token-file", "t"}, 2, "embedded server"},
		// Beyond loopback without credentials, the embedded server would
		// let anyone store results: refused before it starts.
		{[]string{"coordinator", "10", "--listen", "0.0.0.0:0", "--store", filepath.Join(t.TempDir(), "s")}, 2, "needs credentials"},
		{[]string{"worker", "--nats-token-file", "t", "--nats-nkey", "k"}, 2, "give --nats-nkey or --nats-token-file, not both"},
		{[]string{"worker", "--nats-token-file", "t", "--nats-nkey", "k", "--nats-creds", "c"}, 2, "give only one of --nats-creds, --nats-nkey, --nats-token-file"},
		{[]string{"worker", "extra"}, 2, "no arguments"},
		{[]string{"worker", "--workers", "-1"}, 2, "--workers"},
		{[]string{"worker", "--exit-when-idle", "-1s"}, 2, "--exit-when-idle"},
		{[]string{"worker", "--tls-key", "k.pem"}, 2, "--tls-cert and --tls-key go together"},
		// JSON would turn the byte into U+FFFD, and the coordinator refused
		// every result of the worker without telling it.
		{[]string{"worker", "--name", "bad\x9bname"}, 2, `--name: worker name "bad\x9bname": byte 4 is not valid UTF-8`},
		{[]string{"worker", "--name", "evil\x1b[2J"}, 2, `--name: worker name "evil\x1b[2J": character 5 (U+001B) is not printable`},
		{[]string{"worker", "--name", strings.Repeat("w", 129)}, 2, "129 characters, more than 128"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(tt.args...)
			if code != tt.code || out != "" || !strings.Contains(errOut, tt.inStderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr containing %q", code, out, errOut, tt.code, tt.inStderr)
			}
		})
	}
}

// TestCoordinatorAndWorkerCommands runs both commands through runCLI
// against a server in the test: the worker exits when idle, the
// coordinator prints the count.
func TestCoordinatorAndWorkerCommands(t *testing.T) {
	start := time.Now()
	code, out, errOut, wCode, wErr := poolRun(t, []string{"--json"}, nil)
	var j count.ResultJSON
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j.Total != count.U128(2680) || j.Unique != count.U128(341) || j.Units != count.Units(11) || j.Workers != 1 {
		t.Fatalf("coordinator: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	if wCode != 0 || !strings.Contains(wErr, "worker w1: ") {
		t.Errorf("worker: exit %d, stderr %s", wCode, wErr)
	}
	t.Logf("N = 11 through the queue in %s", time.Since(start).Round(time.Millisecond))
}

// TestCoordinatorAndWorkerQuiet: with --quiet, a coordinator and a worker
// that meet no problem write nothing on stderr (they had no --quiet: the
// coordinator wrote its progress lines, the worker its summary).
func TestCoordinatorAndWorkerQuiet(t *testing.T) {
	code, out, errOut, wCode, wErr := poolRun(t, []string{"--quiet"}, []string{"--quiet"})
	if code != 0 || out != "total 2680\nunique 341\n" || errOut != "" {
		t.Errorf("coordinator --quiet: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if wCode != 0 || wErr != "" {
		t.Errorf("worker --quiet: exit %d, stderr %q", wCode, wErr)
	}
	if code, _, errOut := runCLI("worker", "--quiet", "--verbose"); code != 2 || !strings.Contains(errOut, "quiet") {
		t.Errorf("worker --quiet --verbose: exit %d, %q; want 2", code, errOut)
	}
}

// poolRun counts N = 11 with the coordinator command and one worker
// command (--name w1) on a server of its own, with the extra arguments of
// each, and returns what each said.
func poolRun(t *testing.T, coordinator, worker []string) (code int, out, errOut string, wCode int, wErr string) {
	t.Helper()
	srv, err := queue.StartServer(queue.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := srv.ClientURL()
	var wg sync.WaitGroup
	wg.Go(func() {
		code, out, errOut = runCLI(append([]string{"coordinator", "11", "--nats", url}, coordinator...)...)
	})
	// The worker starts once the blocks are published: started first, on a
	// loaded machine --exit-when-idle could end it before there was work.
	nc, err := queue.Connect(queue.ConnOptions{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, "the coordinator to publish the blocks", func() bool {
		for name := range js.StreamNames(context.Background()).Name() {
			if st, err := js.Stream(context.Background(), name); err == nil && strings.HasPrefix(name, "NQUEENS-n11-") && st.CachedInfo().State.Msgs > 0 {
				return true
			}
		}
		return false
	})
	wCode, _, wErr = runCLI(append([]string{"worker", "--nats", url, "--workers", "2", "--name", "w1", "--exit-when-idle", "1s"}, worker...)...)
	wg.Wait()
	return code, out, errOut, wCode, wErr
}

// TestMergeForgedPastTheTable replays the forged ledgers of issue 22: all
// units of N = 28 (877,877 then, about 65,500 of the join now), each with a
// made-up result (merge
// printed "total 7023016", exit 0). Sealed under another key, or edited
// from a genuine line, each is refused with its file and line, for N = 28
// as for N = 14; made up by a holder of the key, the total is refused by
// the estimate's spread.
func TestMergeForgedPastTheTable(t *testing.T) {
	if testing.Short() {
		t.Skip("writes ledgers of the ~65,500 units of N = 28")
	}
	dir := t.TempDir()
	forger, err := seal.CreateFile(filepath.Join(dir, "forger.key"))
	if err != nil {
		t.Fatal(err)
	}
	// forge writes the units of N, one made-up result each, in lines of at
	// most 4,096 results, the most a ledger record takes; all of them, or
	// only the first line when the merge is to stop at line 1 (the race
	// detector makes each merge of N = 28's units slow).
	forge := func(name string, n int, key *seal.Key, all bool) string {
		path := filepath.Join(dir, name)
		l, err := ledger.Open(context.Background(), path, n, key)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		units := make([]count.UnitResult, 0, count.Units(n))
		for i := range count.Units(n) {
			units = append(units, madeUp(n, i))
		}
		const per = 4096
		for i := 0; i < len(units); i += per {
			if err := l.Append(units[i:min(i+per, len(units))], 1); err != nil {
				t.Fatal(err)
			}
			if !all {
				break
			}
		}
		return path
	}
	for _, n := range []int{14, 28} {
		path := forge(fmt.Sprintf("f%d.jsonl", n), n, forger, n == 14)
		code, out, errOut := runCLI("merge", path)
		want := path + ":1: ledger line refused: it was sealed under key " + forger.ID() + ", not under the key " + testkit.UserKey(t).ID()
		if code != 1 || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("N = %d under another key: exit %d, %q, %q; want %q", n, code, out, errOut, want)
		}
		if code, _, _ := runCLI("merge", "--key-file", filepath.Join(dir, "forger.key"), path); n == 14 && code != 1 {
			t.Errorf("N = 14 under the forger's own key: exit %d, want 1 (the published table)", code)
		}
		// A genuine line, edited: its total raised.
		genuine := filepath.Join(dir, fmt.Sprintf("g%d.jsonl", n))
		l, err := ledger.Open(context.Background(), genuine, n, testkit.UserKey(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Append([]count.UnitResult{{Index: 0, Total: 8, Nodes: 1000}}, 1); err != nil {
			t.Fatal(err)
		}
		l.Close()
		data, _ := os.ReadFile(genuine)
		os.WriteFile(genuine, bytes.Replace(data, []byte(`"total":8`), []byte(`"total":16`), 1), 0o644)
		code, _, errOut = runCLI("merge", genuine)
		if want := genuine + ":1: ledger line refused: its content does not match its seal"; code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("N = %d edited: exit %d, %q; want %q", n, code, errOut, want)
		}
	}
	// A holder of the key who makes results up past the table.
	path := forge("own28.jsonl", 28, testkit.UserKey(t), true)
	code, out, errOut := runCLI("merge", path)
	if code != 1 || out != "" || !strings.Contains(errOut, "standard errors from the estimate") {
		t.Errorf("N = 28 made up under the user's key: exit %d, %q, %q", code, out, errOut)
	}
}

// TestCoordinatorFlagsOfARun: a coordinator started without --replicas
// leaves the stored run's replicas alone (the flag's default, 1, was sent
// and refused a run of --replicas 2), and suggests workers an address they
// can dial when the server listens on every interface (it suggested
// nats://0.0.0.0:P).
func TestCoordinatorFlagsOfARun(t *testing.T) {
	o := &coordinatorOptions{replicas: 1}
	o.given = func(string) bool { return false }
	if r := o.queueOptions().Replicas; r != 0 {
		t.Errorf("without --replicas the run's options ask for %d replicas, want 0 (the run's own)", r)
	}
	o.given = func(f string) bool { return f == "replicas" }
	if r := o.queueOptions().Replicas; r != 1 {
		t.Errorf("with --replicas 1: %d", r)
	}
	host, _ := os.Hostname()
	for _, listen := range []string{"0.0.0.0:4222", "[::]:4222"} {
		o := &coordinatorOptions{listen: listen}
		line := o.workerCommand("nats://"+listen, "/home/u/.config/nqueens/seal.key")
		if strings.Contains(line, "0.0.0.0") || strings.Contains(line, "[::]") || !strings.Contains(line, "nats://"+host+":4222") || !strings.Contains(line, "--key-file COPY-OF-seal.key") {
			t.Errorf("--listen %s: workers are told %q", listen, line)
		}
	}
	o = &coordinatorOptions{listen: "127.0.0.1:4222"}
	if line := o.workerCommand("nats://127.0.0.1:4222", "/k"); line != "nqueens worker --nats nats://127.0.0.1:4222" {
		t.Errorf("loopback: workers are told %q", line)
	}
}

// TestWorkerSummary: a ban is an alarm in the worker's last line (it said
// "0 alarm(s)" right after its ALARM), and counts take their plurals.
func TestWorkerSummary(t *testing.T) {
	got := workerSummary(i18n.For(i18n.English), "liar", queue.WorkerReport{Units: 1, Banned: []string{"n14-0ee160a3ee"}}, 2*time.Second)
	want := "nqueens: worker liar: 1 unit counted, 0 counted again with the same result, 0 declined, 1 alarm, 0 failures in 2s"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got = workerSummary(i18n.For(i18n.English), "w", queue.WorkerReport{Units: 8, Discarded: 3}, time.Second)
	want = "nqueens: worker w: 8 units counted, 0 counted again with the same result, 0 declined, 0 alarms, 0 failures, 3 forged block messages removed in 1s"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestWorkerRefusedCredential: a worker whose credential the server
// refuses exits 1 naming the flag that gives it, or the flags that give
// one when it sent none (it used to say "cannot reach" and retry forever).
func TestWorkerRefusedCredential(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a NATS server that refuses three connections")
	}
	dir := t.TempDir()
	tok, bad := filepath.Join(dir, "tok"), filepath.Join(dir, "bad")
	os.WriteFile(tok, []byte("secret\n"), 0o600)
	os.WriteFile(bad, []byte("wrong\n"), 0o600)
	srv, err := queue.StartServer(queue.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), TokenFile: tok})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nats-token-file", bad}, "check the token in --nats-token-file " + bad},
		{nil, "the server wants credentials: give --nats-token-file, --nats-nkey or --nats-creds"},
	} {
		code, _, errOut := runCLI(append([]string{"worker", "--nats", srv.ClientURL()}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, "the NATS server refused this worker's credentials") || !strings.HasSuffix(errOut, tc.want+"\n") {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
}

// TestShardRepairSaysWhy: a ledger whose last line was cut short is
// repaired with words that fit every cause (it blamed a kill, also when a
// full disk cut it).
func TestShardRepairSaysWhy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.jsonl")
	if code, _, errOut := runCLI("count", "8", "--shard", "0/2", "--ledger", path); code != 0 {
		t.Fatalf("shard: exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, append(data, `{"fingerprint":"nqueens-count eng`...), 0o644)
	code, _, errOut := runCLI("count", "8", "--shard", "0/2", "--ledger", path)
	if want := "l.jsonl:2: removed a last line cut short while it was written (a kill, a crash or a full disk)"; code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, %q; want %q", code, errOut, want)
	}
}

// TestFileModesAsDocumented: docs/security.md says with which mode
// checkpoints and ledgers are written (it said 0644 for checkpoints,
// written 0600), and the files have it.
func TestFileModesAsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ck, ledgerPath := filepath.Join(dir, "ck.json"), filepath.Join(dir, "l.jsonl")
	if code, _, errOut := runCLI("count", "8", "--checkpoint", ck); code != 0 {
		t.Fatalf("count: %s", errOut)
	}
	if code, _, errOut := runCLI("count", "8", "--shard", "0/1", "--ledger", ledgerPath); code != 0 {
		t.Fatalf("shard: %s", errOut)
	}
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	for _, f := range []struct {
		path, row string
		mode      os.FileMode
	}{
		{ck, "| checkpoints | files, mode 0600 |", 0o600},
		{ledgerPath, "| ledgers | files, mode 0644 less the umask |", 0o644 &^ os.FileMode(umask)},
	} {
		fi, err := os.Stat(f.path)
		if err != nil || fi.Mode().Perm() != f.mode {
			t.Errorf("%s: mode %v (%v), want %v", f.path, fi.Mode().Perm(), err, f.mode)
		}
		if !strings.Contains(string(doc), f.row) {
			t.Errorf("docs/security.md lacks the row %q", f.row)
		}
	}
}

// TestRunStateNote: the coordinator's progress names its workers and
// blocks in words ("1 worker(s)" before).
func TestRunStateNote(t *testing.T) {
	for _, tc := range []struct {
		p    queue.RunProgress
		want string
	}{
		{queue.RunProgress{Workers: 1, Checking: 1}, "1 worker, 1 block being counted again here"},
		{queue.RunProgress{Workers: 3, Checking: 3, Failed: make([]queue.Block, 2)}, "3 workers, 3 blocks being counted again here (2 out of deliveries)"},
		{queue.RunProgress{}, "0 workers"},
	} {
		if got := runState(i18n.For(i18n.English), tc.p).Note; got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}

// madeUp is a made-up result of unit i of N that passes every check of one
// result: 8 solutions in 1000 nodes, or, in a rotation unit of the join
// (which counts only the solutions a half turn fixes), 8 of those.
func madeUp(n, i int) count.UnitResult {
	u := count.UnitResult{Index: i, Total: 8, Nodes: 1000}
	if count.Check(n, u) != nil {
		u = count.UnitResult{Index: i, Rot180: 8}
	}
	return u
}
