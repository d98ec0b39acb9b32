package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/testkit"
)

// classicExec runs one command line on a fresh root command and returns its
// stdout, stderr and error.
func classicExec(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd(i18n.For(i18n.English))
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

func isUsage(err error) bool {
	var ue *usageError
	return errors.As(err, &ue)
}

// TestTraceGolden is the articles' 4-queens walk-through, both formats.
func TestTraceGolden(t *testing.T) {
	for _, tt := range []struct{ file, format string }{
		{"trace_4_stack.txt", "text"},
		{"trace_4_stack.jsonl", "json"},
	} {
		out, _, err := classicExec(t, "trace", "4", "--algo", "stack", "--format", tt.format)
		if err != nil {
			t.Fatal(err)
		}
		testkit.Golden(t, "testdata/"+tt.file, []byte(out))
	}
}

// TestTraceEveryTracer checks the JSON output of every traceable algorithm
// at n = 4: each line is an event, the last one the end of the search with
// the solutions counted in its sentence, and each algorithm's stream is its
// own.
func TestTraceEveryTracer(t *testing.T) {
	seen := map[string]string{}
	for _, s := range classic.All() {
		if _, ok := classic.TraceOf(s); !ok {
			continue
		}
		out, _, err := classicExec(t, "trace", "4", "--algo", s.Name(), "--json")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var last classic.Event
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Kind != classic.Done || !strings.Contains(last.Text, "2 solutions") {
			t.Errorf("%s: the trace ends with %s (%v)", s.Name(), lines[len(lines)-1], err)
		}
		if other, ok := seen[out]; ok {
			t.Errorf("%s traces the same events as %s", s.Name(), other)
		}
		seen[out] = s.Name()
	}
}

func TestTraceEveryAndLimit(t *testing.T) {
	out, _, err := classicExec(t, "trace", "6", "--json", "--every", "10", "--limit", "35")
	if err != nil {
		t.Fatal(err)
	}
	var steps []uint64
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var e classic.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		steps = append(steps, e.Step)
	}
	if want := []uint64{10, 20, 30, 35}; !slices.Equal(steps, want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
	out, _, err = classicExec(t, "trace", "5", "--every", "1000")
	if err != nil || strings.Count(out, "step ") != 1 ||
		!strings.Contains(out, "solutions 10") {
		t.Errorf("--every past the end must show the last event only:\n%s (err %v)", out, err)
	}
}

func TestTraceUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"trace", "4", "--algo", "fast"},
		{"trace", "4", "--algo", "nope"},
		{"trace", "4", "--format", "svg"},
		{"trace", "4", "--every", "0"},
		{"trace", "4", "--limit", "-1"},
		{"trace", "4", "--play"}, // a bytes.Buffer is no terminal
		{"trace", "4", "--play", "--json"},
		{"trace", "0"},
		{"trace", "65"},
		{"trace"},
	} {
		out, _, err := classicExec(t, args...)
		if err == nil || out != "" {
			t.Errorf("%v: err %v, output %q; want an error and no output", args, err, out)
		}
		if len(args) > 1 && !isUsage(err) {
			t.Errorf("%v: %v is not a usage error", args, err)
		}
	}
}

// TestTraceBruteForce checks that the brute-force strategies, which the
// page traces, are traced by the command too, candidate by candidate.
func TestTraceBruteForce(t *testing.T) {
	for _, algo := range []string{"brute-combinations", "brute-rows", "permutations"} {
		out, _, err := classicExec(t, "trace", "4", "--algo", algo, "--limit", "2", "--format", "json")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if err != nil || len(lines) != 2 || !strings.Contains(lines[0], `"candidate":1`) {
			t.Errorf("%s: %v, %q", algo, err, out)
		}
	}
	out, _, err := classicExec(t, "trace", "4", "--algo", "permutations", "--limit", "1")
	if err != nil || !strings.Contains(out, "step 1: Candidate 1: the queens in row 1, column 1 and row 2, column 2 share a ↘ diagonal: rejected") {
		t.Errorf("text trace: %v, %q", err, out)
	}
}

func TestTraceCancelled(t *testing.T) {
	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := &traceOptions{algo: "stack", format: "json", every: 1}
	o.stdout = &out
	if err := o.validate([]string{"8"}); err != nil {
		t.Fatal(err)
	}
	err := o.run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

// TestPlayFrameFitsWidth: every line of a --play frame fits the terminal,
// whatever its width, so that a frame takes as many rows as it has lines
// (the 101-character header used to wrap at 80 columns and the redraw
// landed a line short).
func TestPlayFrameFitsWidth(t *testing.T) {
	tr, _ := classic.Lookup("stack")
	var events []classic.Event
	for e, err := range tr.(classic.Tracer).Trace(context.Background(), 8) {
		if err != nil {
			t.Fatal(err)
		}
		if events = append(events, e); len(events) == 40 {
			break
		}
	}
	header := "stack on 8×8 at 5 events/s (Ctrl-C stops): " + traceLegend(english)
	for _, width := range []int{40, 80, 100, 200} {
		for _, e := range events {
			lines := playFrame(english, header, e, width)
			for _, l := range lines {
				if utf8.RuneCountInString(l) > width || strings.Contains(l, "\n") {
					t.Fatalf("width %d: line %q is %d characters", width, l, utf8.RuneCountInString(l))
				}
			}
			// Nothing is lost: the words of every part, and the board rows.
			text := strings.Join(lines, " ")
			for _, part := range []string{header, e.Text, e.Counters.String()} {
				if !strings.Contains(strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(part), " ")) {
					t.Fatalf("width %d: %q is not in the frame %q", width, part, lines)
				}
			}
			if rows := boardRows(e, true); !slices.Contains(lines, rows[0]) {
				t.Fatalf("width %d: the board's first row %q is not drawn spaced in %q", width, rows[0], lines)
			}
		}
	}
	// A board too wide for spaced cells is drawn unspaced.
	big := classic.Event{Kind: classic.Place, Step: 1, Queens: board.New(30)}
	big.Queens[0] = 0
	if lines := playFrame(english, header, big, 40); !slices.Contains(lines, "Q"+strings.Repeat(".", 29)) {
		t.Errorf("n = 30 at width 40: %q", lines)
	}
}

