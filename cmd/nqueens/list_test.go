package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/solve"
)

// TestListOutput: list writes what the library's listing writes, with any
// number of workers, cut by --limit, and refuses bad flags.
func TestListOutput(t *testing.T) {
	var want bytes.Buffer
	if _, err := solve.WriteList(context.Background(), &want, 8, board.JSON, solve.ListOptions{Unique: true}); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []string{"1", "2", "0"} {
		code, out, errOut := runCLI("list", "8", "--unique", "--json", "--workers", workers)
		if code != 0 || out != want.String() || errOut != "" {
			t.Errorf("--workers %s: exit %d, %q, %q", workers, code, out, errOut)
		}
	}
	code, out, _ := runCLI("list", "10", "--limit", "3", "--format", "dots")
	if code != 0 || strings.Count(out, "# solution") != 3 || !strings.HasPrefix(out, "# solution 1\nQ.........\n..Q.......\n") {
		t.Errorf("--limit 3 --format dots: exit %d, %q", code, out)
	}
	code, out, _ = runCLI("list", "6", "-k", "1")
	if code != 0 || out != "2 4 6 1 3 5\n" {
		t.Errorf("-k 1: exit %d, %q", code, out)
	}
	for _, args := range [][]string{{"list", "8", "--workers", "-1"}, {"list", "8", "--limit", "-2"}, {"list", "65"}} {
		if code, _, errOut := runCLI(args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}

// TestListOutputFile: --output writes the whole listing, replacing what
// was there, and leaves no temporary file behind.
func TestListOutputFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "eight.txt")
	os.WriteFile(path, []byte("old content\n"), 0o644)
	code, _, errOut := runCLI("list", "8", "-o", path)
	_, stdout, _ := runCLI("list", "8")
	got, err := os.ReadFile(path)
	if code != 0 || errOut != "" || err != nil || string(got) != stdout || strings.Count(stdout, "\n") != 92 {
		t.Fatalf("exit %d, %q, %v: the file holds %d bytes, stdout %d", code, errOut, err, len(got), len(stdout))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files, want 1", len(entries))
	}
	code, _, errOut = runCLI("list", "8", "-o", filepath.Join(dir, "no-such-dir", "x.txt"))
	if code != 1 || !strings.Contains(errOut, "no-such-dir") {
		t.Errorf("missing folder: exit %d, %q", code, errOut)
	}
}

// startList runs `nqueens list ARGS` as a process whose stdout is a pipe
// the test reads, and waits for its first line. N = 20 has 3.9·10¹⁰
// solutions, hours of output: the listing is still running whatever the
// machine's speed.
func startList(t *testing.T, args ...string) (*exec.Cmd, *bufio.Reader, io.Closer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(testkit.BuildBinary(t), append([]string{"list"}, args...)...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil || line != "1 3 5 2 4 13 15 12 18 20 17 9 16 19 8 10 7 14 6 11\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	return cmd, r, out, &errOut
}

// TestListInterrupted: Ctrl-C stops a listing with exit 130, saying how
// many solutions it wrote; they are all on stdout, whole.
func TestListInterrupted(t *testing.T) {
	cmd, r, _, errOut := startList(t, "20")
	cmd.Process.Signal(os.Interrupt)
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// The counts are grouped by thousands (1,092), as every count on stderr.
	// The signal may land after the first solution: "1 solution (1 line)".
	m := regexp.MustCompile(`^nqueens: interrupted; list 20 wrote ([\d,]+) solutions? \(([\d,]+) lines?\) to stdout\n$`).FindStringSubmatch(strings.ReplaceAll(errOut.String(), ",", ""))
	if code := cmd.ProcessState.ExitCode(); code != 130 || m == nil || m[1] != m[2] {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	lines := 1 + bytes.Count(rest, []byte("\n"))
	if k, _ := strconv.Atoi(m[1]); k != lines || len(rest) > 0 && rest[len(rest)-1] != '\n' {
		t.Errorf("stderr says %d solutions, stdout has %d lines", k, lines)
	}
}

// TestListInterruptedSays: the sentence of an interrupted listing agrees
// in number, one solution or many, one line each or boards.
func TestListInterruptedSays(t *testing.T) {
	for _, c := range []struct {
		key   string
		count uint64
		lines uint64
		en    string
		zh    string
	}{
		{"cli.list.int.wrote.lines", 1, 1, "list 20 wrote 1 solution (1 line) to stdout", "list 20 已向 stdout 写出 1 个解（每个解一行，共 1 行）"},
		{"cli.list.int.wrote.lines", 1092, 1092, "list 20 wrote 1,092 solutions (1,092 lines) to stdout", "list 20 已向 stdout 写出 1,092 个解（每个解一行，共 1,092 行）"},
		{"cli.list.int.wrote", 1, 21, "list 20 wrote 1 solution (21 lines) to stdout", "list 20 已向 stdout 写出 1 个解（21 行）"},
		{"cli.list.int.wrote", 2, 42, "list 20 wrote 2 solutions (42 lines) to stdout", "list 20 已向 stdout 写出 2 个解（42 行）"},
	} {
		err := interruptedN(c.key, c.count, i18n.Args{"N": 20, "Lines": c.lines, "Path": "stdout"})
		var said *interrupted
		if !errors.As(err, &said) {
			t.Fatalf("%T", err)
		}
		if got := said.said.Localize(i18n.For(i18n.English)); got != c.en {
			t.Errorf("%s %d: %q, want %q", c.key, c.count, got, c.en)
		}
		if got := said.said.Localize(i18n.For(i18n.Chinese)); got != c.zh {
			t.Errorf("%s %d: %q, want %q", c.key, c.count, got, c.zh)
		}
	}
}

// TestListClosedPipe: a reader that goes away (| head) ends the listing
// quietly, with exit 0.
func TestListClosedPipe(t *testing.T) {
	cmd, _, out, errOut := startList(t, "20")
	out.Close()
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 0 || errOut.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestListOutputFileInterrupted: a listing to --output stopped by Ctrl-C
// leaves neither the file nor its temporary file.
func TestListOutputFileInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "twenty.txt")
	p := testkit.Start(t, testkit.BuildBinary(t), "list", nil, "list", "20", "-o", path)
	// Wait until the temporary file has solutions in it.
	testkit.WaitFor(t, "output in the temporary file", func() bool {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.Size() > 0 {
				return true
			}
		}
		return false
	})
	p.Cmd.Process.Signal(syscall.SIGINT)
	if code := p.Wait(t); code != 130 || !strings.Contains(p.Stderr.String(), "interrupted; list 20 stopped after ") ||
		!strings.HasSuffix(p.Stderr.String(), "twenty.txt was not written\n") {
		t.Fatalf("exit %d, stderr %q", code, p.Stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}
