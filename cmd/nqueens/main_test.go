package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs a command line through run with empty stdin and returns the
// exit code, stdout and stderr.
func runCLI(args ...string) (int, string, string) { return runCLIIn("", args...) }

// runCLIIn is runCLI with stdin.
func runCLIIn(stdin string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestInterruptedMessages: a command stopped by Ctrl-C says "interrupted"
// and what it kept, never Go's "context canceled", and exits 130 (solve,
// complete and compare printed only "context canceled", exit 1).
func TestInterruptedMessages(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	empty20 := strings.Repeat("0 ", 20) + "\n"
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string // the whole of stderr
	}{
		{"", []string{"solve", "1000000", "--random", "-o", filepath.Join(t.TempDir(), "q")}, "nqueens: interrupted\n"},
		{empty20, []string{"complete", "--count", "--yes"}, "nqueens: interrupted\n"},
		{"", []string{"compare", "8"}, "nqueens: interrupted\n"},
		{"", []string{"count", "12", "--algo", "stack"}, "nqueens: interrupted\n"},
		{"", []string{"estimate", "20"}, "nqueens: interrupted\n"},
	} {
		var out, errOut bytes.Buffer
		code := runContext(stopped, tc.args, strings.NewReader(tc.stdin), &out, &errOut)
		if code != 130 || errOut.String() != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want 130 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}
