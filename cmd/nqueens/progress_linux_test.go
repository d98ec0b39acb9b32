//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/cluster/queue"
	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
	"golang.org/x/sys/unix"
)

// onTerminal opens a pseudo-terminal of cols×rows and returns its terminal
// side and everything written to it so far.
func onTerminal(t *testing.T, cols, rows uint16) (*os.File, *syncbuf.Buffer) {
	t.Helper()
	tty, pty := openTerminal(t)
	if err := unix.IoctlSetWinsize(int(pty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: cols, Row: rows}); err != nil {
		t.Skipf("cannot size the terminal: %v", err)
	}
	screen := &syncbuf.Buffer{}
	go io.Copy(screen, pty) // ends when the test closes the terminal
	return tty, screen
}

// waitFor waits until ok holds for the text of s (testkit.WaitFor), and
// returns that text.
func waitFor(t *testing.T, what string, s interface{ String() string }, ok func(string) bool) string {
	t.Helper()
	var got string
	testkit.WaitFor(t, what, func() bool { got = s.String(); return ok(got) })
	return got
}

// quickProgress shortens the views' clock for a test.
func quickProgress(t *testing.T) {
	old := [...]time.Duration{barAfter, linesAfter, statusEvery, tick}
	barAfter, linesAfter, statusEvery, tick = 50*time.Millisecond, 50*time.Millisecond, 50*time.Millisecond, 20*time.Millisecond
	t.Cleanup(func() { barAfter, linesAfter, statusEvery, tick = old[0], old[1], old[2], old[3] })
}

// barFrame matches a drawn bar of count: units done of all, percentage,
// rate and ETA.
var barFrame = regexp.MustCompile(`count 12 \d+/\d+ units \[[=>\-_ ]{16,}\] *\d+ % +[0-9.]+[kMGTPE]? nodes/s +ETA `)

// startHeldCount12 runs count 12 on two workers with stderr on stderr,
// held on unit 0 (so that it cannot end before the test has looked), and
// returns once the held unit is reached. finish lets the count go on and
// checks that it exits 0 with only the result on stdout.
func startHeldCount12(t *testing.T, stderr io.Writer) (finish func()) {
	t.Helper()
	h := faults.HoldUnit(12, 0)
	t.Cleanup(h.Release)
	var out syncbuf.Buffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"count", "12", "--workers", "2"}, strings.NewReader(""), &out, stderr) }()
	testkit.Receive(t, "the held unit", h.Reached())
	return func() {
		t.Helper()
		h.Release()
		if code := testkit.Receive(t, "the exit code", done); code != 0 || out.String() != "total 14200\nunique 1787\n" {
			t.Fatalf("exit %d, stdout %q", code, out.String())
		}
	}
}

// TestCountProgressOnTerminal: on a terminal, a count that goes on draws a
// bar that is redrawn; stdout holds only the result. The count is held on
// unit 0, so it cannot end before the test has looked.
func TestCountProgressOnTerminal(t *testing.T) {
	quickProgress(t)
	tty, screen := onTerminal(t, 80, 24)
	finish := startHeldCount12(t, tty)
	waitFor(t, "progress bar", screen, func(s string) bool { return len(barFrame.FindAllString(s, -1)) >= 3 })
	finish()
	final := waitFor(t, "full bar", screen, func(s string) bool { return strings.Contains(s, "100 %") })
	t.Logf("%q", final)
	if strings.Contains(final, "total 14200") {
		t.Errorf("the result went to the terminal of stderr: %q", final)
	}
}

// TestCountProgressPiped: with stderr a file, the same count writes plain
// status lines, no escape sequences, and stdout holds only the result.
func TestCountProgressPiped(t *testing.T) {
	quickProgress(t)
	errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	finish := startHeldCount12(t, errFile)
	line := regexp.MustCompile(`(?m)^nqueens: count 12: \d+/\d+ units \(\d+\.\d%\), [0-9.]+[kMGTPE]? nodes/s, ETA \S+\n`)
	waitFor(t, "two status lines", fileText{errFile.Name()}, func(s string) bool { return len(line.FindAllString(s, -1)) >= 2 })
	finish()
	if s := (fileText{errFile.Name()}).String(); strings.Contains(s, "\x1b") || line.ReplaceAllString(s, "") != "" {
		t.Errorf("stderr holds more than status lines: %q", s)
	}
}

// TestCountProgressUnsizedTerminal: a terminal of no size (script(1)
// without a terminal on its stdin) gets status lines, where mpb's bar,
// cut to no rows, showed nothing at all.
func TestCountProgressUnsizedTerminal(t *testing.T) {
	quickProgress(t)
	tty, screen := onTerminal(t, 0, 0)
	finish := startHeldCount12(t, tty)
	line := regexp.MustCompile(`nqueens: count 12: \d+/\d+ units \(\d+\.\d%\), [0-9.]+[kMGTPE]? nodes/s, ETA \S+\r?\n`)
	waitFor(t, "two status lines", screen, func(s string) bool { return len(line.FindAllString(s, -1)) >= 2 })
	finish()
}

