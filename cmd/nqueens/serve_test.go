package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
)

// TestServe starts `nqueens serve` on a free loopback port, checks that the
// flags reach the server, and stops it by cancelling the command's context,
// as the root command does on Ctrl-C.
func TestServe(t *testing.T) {
	var stderr syncbuf.Buffer
	root := newRootCmd(i18n.For(i18n.English))
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&stderr)
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--max-count-n", "12", "--max-jobs", "2", "--quiet"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	addr := regexp.MustCompile(`serving on (http://127\.0\.0\.1:\d+/)`)
	defer cancel()
	var base string
	testkit.WaitFor(t, "the address to be announced", func() bool {
		m := addr.FindStringSubmatch(stderr.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	})
	res, err := http.Get(base + "api/limits")
	if err != nil {
		t.Fatal(err)
	}
	var limits struct {
		MaxCountN int `json:"max_count_n"`
		MaxJobs   int `json:"max_jobs"`
		MaxTraceN int `json:"max_trace_n"`
	}
	json.NewDecoder(res.Body).Decode(&limits)
	res.Body.Close()
	if limits.MaxCountN != 12 || limits.MaxJobs != 2 || limits.MaxTraceN != 20 {
		t.Fatalf("limits %+v", limits)
	}
	res, err = http.Get(base)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /: %v %v", err, res.Status)
	}
	res.Body.Close()

	cancel()
	if err := testkit.Receive(t, "serve to stop when its context was cancelled", done); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if !strings.Contains(stderr.String(), "server stopped") {
		t.Fatalf("stderr: %s", stderr.String())
	}
}

func TestServeUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "extra"}, "needs no arguments"},
		{[]string{"serve", "--max-count-n", "99"}, "max count N = 99 is over what the engine supports (64)"},
		{[]string{"serve", "--max-jobs", "-1"}, "max jobs must not be negative"},
		{[]string{"serve", "--timeout", "soon"}, "invalid argument"},
	} {
		root := newRootCmd(i18n.For(i18n.English))
		root.SetOut(&bytes.Buffer{})
		root.SetErr(&bytes.Buffer{})
		root.SetArgs(tc.args)
		err := root.ExecuteContext(context.Background())
		var ue *usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || (!errors.As(err, &ue) && started(root)) {
			t.Errorf("%v: error %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}

// TestServeHelpShowsLimits checks that --help lists every limit with its
// default, as the issue asks.
func TestServeHelpShowsLimits(t *testing.T) {
	var out bytes.Buffer
	root := newRootCmd(i18n.For(i18n.English))
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs([]string{"serve", "--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`--addr string`, `"127.0.0.1:8080"`,
		"--max-count-n int", "(default 16)", "--max-solve-n int", "(default 10000000)",
		"--max-trace-n int", "(default 20)", "--max-gallery-n int", "(default 12)",
		"--max-complete-n", "--max-render-n", "--max-verify-n", "--max-trace-events",
		"--max-body int", "(default 1048576)", "--timeout duration", "(default 1m0s)",
		"--max-jobs int", "(default 4)", "--count-idle", "--stream-timeout",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
}
