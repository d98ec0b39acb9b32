package main

import (
	"context"
	"encoding/json"
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

	"github.com/nqueens/nqueens/cluster/ledger"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
)

func TestCountCommand(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		stdout   string // exact, if not empty
		inStderr string
	}{
		{[]string{"count", "12"}, 0, "total 14200\nunique 1787\n", ""},
		{[]string{"count", "1", "--workers", "1"}, 0, "total 1\nunique 1\n", ""},
		{[]string{"count", "3"}, 0, "total 0\nunique 0\n", ""},
		{[]string{"count", "65"}, 2, "", "n = 65 is out of range for count (1..64)"},
		{[]string{"count", "0"}, 2, "", "n = 0 is out of range"},
		{[]string{"count", "x"}, 2, "", "whole number"},
		{[]string{"count"}, 2, "", "needs N"},
		{[]string{"count", "8", "--range", "1-3"}, 2, "", "not both"},
		{[]string{"count", "--range", "5-3"}, 2, "", "empty"},
		{[]string{"count", "--range", "3"}, 2, "", "A-B"},
		{[]string{"count", "8", "--workers", "-1"}, 2, "", "--workers"},
		{[]string{"count", "27"}, 2, "", "--yes"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(tt.args...)
			if code != tt.code || (tt.stdout != "" && out != tt.stdout) || !strings.Contains(errOut, tt.inStderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q",
					code, out, errOut, tt.code, tt.stdout, tt.inStderr)
			}
			if tt.code != 0 && out != "" {
				t.Errorf("failed command wrote to stdout: %q", out)
			}
		})
	}
}

// TestCountJSONShape: count --json writes the one shape of a count result
// (docs/json.md): exact numbers, in this order, with the published count
// and whether it matches; past the table both are null.
func TestCountJSONShape(t *testing.T) {
	code, out, _ := runCLI("count", "12", "--json")
	want := regexp.MustCompile(`^\{"n":12,"total":14200,"unique":1787,"nodes":\d+,"seconds":[0-9.e-]+,"workers":\d+,"units":\d+,"reference":\{"total":14200,"unique":1787\},"matches":true\}\n$`)
	if code != 0 || !want.MatchString(out) {
		t.Errorf("count 12 --json: exit %d, %s", code, out)
	}
	j := count.Result{N: 30, Total: count.U128(1)}.JSON()
	b, _ := json.Marshal(j)
	if !strings.HasSuffix(string(b), `"reference":null,"matches":null}`) {
		t.Errorf("past the table: %s", b)
	}
	// A count past 2^64 is still a plain JSON number.
	big := count.Result{N: 30, Total: count.Uint128{Hi: 1, Lo: 5}}.JSON()
	if b, _ := json.Marshal(big); !strings.Contains(string(b), `"total":18446744073709551621,`) {
		t.Errorf("past 2^64: %s", b)
	}
}

func TestCountJSON(t *testing.T) {
	code, out, _ := runCLI("count", "10", "--json", "--workers", "2")
	var j map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil {
		t.Fatalf("exit %d, output %q", code, out)
	}
	for _, k := range []string{"n", "total", "unique", "nodes", "seconds", "workers", "units"} {
		if _, ok := j[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, out)
		}
	}
	if j["total"] != 724.0 || j["unique"] != 92.0 || j["workers"] != 2.0 {
		t.Errorf("JSON %s", out)
	}
}

func TestCountRange(t *testing.T) {
	code, out, errOut := runCLI("count", "--range", "1-11")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 12 || lines[0] != "n\ttotal\tunique\tseconds\treference" {
		t.Fatalf("table:\n%s", out)
	}
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l, "\tok") {
			t.Errorf("row not checked ok: %q", l)
		}
	}
	if !strings.HasPrefix(lines[11], "11\t2680\t341\t") {
		t.Errorf("row 11: %q", lines[11])
	}
	code, out, _ = runCLI("count", "--range", "4-5", "--json")
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, `"reference":{"total":10,"unique":2},"matches":true}`) {
		t.Errorf("JSON lines: exit %d %q", code, out)
	}
}

