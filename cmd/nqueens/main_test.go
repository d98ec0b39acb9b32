package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/internal/testkit"
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
// complete and compare printed only "context canceled", exit 1; then
// solve, complete, compare, estimate, dominate and a variant's count only
// "interrupted").
func TestInterruptedMessages(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	empty20 := strings.Repeat("0 ", 20) + "\n"
	dir := t.TempDir()
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string // the whole of stderr
	}{
		{"", []string{"solve", "1000000", "--random", "-o", filepath.Join(dir, "q")},
			"nqueens: interrupted; solve --random of 1000000 queens stopped in its set-up (shuffling the columns); nothing was written\n"},
		{empty20, []string{"complete", "--count", "--yes"}, "nqueens: interrupted; stopped before anything was read from stdin\n"},
		{"", []string{"compare", "8"}, "nqueens: interrupted; the comparison of n = 8 stopped in brute-combinations, strategy 1 of 10; nothing was printed (the table comes at the end)\n"},
		{"", []string{"count", "12", "--algo", "stack"},
			"nqueens: interrupted; stack stopped after nodes 0, tries 0, reads 0, placed 0, rejected 0, backtracks 0, solutions 0; nothing was printed\n"},
		{"", []string{"estimate", "20"}, "nqueens: interrupted; the estimate of N = 20 stopped; nothing was printed\n"},
		{"", []string{"dominate", "12", "--count"}, "nqueens: interrupted; dominate 12 stopped; nothing was printed\n"},
		{"", []string{"count", "13", "--torus"}, "nqueens: interrupted; the estimate of 13 queens on a 13 × 13 torus stopped; nothing was printed\n"},
		{"", []string{"solve", "1000"}, "nqueens: interrupted; nothing was written to stdout\n"},
		{"", []string{"solve", "1000", "-o", filepath.Join(dir, "s")}, "nqueens: interrupted; " + filepath.Join(dir, "s") + " was not written\n"},
	} {
		var out, errOut bytes.Buffer
		code := runContext(stopped, tc.args, strings.NewReader(tc.stdin), &out, &errOut)
		if code != 130 || errOut.String() != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want 130 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("interrupted commands left %v", files)
	}
}

// cancelOnNote is stderr that cancels the command's context once the
// command has written a note containing mark: the command stops in the
// work that follows.
type cancelOnNote struct {
	bytes.Buffer
	mark   string
	cancel context.CancelFunc
}

func (c *cancelOnNote) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.mark) {
		c.cancel()
	}
	return c.Buffer.Write(p)
}

// cancelAfterWrite is stdout that cancels the command's context at its
// first write: the command stops with part of its output written.
type cancelAfterWrite struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (c *cancelAfterWrite) Write(p []byte) (int, error) {
	c.cancel()
	return c.Buffer.Write(p)
}

// TestInterruptedLater: commands stopped after they read their input, or
// while they write their output, say where they stopped and what was
// written.
func TestInterruptedLater(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	note := &cancelOnNote{mark: "(Ctrl-C stops it)", cancel: cancel}
	code := runContext(ctx, []string{"complete", "--count", "--yes"}, strings.NewReader(strings.Repeat("0 ", 20)+"\n"), &out, note)
	if want := regexp.MustCompile(`\nnqueens: interrupted; complete --count stopped after \d+ nodes of its search; nothing was written to stdout\n$`); code != 130 || !want.MatchString(note.String()) || out.Len() != 0 {
		t.Errorf("complete --count: exit %d, stdout %q, stderr %q; want 130, nothing, %s", code, out.String(), note.String(), want)
	}
	var errOut bytes.Buffer

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	partial := &cancelAfterWrite{cancel: cancel}
	errOut.Reset()
	code = runContext(ctx, []string{"solve", "1000000"}, strings.NewReader(""), partial, &errOut)
	if want := "nqueens: interrupted; the output stopped after 66 kB written to stdout, incomplete\n"; code != 130 || errOut.String() != want || partial.Len() != 1<<16 {
		t.Errorf("solve 1000000: exit %d, %d bytes of stdout, stderr %q; want 130, 65536 bytes, %q", code, partial.Len(), errOut.String(), want)
	}
}

// TestOutputNotAFile: -o to something other than a regular file (a named
// pipe here; /dev/null alike) is written through, never replaced by a file
// renamed over it (list -o /dev/null, run as root, replaced /dev/null).
func TestOutputNotAFile(t *testing.T) {
	for _, args := range [][]string{{"list", "6"}, {"solve", "8"}} {
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		got := make(chan string, 1)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- string(b)
		}()
		code, _, errOut := runCLI(append(args, "-o", fifo)...)
		text := testkit.Receive(t, "what the pipe got", got)
		fi, err := os.Lstat(fifo)
		if code != 0 || err != nil || fi.Mode()&os.ModeNamedPipe == 0 || !strings.HasSuffix(text, "\n") {
			t.Errorf("%v -o FIFO: exit %d (%s), the pipe got %q, is now %v (%v)", args, code, errOut, text, fi.Mode(), err)
		}
	}
}