// fileText reads a file afresh each time.
type fileText struct{ path string }

func (f fileText) String() string {
	b, _ := os.ReadFile(f.path)
	return string(b)
}

// heldByPipe runs args on a terminal of 80×24 with stdout a pipe that
// nobody reads until the progress bar, matched by frame, has been drawn
// twice: the command cannot end before. It returns the exit code and the
// lines of stdout.
func heldByPipe(t *testing.T, stdin string, frame *regexp.Regexp, args ...string) (*syncbuf.Buffer, int, int) {
	t.Helper()
	tty, screen := onTerminal(t, 80, 24)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan int, 1)
	go func() {
		done <- run(args, strings.NewReader(stdin), w, tty)
		w.Close()
	}()
	waitFor(t, "progress bar", screen, func(s string) bool { return len(frame.FindAllString(s, -1)) >= 2 })
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return screen, testkit.Receive(t, "the exit code", done), strings.Count(string(out), "\n")
}

// TestListProgressOnTerminal: list on a terminal shows solutions done of
// all, held by its stdout.
func TestListProgressOnTerminal(t *testing.T) {
	quickProgress(t)
	frame := regexp.MustCompile(`list 12 [0-9.]+k/14.2k solutions \[[=>\-_ ]{16,}\] *\d+ % +[0-9.]+[kMGTPE]?/s +ETA `)
	screen, code, lines := heldByPipe(t, "", frame, "list", "12")
	if code != 0 || lines != 14200 {
		t.Fatalf("exit %d, %d lines", code, lines)
	}
	waitFor(t, "full bar", screen, func(s string) bool { return strings.Contains(s, "14.2k/14.2k solutions") })
}

// TestSolveRandomProgressOnTerminal: solve --random shows queens placed of
// all while the search is held at its first report.
func TestSolveRandomProgressOnTerminal(t *testing.T) {
	quickProgress(t)
	tty, screen := onTerminal(t, 80, 24)
	const n = 1 << 21
	h := faults.HoldUnit(n, 0)
	defer h.Release()
	var out syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"solve", "2097152", "--random", "-o", filepath.Join(t.TempDir(), "q.txt")}, strings.NewReader(""), &out, tty)
	}()
	testkit.Receive(t, "the held unit", h.Reached())
	frame := regexp.MustCompile(`solve 2097152 --random [0-9.]+[kM]?/2.10M queens \[[=>\-_ ]{16,}\] *\d+ % +[0-9.]+[kMGTPE]?/s +ETA `)
	waitFor(t, "progress bar", screen, func(s string) bool { return len(frame.FindAllString(s, -1)) >= 2 })
	h.Release()
	if code := testkit.Receive(t, "the exit code", done); code != 0 || out.String() != "" {
		t.Fatalf("exit %d, stdout %q", code, out.String())
	}
}

// TestSolveWritingProgressOnTerminal: a long output shows the bytes
// written of all, held by its stdout (solve 10^9 wrote 10 GB with no sign
// of life), on 80 columns with a bar of 16 or more and human units (it
// drew "writing 259M/259M bytes100 %" and "2.55e+08 bytes/s").
func TestSolveWritingProgressOnTerminal(t *testing.T) {
	quickProgress(t)
	total := outputSize(1000000, board.List)
	frame := regexp.MustCompile(`solve 1000000: writing [0-9.]+/6.89 MB \[[=>\-_ ]{16,}\] *\d+ % +[0-9.]+ [kMG]?B/s +ETA `)
	screen, code, lines := heldByPipe(t, "", frame, "solve", "1000000")
	if code != 0 || lines != 1 {
		t.Fatalf("exit %d, %d lines", code, lines)
	}
	if total != 6_888_896 {
		t.Fatalf("solve 1000000 writes %d bytes", total)
	}
	waitFor(t, "full bar", screen, func(s string) bool { return strings.Contains(s, "6.89/6.89 MB") })
}