func TestEstimateCommand(t *testing.T) {
	code, out, errOut := runCLI("estimate", "12", "--probes", "3000")
	if code != 0 || !strings.Contains(out, "solutions") || !strings.Contains(out, "published 14200") || !strings.Contains(out, "measured by counting N = 12 in full") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// N = 33, past the join (count.JoinTo): Knuth probes and the node rate
	// of the tree search.
	code, out, _ = runCLI("estimate", "33", "--probes", "500", "--json")
	var j map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j["nodes"].(float64) <= 0 || j["rate_n"] != 15.0 || j["engine"] != "tree" {
		t.Errorf("exit %d, JSON %q", code, out)
	}
	code, out, _ = runCLI("estimate", "33", "--probes", "500")
	if code != 0 || !strings.Contains(out, "nodes      ≈") || !strings.Contains(out, "measured counting N = 15 by the tree search") {
		t.Errorf("exit %d, %q", code, out)
	}
	// N = 17, counted by the join: keys counted and timed, at most 200
	// whatever --probes says, as the help says (it spoke only of the tree).
	code, out, _ = runCLI("estimate", "17", "--probes", "50000", "--json")
	j = nil
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j["nodes"].(float64) <= 0 || j["seconds_one_worker"].(float64) <= 0 || j["rate_n"] != 0.0 || j["probes"].(float64) > 200 || j["engine"] != "join" {
		t.Errorf("exit %d, JSON %q", code, out)
	}
	// N = 14 and 12, measured in full: the join's pairs (they were called
	// nodes of a search tree) and the tree's nodes.
	for n, want := range map[string]string{"14": "join", "12": "tree"} {
		code, out, _ = runCLI("estimate", n, "--probes", "100", "--json")
		j = nil
		if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j["engine"] != want || j["measured"] != true {
			t.Errorf("estimate %s: exit %d, JSON %q", n, code, out)
		}
	}
	code, out, _ = runCLI("estimate", "14", "--probes", "100")
	if code != 0 || !strings.Contains(out, "pairs      ≈") || strings.Contains(out, "search tree") {
		t.Errorf("estimate 14: exit %d, %q", code, out)
	}
	_, help, _ := runCLI("estimate", "--help")
	for _, want := range []string{"From N = 33 on (the tree search)", "counting N = 15 on one worker", "For N = 16 to 32 (the join", "CPU time", "--memory", "at most 200 probes", "Up to N = 15"} {
		if !strings.Contains(help, want) {
			t.Errorf("the help does not say %q", want)
		}
	}
	if code, _, _ := runCLI("estimate", "65"); code != 2 {
		t.Errorf("estimate 65: exit %d", code)
	}
	if code, _, _ := runCLI("estimate", "12", "--probes", "1"); code != 2 {
		t.Errorf("--probes 1: exit %d", code)
	}
	// Boards too small for a search: a time and valid JSON (0 nodes/s once
	// gave 290 years, and NaN no JSON at all).
	for _, n := range []string{"1", "4", "5"} {
		code, out, errOut := runCLI("estimate", n, "--probes", "100", "--json")
		var j estimateJSON
		if code != 0 || json.Unmarshal([]byte(out), &j) != nil || !j.Measured || j.Seconds1 > 1 {
			t.Errorf("estimate %s: exit %d, %q %s", n, code, out, errOut)
		}
		code, out, _ = runCLI("estimate", n, "--probes", "100")
		if code != 0 || strings.Contains(out, "years") || !strings.Contains(out, "in full") {
			t.Errorf("estimate %s: exit %d, %q", n, code, out)
		}
	}
}

// TestEstimateRunProbes: the estimate before a count by the join counts
// runJoinProbes keys, not the 200 of estimate (work done again by the
// count, before it starts); the tree's probes are as asked.
func TestEstimateRunProbes(t *testing.T) {
	for _, c := range []struct{ n, probes, want int }{{16, 4000, runJoinProbes}, {33, 4000, 4000}} {
		e, took, err := estimateRun(context.Background(), c.n, nil, 2, c.probes)
		if err != nil || e.Probes != c.want || took <= 0 {
			t.Errorf("N=%d: %d probes, %v s, %v; want %d probes", c.n, e.Probes, took, err, c.want)
		}
	}
}

