package main

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/web"
)

func compareJSON(t *testing.T, args ...string) []classic.Comparison {
	t.Helper()
	out, _, err := classicExec(t, append([]string{"compare", "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var lines []classic.Comparison
	for _, s := range strings.Split(strings.TrimSpace(out), "\n") {
		var l classic.Comparison
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		lines = append(lines, l)
	}
	return lines
}

func TestCompareAgrees(t *testing.T) {
	lines := compareJSON(t, "6", "--timeout", "1m")
	if len(lines) < 9 {
		t.Fatalf("%d lines, want every algorithm", len(lines))
	}
	for _, l := range lines {
		if l.Status != "ok" || l.Counters == nil || l.Counters.Solutions != 4 || l.RelativeToBitmask <= 0 || l.N != 6 {
			t.Errorf("%+v: want ok, 4 solutions, a relative time", l)
		}
		if l.Algorithm == "bitmask" && l.RelativeToBitmask != 1 {
			t.Errorf("bitmask relative to itself is %v", l.RelativeToBitmask)
		}
		if (l.Counters.Reads == nil) != (l.Algorithm == "fast") {
			t.Errorf("%s: reads %v: want them for every classic strategy, none for fast", l.Algorithm, l.Counters.Reads)
		}
	}
	if lines[0].Algorithm != "brute-combinations" || lines[0].Counters.Nodes != 1947792 {
		t.Errorf("first line %+v, want brute-combinations with C(36, 6) candidates", lines[0])
	}
}

// TestCompareSkips checks that a brute force that cannot finish in time is
// skipped on its estimate and a slow search is stopped at the timeout.
func TestCompareSkips(t *testing.T) {
	start := time.Now()
	lines := compareJSON(t, "20", "--algos", "brute-rows,stack", "--timeout", "100ms")
	if d := time.Since(start); d > 10*time.Second { // a bound for a loaded machine: the search of n = 20 never ends by itself
		t.Errorf("compare with --timeout 100ms took %v", d)
	}
	if len(lines) != 2 || lines[0].Status != "skipped" || lines[0].Candidates == nil || lines[0].Candidates.String() != "104857600000000000000000000" || lines[0].Formula != "n^n" || lines[0].Rate <= 0 || lines[0].Estimate <= 0.1 {
		t.Errorf("brute-rows for n = 20: %+v", lines[0])
	}
	if lines[1].Status != "timeout" || lines[1].Counters == nil || lines[1].Counters.Nodes == 0 {
		t.Errorf("stack for n = 20: %+v", lines[1])
	}
}

// TestCompareOneShape: compare --json and GET /api/compare write the same
// rows, field for field and in the same order, but for the times
// measured. Both get the same time limit, one long enough that no strategy
// is skipped or stopped on a loaded machine: with different limits one
// skipped brute-combinations under load and the other ran it.
func TestCompareOneShape(t *testing.T) {
	out, _, err := classicExec(t, "compare", "6", "--algos", "brute-combinations,permutations,bitmask", "--timeout", "1m", "--json")
	if err != nil {
		t.Fatal(err)
	}
	cfg := web.DefaultConfig()
	cfg.Logger = slog.New(slog.DiscardHandler)
	cfg.CompareTimeout = time.Minute
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/api/compare?n=6&algos=brute-combinations,permutations,bitmask", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/api/compare: %d %s", rec.Code, rec.Body)
	}
	var api []json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &api); err != nil {
		t.Fatal(err)
	}
	cli := strings.Split(strings.TrimSpace(out), "\n")
	if len(cli) != 3 || len(api) != 3 {
		t.Fatalf("compare --json wrote %d rows, the API %d; want 3", len(cli), len(api))
	}
	for i := range cli {
		// The same text but for the times: the same names, types and order.
		if c, a := timed.ReplaceAllString(cli[i], ""), timed.ReplaceAllString(string(api[i]), ""); c != a {
			t.Errorf("row %d: compare --json\n%s\nGET /api/compare\n%s", i+1, cli[i], api[i])
		}
	}
}

// timed are the fields of a row that depend on the time measured.
var timed = regexp.MustCompile(`"(seconds|runs|median_s|q1_s|q3_s|samples|relative_to_bitmask|candidates_per_second|estimate_s)":[0-9.e+-]+,?`)

func TestCompareTable(t *testing.T) {
	out, _, err := classicExec(t, "compare", "8", "--algos", "brute-combinations,stack,bitmask")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	for i, want := range []string{
		"algorithm           solutions  nodes   tries   reads",
		"brute-combinations          -      -       -       -",
		"stack                      92  2,056  15,720  93,504",
		"bitmask                    92  2,056   2,056   7,951",
		"brute-combinations: skipped: 4,426,165,368 candidates would take about",
	} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: %q, want %q…", i+1, lines[i], want)
		}
	}
	if !strings.HasSuffix(lines[3], " 1.00") {
		t.Errorf("bitmask line %q does not end in 1.00", lines[3])
	}
}

func TestCompareUsage(t *testing.T) {
	for _, args := range [][]string{
		{"compare", "8", "--algos", "stack,quantum"},
		{"compare", "8", "--timeout", "0s"},
		{"compare", "x"},
	} {
		if _, _, err := classicExec(t, args...); !isUsage(err) {
			t.Errorf("%v: %v is not a usage error", args, err)
		}
	}
}

func TestRoundDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		187448673 * time.Nanosecond: "187ms",
		24356 * time.Nanosecond:     "24.4µs",
		1724295620:                  "1.72s",
		570:                         "570ns",
	} {
		if got := roundDuration(d).String(); got != want {
			t.Errorf("roundDuration(%d) = %s, want %s", d, got, want)
		}
	}
}

// TestRoughDuration: estimates read as people write them, never in
// e-notation short of years.
func TestRoughDuration(t *testing.T) {
	for secs, want := range map[float64]string{
		3.7: "3.7s", 37: "37s", 110: "110s", 300: "5 minutes", 7000: "117 minutes",
		3 * 3600: "3 hours", 47 * 3600: "47 hours", 100 * 86400: "100 days", 2e12 * 365.25 * 86400: "2e+12 years",
	} {
		if got := roughDuration(english, secs); got != want {
			t.Errorf("roughDuration(%g) = %q, want %q", secs, got, want)
		}
	}
}
