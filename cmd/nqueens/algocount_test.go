package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/classic"
)

// countAlgo runs count N --algo NAME through its mode's options, check,
// validate and run, with ctx.
func countAlgo(ctx context.Context, n int, algo string, stats, jsonOut, yes bool) (*bytes.Buffer, error) {
	var out, errOut bytes.Buffer
	o := &algoCount{countCommon: &countCommon{jsonOut: jsonOut, yes: yes}, name: algo, stats: stats}
	o.streams = streams{stdout: &out, stderr: &errOut, given: func(string) bool { return false }}
	if err := o.check(); err != nil {
		return &out, err
	}
	if err := o.validate([]string{itoa(n)}); err != nil {
		return &out, err
	}
	return &out, o.run(ctx)
}

func TestAlgoCountStats(t *testing.T) {
	out, err := countAlgo(context.Background(), 8, "stack", true, false, false)
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	// The time varies; every other line is exact.
	want := `algorithm   stack
n           8
solutions   92
nodes       2,056
tries       15,720
reads       93,504
placed      2,056
rejected    13,664
backtracks  2,056
time        `
	if !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 10 {
		t.Errorf("got\n%s\nwant\n%s…", got, want)
	}
}

func TestAlgoCountPlainAndJSON(t *testing.T) {
	for _, algo := range []string{"brute-rows", "permutations", "backtrack-2d", "bitmask"} {
		out, err := countAlgo(context.Background(), 6, algo, false, false, false)
		if err != nil || out.String() != "4\n" {
			t.Errorf("%s: %q, err %v; want 4", algo, out, err)
		}
	}
	out, err := countAlgo(context.Background(), 8, "permutations", true, true, false)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		N         int
		Algorithm string
		Solutions uint64
		Counters  classic.Counters
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if got.N != 8 || got.Solutions != 92 || got.Counters.Nodes != 40320 || got.Counters.Elapsed <= 0 {
		t.Errorf("%+v", got)
	}
}

func TestAlgoCountErrors(t *testing.T) {
	bg := context.Background()
	if _, err := countAlgo(bg, 8, "nope", false, false, false); !isUsage(err) {
		t.Errorf("unknown algorithm: %v is not a usage error", err)
	}
	if _, err := countAlgo(bg, 65, "bitmask", false, false, false); !isUsage(err) {
		t.Errorf("n = 65: %v is not a usage error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := countAlgo(ctx, 9, "brute-combinations", false, false, false)
	if err == nil || isUsage(err) {
		t.Errorf("cancelled brute-combinations: err %v", err)
	}
	// Runs estimated over an hour need --yes, brute force and backtracking
	// alike (10^28 years of brute-rows for n = 30 started before).
	for _, tc := range []struct {
		n    int
		algo string
		want string
	}{
		{30, "brute-rows", "would take about"},
		{22, "stack", "would take at least"},
	} {
		_, err := countAlgo(bg, tc.n, tc.algo, false, false, false)
		if !isUsage(err) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--yes") {
			t.Errorf("%s n = %d without --yes: %v", tc.algo, tc.n, err)
		}
	}
}
