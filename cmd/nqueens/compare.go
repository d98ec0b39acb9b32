package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nqueens/nqueens/classic"
	"github.com/spf13/cobra"
)

// compareOptions are the flags and arguments of compare.
type compareOptions struct {
	streams
	n       int
	algos   string
	list    []classic.Strategy
	timeout time.Duration
	jsonOut bool
}

func newCompareCmd() *cobra.Command {
	o := &compareOptions{}
	cmd := &cobra.Command{
		Use:   "compare N",
		Short: "Run the classic algorithms one after another and compare their work",
		Long: `Run the classic algorithms for the N×N board one after another and print a
table of solutions, nodes, tries, time and time relative to bitmask.

A brute-force method whose candidates (known in closed form: C(N², N), N^N,
N!) would take longer than --timeout at the rate measured in a short
calibration run is skipped with a note; any other run is stopped at
--timeout. Runs shorter than 10ms are repeated and averaged.`,
		Example: `  nqueens compare 8
  nqueens compare 12 --algos backtrack-flags,stack,bitmask --timeout 10s`,
		Args: exactArgs(1, "N"),
	}
	cmd.Flags().StringVar(&o.algos, "algos", "", "comma-separated algorithms to run, in order (default: all, see nqueens algorithms)")
	cmd.Flags().DurationVar(&o.timeout, "timeout", time.Second, "time allowed to each algorithm")
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, "JSON Lines, one per algorithm")
	return command(cmd, o)
}

func (o *compareOptions) validate(args []string) error {
	n, err := parseN(args[0], "compare", classic.MaxN)
	if err != nil {
		return err
	}
	o.n = n
	if o.timeout <= 0 {
		return usagef("--timeout must be positive, got %v", o.timeout)
	}
	o.list = classic.All()
	if o.algos != "" {
		o.list = nil
		for _, name := range strings.Split(o.algos, ",") {
			s, err := lookupAlgo(strings.TrimSpace(name))
			if err != nil {
				return err
			}
			o.list = append(o.list, s)
		}
	}
	return nil
}