// TestCount19Process is the promise on the command itself: on a
// terminal, nqueens count 19 --workers 2 draws a bar that is redrawn every
// second; with stderr in a file it writes status lines; stdout stays empty
// in both, and Ctrl-C stops it with exit 130. The count holds a unit
// (fault injection: unit 5000), so it cannot end before the test has looked.
func TestCount19Process(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs N = 19 for seconds")
	}
	bin := testkit.BuildBinary(t, "nqueens_faults")
	start := func(stderr *os.File) (*exec.Cmd, *syncbuf.Buffer) {
		cmd := exec.Command(bin, "count", "19", "--workers", "2")
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "NQUEENS_FAULT_HOLD_UNIT=5000") // past the units of N = 15, which the estimate counts
		var out syncbuf.Buffer
		cmd.Stdout, cmd.Stderr = &out, stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		return cmd, &out
	}
	interrupt := func(cmd *exec.Cmd, out *syncbuf.Buffer, stderr interface{ String() string }) {
		t.Helper()
		cmd.Process.Signal(os.Interrupt)
		sent := time.Now()
		cmd.Wait()
		if d := time.Since(sent); d > time.Second { // the promise: stopped within a second of Ctrl-C
			t.Errorf("stopped %v after Ctrl-C", d)
		}
		if code := cmd.ProcessState.ExitCode(); code != 130 || out.String() != "" {
			t.Errorf("exit %d, stdout %q; want 130 and nothing", code, out.String())
		}
		waitFor(t, "the word interrupted", stderr, func(s string) bool { return strings.Contains(s, "nqueens: interrupted; count of N = 19 stopped after") })
	}

	tty, screen := onTerminal(t, 80, 24)
	cmd, out := start(tty)
	frame := regexp.MustCompile(`count 19 \d+/\d+ units \[[=>\-_ ]{16,}\] *\d+ % +[0-9.]+[kMGTPE]? nodes/s +ETA `)
	frames := func() int { return len(frame.FindAllString(screen.String(), -1)) }
	waitFor(t, "progress bar", screen, func(string) bool { return frames() > 0 })
	for range 3 {
		before := frames()
		time.Sleep(time.Second) // the promise: a redraw every second
		if frames() == before {
			t.Fatalf("the bar was not redrawn for a second: %q", screen.String())
		}
	}
	interrupt(cmd, out, screen)

	errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	cmd, out = start(errFile)
	line := regexp.MustCompile(`(?m)^nqueens: count 19: \d+/\d+ units \(\d+\.\d%\), [0-9.]+[kMGTPE]? nodes/s, ETA \S+$`)
	waitFor(t, "a status line", fileText{errFile.Name()}, line.MatchString)
	// The estimate before the count is the join's, and says so (it said
	// "nodes", which are the tree's).
	if est := regexp.MustCompile(`(?m)^nqueens: N = 19: about \S+ on 2 workers \([0-9.e+]+ ± [0-9.e+]+ pairs of half boards; estimate, see nqueens estimate\)$`); !est.MatchString(fileText{errFile.Name()}.String()) {
		t.Errorf("no estimate of the join's pairs: %q", fileText{errFile.Name()}.String())
	}
	interrupt(cmd, out, fileText{errFile.Name()})
	if s := (fileText{errFile.Name()}).String(); strings.Contains(s, "\x1b") {
		t.Errorf("escape sequences in a file: %q", s)
	}
}

// TestSolveRandomInterruptedProcess: solve --random of 3×10^8 queens stops
// within 1.5 s of Ctrl-C in its set-up, with exit 130 and "interrupted".
func TestSolveRandomInterruptedProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and takes 1.5 GB")
	}
	cmd := exec.Command(testkit.BuildBinary(t), "solve", "300000000", "--random", "-o", os.DevNull, "--yes")
	var errOut syncbuf.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	waitFor(t, "the estimate", &errOut, func(s string) bool { return strings.Contains(s, "about 1.5 GB of memory") })
	cmd.Process.Signal(os.Interrupt)
	sent := time.Now()
	cmd.Wait()
	// About the promise: stopped within a second of Ctrl-C.
	if d := time.Since(sent); d > 1500*time.Millisecond || cmd.ProcessState.ExitCode() != 130 ||
		!strings.HasSuffix(errOut.String(), "nqueens: interrupted; solve --random of 300000000 queens stopped in its set-up (shuffling the columns); nothing was written\n") {
		t.Errorf("stopped %v after Ctrl-C, exit %d, stderr %q", d, cmd.ProcessState.ExitCode(), errOut.String())
	}
}

// TestCompleteProgressOnTerminal: complete --all shows the nodes searched
// of the estimate, held by its stdout.
func TestCompleteProgressOnTerminal(t *testing.T) {
	quickProgress(t)
	frame := regexp.MustCompile(`complete 13×13 [0-9.]+[kMGTPE]?/[0-9.]+[kMGTPE]? nodes \[[=>\-_ ]{16,}\] *\d+ % +[0-9.]+[kMGTPE]?/s +ETA `)
	if _, code, lines := heldByPipe(t, strings.Repeat("0 ", 13)+"\n", frame, "complete", "--all", "-f", "list"); code != 0 || lines != 73712 {
		t.Fatalf("exit %d, %d lines", code, lines)
	}
}