func TestCountCheckpointRefusals(t *testing.T) {
	dir := t.TempDir()
	ck := count.NewCheckpoint(9)
	path := filepath.Join(dir, "n9.json")
	if err := count.WriteCheckpoint(path, ck, testkit.UserKey(t)); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("count", "10", "--resume", path); code != 2 || !strings.Contains(errOut, "N = 9, not N = 10") {
		t.Errorf("other N: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("count", "9", "--checkpoint", path); code != 2 || !strings.Contains(errOut, "--resume") {
		t.Errorf("existing checkpoint: exit %d, %q", code, errOut)
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-20], 0o644)
	if code, _, errOut := runCLI("count", "9", "--resume", path); code != 1 || !strings.Contains(errOut, "n9.json:1: checkpoint refused: it is cut short") {
		t.Errorf("truncated: exit %d, %q", code, errOut)
	}
	// An empty checkpoint resumes into a full count, and is kept up to date.
	count.WriteCheckpoint(path, ck, testkit.UserKey(t))
	// The file, complete, is the user's: they are told so (it was left
	// behind without a word).
	note := fmt.Sprintf("nqueens: %s holds the complete count of N = 9 (count --resume %s prints it again at once); remove it when you no longer need it\n", path, path)
	if code, out, errOut := runCLI("count", "9", "--resume", path); code != 0 || out != "total 352\nunique 46\n" || !strings.HasSuffix(errOut, note) {
		t.Errorf("resume from empty: exit %d, %q %q", code, out, errOut)
	}
	if c, err := count.ReadCheckpoint(context.Background(), path, 9, testkit.UserKey(t)); err != nil || len(c.Units) != count.Units(9) {
		t.Errorf("final checkpoint: %v", err)
	}
}

// startHeld starts the nqueens command, built with the fault hooks, in dir
// with args, holding unit held until SIGUSR1 (internal/faults), and waits
// until it holds it: a test stops the command at a unit it chooses, however
// fast the engine is.
func startHeld(t *testing.T, dir string, held int, args ...string) (*exec.Cmd, *syncbuf.Buffer) {
	t.Helper()
	cmd := exec.Command(testkit.BuildBinary(t, "nqueens_faults"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), fmt.Sprintf("NQUEENS_FAULT_HOLD_UNIT=%d", held))
	var errOut syncbuf.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	testkit.WaitFor(t, fmt.Sprintf("the count to hold unit %d", held), func() bool {
		return strings.Contains(errOut.String(), fmt.Sprintf("holding unit %d ", held))
	})
	return cmd, &errOut
}

// TestCountKilledAndResumed stops a real count of N = 12 on one worker
// while it holds its unit 365 (fault injection): with SIGKILL once its
// checkpoint holds the 365 units before, with SIGINT and SIGTERM at once,
// which must save those units, stop within a second and say how to resume.
// The resumed count is exact.
func TestCountKilledAndResumed(t *testing.T) {
	const n = 12
	held := count.Units(n) / 2
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			ck := filepath.Join(dir, "ck.json")
			// SIGKILL leaves what the periodic saves wrote; the others
			// save on the way out, so no periodic save comes first.
			every := "1h"
			if sig == syscall.SIGKILL {
				every = "10ms"
			}
			cmd, errOut := startHeld(t, dir, held, "count", strconv.Itoa(n), "--checkpoint", ck, "--workers", "1", "--checkpoint-every", every)
			if sig == syscall.SIGKILL {
				testkit.WaitFor(t, "the checkpoint to hold the units before the held one", func() bool {
					c, err := count.ReadCheckpoint(context.Background(), ck, n, testkit.UserKey(t))
					return err == nil && len(c.Units) == held
				})
			}
			cmd.Process.Signal(sig)
			stopped := time.Now()
			err := cmd.Wait()
			// What the command promises: it stops within a second of the
			// signal (a bound on the promise, not on the engine's speed).
			if d := time.Since(stopped); d > time.Second {
				t.Errorf("stopped %v after the signal", d)
			}
			var ee *exec.ExitError
			if err == nil || !errorsAs(err, &ee) {
				t.Fatalf("killed count exited normally: %v", err)
			}
			want := fmt.Sprintf("nqueens: interrupted; count of N = %d stopped after %d of %d units; saved in %s, resume with: nqueens count --resume %s\n", n, held, count.Units(n), ck, ck)
			if sig != syscall.SIGKILL && (ee.ExitCode() != 130 || !strings.HasSuffix(errOut.String(), want)) {
				t.Errorf("after %v: exit %d, stderr %q", sig, ee.ExitCode(), errOut.String())
			}
			c, err := count.ReadCheckpoint(context.Background(), ck, n, testkit.UserKey(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Units) != held {
				t.Fatalf("checkpoint holds %d of %d units, want the %d before the held unit", len(c.Units), count.Units(n), held)
			}
			code, out, errText := runCLI("count", "--resume", ck, "--json")
			var j struct {
				Total, Unique count.Uint128
			}
			if err := json.Unmarshal([]byte(out), &j); code != 0 || err != nil || j.Total != count.U128(14200) || j.Unique != count.U128(1787) {
				t.Errorf("resumed count: exit %d, %s %s", code, out, errText)
			}
		})
	}
}