// TestPlayRedrawsInPlace: each frame goes back up exactly the rows that the
// one before it takes on the terminal.
func TestPlayRedrawsInPlace(t *testing.T) {
	tr, _ := classic.Lookup("stack")
	for _, width := range []int{40, 80, 100, 200} {
		var out bytes.Buffer
		screen := terminal{w: &out, size: func() (int, int) { return width, 50 }}
		o := &traceOptions{every: 1, limit: 30, speed: 1e6, play: true, format: "text"}
		if err := playTrace(context.Background(), english, screen, "stack", 8, tr.(classic.Tracer).Trace(context.Background(), 8), o); err != nil {
			t.Fatal(err)
		}
		s := strings.TrimSuffix(strings.TrimPrefix(out.String(), "\x1b[?25l"), "\x1b[?25h")
		frames := strings.Split(s, "\x1b[J")
		if len(frames) != 30 {
			t.Fatalf("width %d: %d frames, want 30", width, len(frames))
		}
		for i := 1; i < len(frames); i++ {
			var up int
			tail := frames[i-1][strings.LastIndex(frames[i-1], "\x1b["):]
			if _, err := fmt.Sscanf(tail, "\x1b[%dF", &up); err != nil {
				t.Fatalf("width %d, frame %d: no cursor move in %q", width, i, tail)
			}
			// The rows the frame takes on a terminal of that width, which
			// wraps a longer line onto the next row.
			drawn := 0
			for _, l := range strings.Split(strings.TrimSuffix(frames[i-1][:strings.LastIndex(frames[i-1], "\x1b[")], "\n"), "\n") {
				drawn += max(1, (utf8.RuneCountInString(l)+width-1)/width)
			}
			if up != drawn {
				t.Fatalf("width %d, frame %d: moved up %d lines over a frame of %d", width, i, up, drawn)
			}
		}
	}
}

// TestPlayFitsTerminal: on 80×24 every frame of a board up to 21 rows fits
// the window with its title on the first line (from N = 19 the title
// scrolled away), and a stop names the step on the screen (it said "after
// 17 events" while step 16 was shown).
func TestPlayFitsTerminal(t *testing.T) {
	tr, _ := classic.Lookup("stack")
	for _, n := range []int{8, 19, 20, 21} {
		var out bytes.Buffer
		screen := terminal{w: &out, size: func() (int, int) { return 80, 24 }}
		o := &traceOptions{every: 1, limit: 40, speed: 1e6, play: true, format: "text"}
		if err := playTrace(context.Background(), english, screen, "stack", n, tr.(classic.Tracer).Trace(context.Background(), n), o); err != nil {
			t.Fatal(err)
		}
		s := strings.TrimSuffix(strings.TrimPrefix(out.String(), "\x1b[?25l"), "\x1b[?25h")
		for i, frame := range strings.Split(s, "\x1b[J") {
			if k := strings.LastIndex(frame, "\x1b["); k >= 0 {
				frame = frame[:k]
			}
			lines := strings.Split(strings.TrimSuffix(frame, "\n"), "\n")
			if len(lines) > 24 || !strings.HasPrefix(lines[0], fmt.Sprintf("stack on %d×%d", n, n)) {
				t.Fatalf("n = %d, frame %d: %d lines, first %q", n, i, len(lines), lines[0])
			}
		}
	}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	screen := terminal{w: &out, size: func() (int, int) { return 80, 24 }}
	o := &traceOptions{every: 1, speed: 1, play: true, format: "text"}
	// Interrupted, as every command (it ended with exit 0).
	err := playTrace(stopped, english, screen, "stack", 8, tr.(classic.Tracer).Trace(context.Background(), 8), o)
	var ie *interrupted
	if !strings.Contains(out.String(), "step 1:") || !errors.As(err, &ie) || err.Error() != "interrupted; trace stopped at step 1" {
		t.Errorf("stopped at once: %v after drawing %q", err, out.String())
	}
}

// TestTraceAlgoCompletion: trace --algo completes the strategies trace
// can show, and no other (it offered fast).
func TestTraceAlgoCompletion(t *testing.T) {
	_, out, _ := runCLI("__complete", "trace", "--algo", "")
	names := strings.Fields(out)
	if !slices.Contains(names, "stack") || slices.Contains(names, "fast") {
		t.Errorf("trace --algo completes %q", names)
	}
	if _, out, _ := runCLI("__complete", "count", "8", "--algo", ""); !slices.Contains(strings.Fields(out), "fast") {
		t.Errorf("count --algo completes %q", out)
	}
}

// english is the printer of the tests' English sentences.
var english = i18n.For(i18n.English)
