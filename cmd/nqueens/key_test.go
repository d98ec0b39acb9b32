package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// TestMain gives the tests, and the binaries they start, a configuration
// folder of their own, so that the seal key they make is theirs and not the
// user's; testkit.Run removes the binaries the tests built.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nqueens-config")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := testkit.Run(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// userKey is the key the commands of the tests use by default.
func userKey(t testing.TB) *seal.Key {
	t.Helper()
	k, _, err := seal.Default()
	if err != nil {
		t.Fatal(err)
	}
	return k
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