func TestProgressETA(t *testing.T) {
	p := progressState{Done: 30, Units: 100, Resumed: 10, Nodes: count.U128(1000), Elapsed: 10 * time.Second}
	tests := []struct {
		est  float64
		want string
	}{
		{0, "35s"},       // 70 units left at 2 units/s
		{0.5e3, "35s"},   // estimate already passed: fall back to units
		{9_000, "1m20s"}, // 9000 − 1000 = 8000 nodes left at 100 nodes/s
	}
	for _, tt := range tests {
		v := &progressView{}
		v.setEstimate(tt.est)
		if got := v.eta(p); got != tt.want {
			t.Errorf("estNodes %g: ETA %s, want %s", tt.est, got, tt.want)
		}
	}
	if got := (&progressView{}).eta(progressState{Units: 5}); got != "?" {
		t.Errorf("no progress: ETA %s", got)
	}
}

// TestCountCheckpointFiles covers the checkpoint paths a careless user
// meets: an unwritable --checkpoint fails before counting, --resume needs
// no N, and a plain count resumes the default file an interrupted one left
// (and removes it when done) instead of replacing it; a damaged default
// file is refused and left alone.
func TestCountCheckpointFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, out, errOut := runCLI("count", "12", "--checkpoint", filepath.Join(dir, "no", "such", "ck.json"))
	if code != 1 || out != "" || !strings.Contains(errOut, "cannot be written") {
		t.Errorf("unwritable checkpoint: exit %d, %q, %q", code, out, errOut)
	}

	half := count.NewCheckpoint(12)
	half.Units = testkit.AllUnits(t, 12, count.Units, count.CountUnit)[:count.Units(12)/2]
	def := defaultCheckpoint(12)
	if err := count.WriteCheckpoint(def, half, testkit.UserKey(t)); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI("count", "12")
	if code != 0 || out != "total 14200\nunique 1787\n" || !strings.Contains(errOut, "resuming N = 12 from "+def) {
		t.Errorf("plain count with a default checkpoint: exit %d, %q, %q", code, out, errOut)
	}
	if _, err := os.Stat(def); !os.IsNotExist(err) {
		t.Errorf("the default checkpoint of a finished count is still there (%v)", err)
	}

	os.WriteFile(def, []byte("{garbage"), 0o644)
	code, out, errOut = runCLI("count", "12")
	if code != 1 || out != "" || !strings.Contains(errOut, "remove it to start again") {
		t.Errorf("damaged default checkpoint: exit %d, %q, %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(def); string(b) != "{garbage" {
		t.Error("the damaged default checkpoint was replaced")
	}
	os.Remove(def)

	ck := filepath.Join(dir, "ck.json")
	if err := count.WriteCheckpoint(ck, half, testkit.UserKey(t)); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI("count", "--resume", ck, "--quiet")
	if code != 0 || out != "total 14200\nunique 1787\n" || errOut != "" {
		t.Errorf("--resume without N, --quiet: exit %d, %q, %q", code, out, errOut)
	}
}

// TestCountInterruptedTwice interrupts a plain count of N = 12 twice, each
// time while it holds a unit (fault injection): the first interruption
// saves the default checkpoint, the second run resumes it and saves more
// units into it (it used to start from zero and replace the file with fewer
// units), and a third run finishes exactly.
func TestCountInterruptedTwice(t *testing.T) {
	const n = 12
	dir := t.TempDir()
	def := filepath.Join(dir, defaultCheckpoint(n))
	for round, held := range []int{count.Units(n) / 3, 2 * count.Units(n) / 3} {
		cmd, errOut := startHeld(t, dir, held, "count", strconv.Itoa(n), "--workers", "1")
		cmd.Process.Signal(syscall.SIGINT)
		want := fmt.Sprintf("; saved in %s, resume with: nqueens count %d (which removes the file when the count is complete)\n", defaultCheckpoint(n), n)
		if round == 1 {
			want = fmt.Sprintf("; saved in %s, resume with: nqueens count %d\n", defaultCheckpoint(n), n)
		}
		if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 130 || !strings.HasSuffix(errOut.String(), want) {
			t.Fatalf("round %d: %v, stderr %q", round, err, errOut.String())
		}
		c, err := count.ReadCheckpoint(context.Background(), def, n, testkit.UserKey(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Units) != held {
			t.Fatalf("round %d: the default checkpoint holds %d units, want the %d before the held unit", round, len(c.Units), held)
		}
	}
	cmd := exec.Command(testkit.BuildBinary(t, "nqueens_faults"), "count", strconv.Itoa(n), "--json")
	cmd.Dir = dir
	out, err := cmd.Output()
	var j struct{ Total, Unique count.Uint128 }
	if err != nil || json.Unmarshal(out, &j) != nil || j.Total != count.U128(14200) || j.Unique != count.U128(1787) {
		t.Fatalf("final count %s: %v", out, err)
	}
	if _, err := os.Stat(def); !os.IsNotExist(err) {
		t.Errorf("the command the interruption advised left its finished checkpoint %s (%v)", def, err)
	}
}

// TestCheckpointFolder gives a folder where a checkpoint file belongs: both
// flags say so and name a file to use (--checkpoint DIR used to advise
// --resume DIR, which then failed reading a folder).
func TestCheckpointFolder(t *testing.T) {
	dir := t.TempDir()
	for _, flag := range []string{"--checkpoint", "--resume"} {
		code, out, errOut := runCLI("count", "9", flag, dir)
		want := flag + " " + dir + " is a folder; give a checkpoint file, such as " + filepath.Join(dir, defaultCheckpoint(9))
		if code != 2 || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s DIR: exit %d, %q, want %q", flag, code, errOut, want)
		}
	}
}

// TestResumeCompleteForgery resumes a complete checkpoint of N = 28 whose
// units a holder of the key made up: the run-time estimate covers no unit
// (it used to say "about 828 years" and ask for --yes), and the total,
// past the published counts, is refused by the estimate's spread.
func TestResumeCompleteForgery(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a checkpoint of the ~65,500 units of N = 28")
	}
	c := count.NewCheckpoint(28)
	for i := range count.Units(28) {
		c.Units = append(c.Units, madeUp(28, i))
	}
	path := filepath.Join(t.TempDir(), "f28.json")
	if err := count.WriteCheckpoint(path, c, testkit.UserKey(t)); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("count", "28", "--resume", path)
	if code != 1 || out != "" || strings.Contains(errOut, "years") || !strings.Contains(errOut, "standard errors from the estimate") {
		t.Errorf("exit %d, %q, %q", code, out, errOut)
	}
}