// TestCoordinatorProgressOnTerminal: the coordinator draws a bar of the
// units done, with its workers, instead of log lines; no worker is started
// until the bar shows, so the run cannot end before.
func TestCoordinatorProgressOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a pool through NATS for a couple of seconds")
	}
	quickProgress(t)
	srv, err := queue.StartServer(queue.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	tty, screen := onTerminal(t, 120, 24)
	var out syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"coordinator", "11", "--nats", srv.ClientURL(), "--progress-every", "50ms"}, strings.NewReader(""), &out, tty)
	}()
	frame := regexp.MustCompile(`N = 11 \d+/\d+ units \[[=>\-_ ]{16,}\] *\d+ % +[0-9.]+[kMGTPE]? nodes/s +ETA \S+ +\d+ workers?`)
	waitFor(t, "progress bar", screen, func(s string) bool { return len(frame.FindAllString(s, -1)) >= 2 })
	if code, _, errOut := runCLI("worker", "--nats", srv.ClientURL(), "--exit-when-idle", "100ms"); code != 0 {
		t.Fatalf("worker: exit %d, %s", code, errOut)
	}
	if code := testkit.Receive(t, "the exit code", done); code != 0 || out.String() != "total 2680\nunique 341\n" {
		t.Fatalf("exit %d, stdout %q", code, out.String())
	}
	if s := screen.String(); strings.Contains(s, "nqueens: coordinator: N = 11:") {
		t.Errorf("progress log lines on a terminal: %q", s)
	}
}

// TestMergeProgressOnTerminal: merge shows the bytes of the ledgers read;
// its second ledger is a named pipe that the test fills only once the bar
// shows, so the merge cannot end before.
func TestMergeProgressOnTerminal(t *testing.T) {
	quickProgress(t)
	dir := t.TempDir()
	a, b, fifo := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "fifo.jsonl")
	for i, l := range []string{a, b} {
		if code, _, errOut := runCLI("count", "10", "--shard", fmt.Sprintf("%d/2", i), "--ledger", l, "--quiet"); code != 0 {
			t.Fatal(errOut)
		}
	}
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	tty, screen := onTerminal(t, 100, 24)
	var out syncbuf.Buffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"merge", a, fifo}, strings.NewReader(""), &out, tty) }()
	frame := regexp.MustCompile(`merge of 2 ledgers [0-9.]+/[0-9.]+ (B|kB) \[[=>\-_ ]{16,}\] *\d+ % +[0-9.]+ (B|kB|MB)/s +ETA `)
	waitFor(t, "progress bar", screen, func(s string) bool { return len(frame.FindAllString(s, -1)) >= 2 })
	data, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fifo, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if code := testkit.Receive(t, "the exit code", done); code != 0 || out.String() != "total 724\nunique 92\n" {
		t.Fatalf("exit %d, stdout %q", code, out.String())
	}
}

// TestQuietOnTerminal: --quiet, on every long command now (it was only on
// count), draws no bar: solve --random --quiet and solve --random run on
// two terminals, held at the same unit, the quiet one started first; once
// the other has drawn its bar twice, the quiet one has drawn nothing.
func TestQuietOnTerminal(t *testing.T) {
	quickProgress(t)
	const n = 1 << 21
	h := faults.HoldUnit(n, 0)
	defer h.Release()
	start := func(args ...string) (*syncbuf.Buffer, chan int) {
		tty, screen := onTerminal(t, 80, 24)
		done := make(chan int, 1)
		go func() {
			done <- run(append([]string{"solve", "2097152", "--random", "-o", filepath.Join(t.TempDir(), "q.txt")}, args...), strings.NewReader(""), &syncbuf.Buffer{}, tty)
		}()
		return screen, done
	}
	quiet, quietDone := start("--quiet")
	testkit.Receive(t, "the held unit", h.Reached())
	loud, loudDone := start()
	frame := regexp.MustCompile(`solve 2097152 --random [0-9.]+[kM]?/2.10M queens \[`)
	waitFor(t, "the other's bar", loud, func(s string) bool { return len(frame.FindAllString(s, -1)) >= 2 })
	h.Release()
	for _, done := range []chan int{quietDone, loudDone} {
		if code := testkit.Receive(t, "the exit code", done); code != 0 {
			t.Fatalf("exit %d", code)
		}
	}
	if s := quiet.String(); s != "" {
		t.Errorf("solve --random --quiet wrote to its terminal: %q", s)
	}
	for _, c := range []string{"solve", "list", "complete", "merge", "site", "count", "coordinator", "worker"} {
		if _, help, _ := runCLI(c, "--help"); !strings.Contains(help, "--quiet") {
			t.Errorf("%s has no --quiet", c)
		}
	}
}
