package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

type compareLine struct {
	N         int
	Algorithm string
	Status    string
	Counters  *struct{ Nodes, Tries, Solutions uint64 }
	Relative  float64 `json:"relative_to_bitmask"`
	Note      string
}

func compareJSON(t *testing.T, args ...string) []compareLine {
	t.Helper()
	out, _, err := classicExec(t, append([]string{"compare", "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var lines []compareLine
	for _, s := range strings.Split(strings.TrimSpace(out), "\n") {
		var l compareLine
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
		if l.Status != "ok" || l.Counters == nil || l.Counters.Solutions != 4 || l.Relative <= 0 {
			t.Errorf("%+v: want ok, 4 solutions, a relative time", l)
		}
		if l.Algorithm == "bitmask" && l.Relative != 1 {
			t.Errorf("bitmask relative to itself is %v", l.Relative)
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
	if len(lines) != 2 || lines[0].Status != "skipped" || !strings.Contains(lines[0].Note, "104,857,600,000,000,000,000,000,000 candidates") {
		t.Errorf("brute-rows for n = 20: %+v", lines[0])
	}
	if lines[1].Status != "timeout" || lines[1].Counters == nil || lines[1].Counters.Nodes == 0 {
		t.Errorf("stack for n = 20: %+v", lines[1])
	}
}

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
		if got := roughDuration(secs); got != want {
			t.Errorf("roughDuration(%g) = %q, want %q", secs, got, want)
		}
	}
}