func (o *compareOptions) run(ctx context.Context) error {
	rows := make([]compareRow, 0, len(o.list))
	for _, s := range o.list {
		r, err := compareOne(ctx, s, o.n, o.timeout)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	relativeToBitmask(rows)
	if o.jsonOut {
		return writeCompareJSON(o.stdout, o.n, rows)
	}
	return writeCompareTable(o.stdout, rows)
}

// compareRow is one algorithm's line of the table.
type compareRow struct {
	name     string
	status   string // "ok", "skipped" or "timeout"
	counters classic.Counters
	perRun   time.Duration // average over runs
	runs     int
	relative float64 // perRun / bitmask's; 0 when unknown
	note     string
	classic  bool // one of the classic strategies, which count reads
}

// compareOne runs s for n within timeout (classic.Measure). Only a
// cancellation of ctx itself (Ctrl-C) is an error.
func compareOne(ctx context.Context, s classic.Strategy, n int, timeout time.Duration) (compareRow, error) {
	_, isClassic := classic.LessonOf(s)
	r := compareRow{name: s.Name(), status: "ok", classic: isClassic}
	m, err := classic.Measure(ctx, s, n, timeout)
	var se *classic.SizeError
	if errors.As(err, &se) {
		return r, &usageError{err}
	} else if err != nil {
		return r, err
	}
	r.status, r.counters, r.perRun, r.runs = m.Status, m.Counters, m.PerRun, m.Runs
	switch m.Status {
	case "skipped":
		r.note = fmt.Sprintf("skipped: %s candidates would take about %s at the measured %s candidates/s (--timeout %v)",
			groupBig(m.Candidates), roughDuration(m.Seconds), roughRate(m.Rate), timeout)
	case "timeout":
		r.note = fmt.Sprintf("stopped at --timeout %v: the counts are those reached by then", timeout)
	}
	return r, nil
}

func relativeToBitmask(rows []compareRow) {
	var ref time.Duration
	for _, r := range rows {
		if r.name == "bitmask" && r.status == "ok" {
			ref = r.perRun
		}
	}
	if ref <= 0 {
		return
	}
	for i := range rows {
		if rows[i].status == "ok" {
			rows[i].relative = float64(rows[i].perRun) / float64(ref)
		}
	}
}

func writeCompareTable(w io.Writer, rows []compareRow) error {
	table := [][]string{{"algorithm", "solutions", "nodes", "tries", "reads", "time", "vs bitmask"}}
	var notes []string
	for _, r := range rows {
		line := []string{r.name, "-", "-", "-", "-", "-", "-"}
		if r.status != "skipped" {
			c := r.counters
			line[1], line[2], line[3] = classic.Group(c.Solutions), classic.Group(c.Nodes), classic.Group(c.Tries)
			if r.classic {
				line[4] = classic.Group(c.Reads)
			}
			line[5] = roundDuration(r.perRun).String()
			if r.status == "timeout" {
				line[5] = ">" + line[5]
			}
			if r.relative > 0 {
				line[6] = formatRelative(r.relative)
			}
		}
		table = append(table, line)
		if r.note != "" {
			notes = append(notes, r.name+": "+r.note)
		}
	}
	// Names flush left, numbers flush right; notes are too long for a
	// column and go below the table.
	width := make([]int, len(table[0]))
	for _, line := range table {
		for i, cell := range line {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, line := range table {
		for i, cell := range line {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				b.WriteString(cell + pad)
			} else {
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteByte('\n')
	}
	for _, note := range notes {
		b.WriteString(note + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeCompareJSON(w io.Writer, n int, rows []compareRow) error {
	for _, r := range rows {
		out := struct {
			N         int     `json:"n"`
			Algorithm string  `json:"algorithm"`
			Status    string  `json:"status"`
			Counters  any     `json:"counters,omitempty"`
			Runs      int     `json:"runs,omitempty"`
			Relative  float64 `json:"relative_to_bitmask,omitempty"`
			Note      string  `json:"note,omitempty"`
		}{N: n, Algorithm: r.name, Status: r.status, Runs: r.runs, Relative: r.relative, Note: r.note}
		if r.status != "skipped" {
			c := r.counters
			c.Elapsed = r.perRun
			out.Counters = c
			if !r.classic {
				out.Counters = engineCounters(c) // its reads mean nothing
			}
		}
		line, err := json.Marshal(out)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "%s\n", line); err != nil {
			return err
		}
	}
	return nil
}

// engineCounters are the counters of a counting engine (fast), which has no
// reads: the classic counters without that field.
func engineCounters(c classic.Counters) any {
	return struct {
		Nodes      uint64 `json:"nodes"`
		Tries      uint64 `json:"tries"`
		Placed     uint64 `json:"placed"`
		Rejected   uint64 `json:"rejected"`
		Backtracks uint64 `json:"backtracks"`
		Solutions  uint64 `json:"solutions"`
		Elapsed    int64  `json:"elapsed_ns,omitempty"`
	}{c.Nodes, c.Tries, c.Placed, c.Rejected, c.Backtracks, c.Solutions, int64(c.Elapsed)}
}

// roundDuration keeps three significant digits: 187ms, 24.4µs, 1.72s.
func roundDuration(d time.Duration) time.Duration {
	for unit := time.Duration(1); unit < time.Hour; unit *= 10 {
		if d < 1000*unit {
			return d.Round(unit)
		}
	}
	return d.Round(time.Second)
}

func formatRelative(x float64) string {
	switch {
	case x < 10:
		return fmt.Sprintf("%.2f", x)
	case x < 1000:
		return fmt.Sprintf("%.1f", x)
	}
	return classic.Group(uint64(x + 0.5))
}

// roughDuration says how long secs is, for an estimate: "48s", "3.2 hours",
// "2e+12 years".
func roughDuration(secs float64) string {
	// Two digits, but never in e-notation below the years: "1.1e+02s" was
	// how 110 s came out.
	two := func(v float64) string {
		if v < 10 {
			return fmt.Sprintf("%.2g", v)
		}
		return fmt.Sprintf("%.0f", v)
	}
	switch {
	case secs < 120:
		return two(secs) + "s"
	case secs < 2*3600:
		return two(secs/60) + " minutes"
	case secs < 2*86400:
		return two(secs/3600) + " hours"
	case secs < 2*365.25*86400:
		return two(secs/86400) + " days"
	}
	return fmt.Sprintf("%.2g years", secs/(365.25*86400))
}

func roughRate(r float64) string {
	switch {
	case r >= 1e9:
		return fmt.Sprintf("%.3g billion", r/1e9)
	case r >= 1e6:
		return fmt.Sprintf("%.3g million", r/1e6)
	}
	return fmt.Sprintf("%.3g", r)
}
