package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/classic"
	"github.com/spf13/cobra"
)

// classicExec runs one command line on a fresh root command and returns its
// stdout, stderr and error.
func classicExec(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd()
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
		golden(t, tt.file, out)
	}
}

// TestTraceSameForEveryTracer checks the CLI output of every traceable
// algorithm against the stack's golden file: the conventions make them equal.
func TestTraceSameForEveryTracer(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "trace_4_stack.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range classic.All() {
		if _, ok := s.(classic.Tracer); !ok {
			continue
		}
		out, _, err := classicExec(t, "trace", "4", "--algo", s.Name(), "--json")
		if err != nil || out != string(want) {
			t.Errorf("%s: trace differs from stack's (err %v)", s.Name(), err)
		}
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
		{"trace", "4", "--algo", "permutations"},
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

func TestTraceCancelled(t *testing.T) {
	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cmd := &cobra.Command{}
	cmd.SetOut(&out)
	cmd.SetContext(ctx)
	err := runTrace(cmd, 8, traceOptions{algo: "stack", format: "json", every: 1})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}
