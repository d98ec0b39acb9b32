package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/internal/testkit"
)

// TestOutputErrorsNameThePath: an -o error names the path the user gave,
// never the hidden temporary file beside it (solve 8 -o /nonexistent/x.txt
// said "open /nonexistent/.x.txt4612416902556787884: …"; list, show and
// complete alike).
func TestOutputErrorsNameThePath(t *testing.T) {
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"solve", "8"}},
		{"", []string{"list", "6"}},
		{"2 4 1 3\n", []string{"show"}},
		{"0 0 0 0\n", []string{"complete"}},
	} {
		code, out, errOut := runCLIIn(tc.stdin, append(tc.args, "-o", "/nonexistent/x.txt")...)
		if want := "nqueens: open /nonexistent/x.txt: no such file or directory\n"; code != 1 || out != "" || errOut != want {
			t.Errorf("%v -o /nonexistent/x.txt: exit %d, %q, %q; want 1 and %q", tc.args, code, out, errOut, want)
		}
	}
}

// TestWriteErrorNamesThePath: a write that fails midway (here past a file
// size limit, ulimit -f) names the path given, and leaves no file.
func TestWriteErrorNamesThePath(t *testing.T) {
	bin := testkit.BuildBinary(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "big.txt")
	out, err := exec.Command("sh", "-c", `ulimit -f 1 && exec "$0" solve 100000 -o "$1"`, bin, path).CombinedOutput()
	if want := "nqueens: write " + path + ": file too large\n"; err == nil || string(out) != want {
		t.Errorf("solve past a file size limit: %v, %q; want exit 1 and %q", err, out, want)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 || strings.Contains(string(out), ".big") {
		t.Errorf("left %v", files)
	}
}
