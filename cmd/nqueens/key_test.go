package main

import (
	"os"
	"path/filepath"
	"strings"
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
