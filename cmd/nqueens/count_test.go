package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
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
		{[]string{"count", "30"}, 2, "", "--yes"},
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
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, `"reference":"ok"`) {
		t.Errorf("JSON lines: exit %d %q", code, out)
	}
}

func TestEstimateCommand(t *testing.T) {
	code, out, errOut := runCLI("estimate", "12", "--probes", "3000")
	if code != 0 || !strings.Contains(out, "solutions") || !strings.Contains(out, "published 14200") || !strings.Contains(out, "measured by counting N = 12 in full") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runCLI("estimate", "22", "--probes", "500", "--json")
	var j map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j["nodes"].(float64) <= 0 || j["rate_n"] != 15.0 {
		t.Errorf("exit %d, JSON %q", code, out)
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

func TestCountCheckpointRefusals(t *testing.T) {
	dir := t.TempDir()
	ck := count.NewCheckpoint(9)
	path := filepath.Join(dir, "n9.json")
	if err := count.WriteCheckpoint(path, ck, userKey(t)); err != nil {
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
	count.WriteCheckpoint(path, ck, userKey(t))
	if code, out, errOut := runCLI("count", "9", "--resume", path); code != 0 || out != "total 352\nunique 46\n" {
		t.Errorf("resume from empty: exit %d, %q %q", code, out, errOut)
	}
	if c, err := count.ReadCheckpoint(path, 9, userKey(t)); err != nil || len(c.Units) != count.Units(9) {
		t.Errorf("final checkpoint: %v", err)
	}
}

// buildBinary compiles nqueens into a temporary folder.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "nqueens")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// waitForUnits polls until the checkpoint at path holds a finished unit.
func waitForUnits(t *testing.T, path string, n int, limit time.Duration) {
	t.Helper()
	for start := time.Now(); time.Since(start) < limit; time.Sleep(5 * time.Millisecond) {
		if c, err := count.ReadCheckpoint(path, n, userKey(t)); err == nil && len(c.Units) > 0 {
			return
		}
	}
	t.Fatalf("%s held no finished unit within %v", path, limit)
}

// TestCountKilledAndResumed kills a real count with SIGKILL after its first
// checkpoint write, resumes it and checks the exact total; then the same
// with SIGINT and SIGTERM, which must stop promptly and say how to resume.
// N = 17 on one worker takes seconds, so the signal always comes mid-run.
func TestCountKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and counts N = 17 three times")
	}
	bin := buildBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			ck := filepath.Join(dir, "ck.json")
			cmd := exec.Command(bin, "count", "17", "--checkpoint", ck, "--workers", "1", "--checkpoint-every", "100ms")
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitForUnits(t, ck, 17, 20*time.Second)
			cmd.Process.Signal(sig)
			stopped := time.Now()
			err := cmd.Wait()
			if d := time.Since(stopped); d > time.Second {
				t.Errorf("stopped %v after the signal", d)
			}
			var ee *exec.ExitError
			if err == nil || !errorsAs(err, &ee) {
				t.Fatalf("killed count exited normally: %v", err)
			}
			if sig != syscall.SIGKILL && (ee.ExitCode() != 1 || !strings.Contains(errOut.String(), "--resume "+ck)) {
				t.Errorf("after %v: exit %d, stderr %q", sig, ee.ExitCode(), errOut.String())
			}
			c, err := count.ReadCheckpoint(ck, 17, userKey(t))
			if err != nil {
				t.Fatal(err)
			}
			// The run was stopped partway: the resumed count must add the rest.
			if len(c.Units) == 0 || len(c.Units) == count.Units(17) {
				t.Fatalf("checkpoint holds %d of %d units; the test stopped nothing", len(c.Units), count.Units(17))
			}
			t.Logf("checkpoint holds %d of %d units", len(c.Units), count.Units(17))
			out, err := exec.Command(bin, "count", "--resume", ck, "--json").Output()
			if err != nil {
				t.Fatal(err)
			}
			var j struct {
				Total, Unique count.Uint128
			}
			if err := json.Unmarshal(out, &j); err != nil || j.Total != count.U128(95815104) || j.Unique != count.U128(11977939) {
				t.Errorf("resumed count %s: %v", out, err)
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
		v := &progressView{estNodes: tt.est}
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
	for i := range count.Units(12) / 2 {
		u, err := count.CountUnit(context.Background(), 12, i)
		if err != nil {
			t.Fatal(err)
		}
		half.Units = append(half.Units, u)
	}
	def := defaultCheckpoint(12)
	if err := count.WriteCheckpoint(def, half, userKey(t)); err != nil {
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
	if err := count.WriteCheckpoint(ck, half, userKey(t)); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI("count", "--resume", ck, "--quiet")
	if code != 0 || out != "total 14200\nunique 1787\n" || errOut != "" {
		t.Errorf("--resume without N, --quiet: exit %d, %q, %q", code, out, errOut)
	}
}

// TestCountInterruptedTwice interrupts a plain count of N = 17 twice: the
// first interruption saves the default checkpoint, the second run resumes
// it and saves more units into it (it used to start from zero and replace
// the file with fewer units), and a third run finishes exactly.
func TestCountInterruptedTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and counts N = 17")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	def := filepath.Join(dir, defaultCheckpoint(17))
	saved := 0
	for round := range 2 {
		cmd := exec.Command(bin, "count", "17", "--workers", "1", "--checkpoint-every", "100ms")
		cmd.Dir = dir
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if round == 0 {
			// A plain count writes the default checkpoint only when
			// interrupted, so the first round can only wait: 300 ms
			// finish hundreds of units, well before the whole count
			// (about 2.5 s on one core; a wait of a second came close).
			time.Sleep(300 * time.Millisecond)
		} else {
			waitForMore(t, def, 17, saved, 20*time.Second)
		}
		cmd.Process.Signal(syscall.SIGINT)
		if err := cmd.Wait(); err == nil || !strings.Contains(errOut.String(), "--resume "+defaultCheckpoint(17)) {
			t.Fatalf("round %d: %v, stderr %q", round, err, errOut.String())
		}
		c, err := count.ReadCheckpoint(def, 17, userKey(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Units) <= saved {
			t.Fatalf("round %d: the default checkpoint holds %d units, no more than the %d saved before", round, len(c.Units), saved)
		}
		saved = len(c.Units)
	}
	cmd := exec.Command(bin, "count", "17", "--json")
	cmd.Dir = dir
	out, err := cmd.Output()
	var j struct{ Total, Unique count.Uint128 }
	if err != nil || json.Unmarshal(out, &j) != nil || j.Total != count.U128(95815104) || j.Unique != count.U128(11977939) {
		t.Fatalf("final count %s: %v", out, err)
	}
}

// waitForMore polls until the checkpoint at path holds more than k units.
func waitForMore(t *testing.T, path string, n, k int, limit time.Duration) {
	t.Helper()
	for start := time.Now(); time.Since(start) < limit; time.Sleep(10 * time.Millisecond) {
		if c, err := count.ReadCheckpoint(path, n, userKey(t)); err == nil && len(c.Units) > k {
			return
		}
	}
	t.Fatalf("%s held no more than %d units within %v", path, k, limit)
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
		t.Skip("writes a checkpoint of the 877877 units of N = 28")
	}
	c := count.NewCheckpoint(28)
	for i := range count.Units(28) {
		c.Units = append(c.Units, count.UnitResult{Index: i, Total: 8, Nodes: 1000})
	}
	path := filepath.Join(t.TempDir(), "f28.json")
	if err := count.WriteCheckpoint(path, c, userKey(t)); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("count", "28", "--resume", path)
	if code != 1 || out != "" || strings.Contains(errOut, "years") || !strings.Contains(errOut, "standard errors from the estimate") {
		t.Errorf("exit %d, %q, %q", code, out, errOut)
	}
}