// TestEstimateShard: estimate --shard I/K forecasts the units count
// --shard I/K counts, and only those: its pairs are theirs within the
// probes' spread, and a bad shard is a usage error naming the flag.
func TestEstimateShard(t *testing.T) {
	const n = 16
	sh := ledger.Shard{I: 3, K: 400}
	code, out, errOut := runCLI("estimate", strconv.Itoa(n), "--shard", sh.String(), "--json")
	var j estimateJSON
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j.Shard != "3/400" || j.Units != sh.Size(n) || j.Engine != count.EngineJoin || j.Measured || j.Reference != nil {
		t.Fatalf("exit %d, %q, %s", code, out, errOut)
	}
	var pairs float64
	for i := range sh.Units(n) {
		u, err := count.CountUnit(context.Background(), n, i)
		if err != nil {
			t.Fatal(err)
		}
		pairs += float64(u.Nodes)
	}
	// The whole of N has about 400 times the pairs: a shard's estimate
	// that probed every unit would be far off.
	if r := j.Nodes / pairs; r < 0.7 || r > 1.3 {
		t.Errorf("the shard's pairs: estimate %.4g ± %.2g, counted %.4g (ratio %.2f)", j.Nodes, j.NodesSE, pairs, r)
	}
	// The published total of N is no check of a shard's solutions.
	if code, out, _ := runCLI("estimate", strconv.Itoa(n), "--shard", sh.String()); code != 0 || strings.Contains(out, "published") {
		t.Errorf("exit %d, %q", code, out)
	}
	for _, bad := range []string{"4/4", "x", "-1/2"} {
		if code, _, errOut := runCLI("estimate", "16", "--shard", bad); code != 2 || !strings.Contains(errOut, "--shard") {
			t.Errorf("--shard %s: exit %d, %q", bad, code, errOut)
		}
	}
	// N = 12 counted by the tree: a shard is probed, not counted in full.
	code, out, _ = runCLI("estimate", "12", "--shard", "0/2", "--probes", "2000", "--json")
	j = estimateJSON{}
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j.Measured || j.Units != (ledger.Shard{I: 0, K: 2}).Size(12) {
		t.Errorf("estimate 12 --shard 0/2: exit %d, %q", code, out)
	}
}
