package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain: the test binary is also the nqueens of the script tests
// (docs_test.go), which testscript.Main puts on their $PATH.
func TestMain(m *testing.M) {
	testscript.Main(testRunner{m}, map[string]func(){
		"nqueens": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// testRunner runs the tests in testkit's folders.
type testRunner struct{ m *testing.M }

func (r testRunner) Run() int {
	// The tests read English messages whatever the machine's locale; the
	// language tests set their own.
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		os.Unsetenv(v)
	}
	return testkit.Run(r.m)
}

// TestKeyFile checks that a checkpoint sealed under one key is refused
// under another, naming the file and line, and opens with --key-file.
func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.key")
	k, err := seal.CreateFile(other)
	if err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(dir, "ck.json")
	if err := count.WriteCheckpoint(ck, count.NewCheckpoint(9), k); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("count", "--resume", ck)
	if want := ck + ":1: checkpoint refused: it was sealed under key " + k.ID(); code != 1 || out != "" || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("other key: exit %d, %q, %q; want one line with %q", code, out, errOut, want)
	}
	code, out, errOut = runCLI("count", "--resume", ck, "--key-file", other)
	if code != 0 || out != "total 352\nunique 46\n" {
		t.Errorf("--key-file: exit %d, %q, %q", code, out, errOut)
	}
	code, _, errOut = runCLI("count", "--resume", ck, "--key-file", filepath.Join(dir, "none.key"))
	if code != 1 || !strings.Contains(errOut, "--key-file") {
		t.Errorf("missing key file: exit %d, %q", code, errOut)
	}
}

// TestEndlessFiles: a file that never ends is read within the limit of
// what it should hold, which the error states, and a read that waits
// stops at Ctrl-C. --key-file /dev/zero read until memory ran out, merge
// /dev/zero grew to 24 GB ignoring SIGTERM, count --resume /dev/zero took
// a GB in 6 s.
func TestEndlessFiles(t *testing.T) {
	key := filepath.Join(t.TempDir(), "seal.key")
	if _, err := seal.CreateFile(key); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string // the whole of stderr
	}{
		{[]string{"count", "8", "--checkpoint", filepath.Join(t.TempDir(), "c"), "--key-file", "/dev/zero"},
			"nqueens: --key-file: seal key: /dev/zero is larger than 4 KiB, the most a seal key can be\n"},
		{[]string{"merge", "--key-file", key, "/dev/zero"}, "nqueens: /dev/zero:1: a line longer than 1 MiB, the most a ledger line can be (4096 unit results); not a ledger\n"},
		{[]string{"count", "--resume", "/dev/zero", "--key-file", key}, "nqueens: cannot resume: /dev/zero is not a regular file, as a checkpoint is\n"},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != 1 || out != "" || errOut != tc.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 1 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	// A FIFO whose writer says nothing, as a ledger and as a key: the
	// read waits, and stops at Ctrl-C.
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", "--key-file", key, fifo}, "nqueens: interrupted; stopped reading " + fifo + "; the ledgers are unchanged\n"},
		{[]string{"merge", "--key-file", fifo, key}, "nqueens: interrupted; stopped reading the seal key " + fifo + "\n"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- runContext(ctx, tc.args, strings.NewReader(""), &out, &errOut) }()
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once the command opened it
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		if code := testkit.Receive(t, "a command reading a FIFO to stop", done); code != 130 || errOut.String() != tc.want {
			t.Errorf("%v stopped: exit %d, stderr %q; want 130 and %q", tc.args, code, errOut.String(), tc.want)
		}
		w.Close()
	}
}

// TestEndlessFilesMemory runs the endless reads of TestEndlessFiles as
// processes and holds their peak resident size under 100 MB.
func TestEndlessFilesMemory(t *testing.T) {
	bin := testkit.BuildBinary(t)
	key := filepath.Join(t.TempDir(), "seal.key")
	if _, err := seal.CreateFile(key); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"count", "8", "--checkpoint", filepath.Join(t.TempDir(), "c"), "--key-file", "/dev/zero"},
		{"merge", "--key-file", key, "/dev/zero"},
		{"count", "--resume", "/dev/zero", "--key-file", key},
	} {
		out, code, kB := testkit.PeakRSS(t, bin, args...)
		t.Logf("%v: peak RSS %d MB: %s", args, kB>>10, out)
		if code != 1 || kB > 100_000 {
			t.Errorf("%v: exit %d, peak RSS %d kB; want 1, under 100 MB", args, code, kB)
		}
	}
}
