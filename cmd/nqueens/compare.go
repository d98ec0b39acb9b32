package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/i18n"
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

func newCompareCmd(p *i18n.Printer) *cobra.Command {
	o := &compareOptions{}
	cmd := &cobra.Command{
		Use:   "compare N",
		Short: p.T("help.compare.short", nil),
		Long:  p.T("help.compare.long", nil),
		Example: `  nqueens compare 8
  nqueens compare 12 --algos backtrack-flags,stack,bitmask --timeout 10s`,
		Args: exactArgs(1, "N"),
	}
	cmd.Flags().StringVar(&o.algos, "algos", "", p.T("help.compare.flag.algos", nil))
	cmd.Flags().DurationVar(&o.timeout, "timeout", time.Second, p.T("help.compare.flag.timeout", nil))
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, p.T("help.compare.flag.json", nil))
	return command(cmd, o)
}

func (o *compareOptions) validate(args []string) error {
	n, err := parseN(args[0], "compare", classic.MaxN)
	if err != nil {
		return err
	}
	o.n = n
	if o.timeout <= 0 {
		return usageT("cli.compare.timeout", i18n.Args{"Value": o.timeout.String()})
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
	rows, err := classic.Compare(ctx, o.list, o.n, o.timeout)
	p := say(ctx)
	if ie := stoppedEarly(ctx, err, "compare", p.T("cli.compare.kept", nil)); ie != nil {
		return ie
	}
	var se *classic.SizeError
	if errors.As(err, &se) {
		return &usageError{err}
	} else if err != nil {
		return err
	}
	if o.jsonOut {
		for _, r := range rows {
			if err := writeJSONLine(o.stdout, r); err != nil {
				return err
			}
		}
		return nil
	}
	return writeCompareTable(p, o.stdout, rows, o.timeout)
}

// compareNote says why a row has no time of a whole run, or "".
func compareNote(p *i18n.Printer, r classic.Comparison, timeout time.Duration) string {
	switch r.Status {
	case "skipped":
		return p.T("cli.compare.skipped", i18n.Args{"Candidates": groupBig(r.Candidates), "Time": roughDuration(p, r.Estimate),
			"Rate": roughRate(p, r.Rate), "Flag": "--timeout", "Timeout": timeout.String()})
	case "timeout":
		return p.T("cli.compare.stopped", i18n.Args{"Flag": "--timeout", "Timeout": timeout.String()})
	}
	return ""
}

func writeCompareTable(p *i18n.Printer, w io.Writer, rows []classic.Comparison, timeout time.Duration) error {
	table := [][]string{{p.T("cli.compare.algorithm", nil), p.T("cli.compare.solutions", nil), p.T("cli.compare.nodes", nil),
		p.T("cli.compare.tries", nil), p.T("cli.compare.reads", nil), p.T("cli.compare.time", nil),
		p.T("cli.compare.relative", i18n.Args{"Name": "bitmask"})}}
	var notes []string
	for _, r := range rows {
		line := []string{r.Algorithm, "-", "-", "-", "-", "-", "-"}
		if c := r.Counters; c != nil {
			line[1], line[2], line[3] = classic.Group(c.Solutions), classic.Group(c.Nodes), classic.Group(c.Tries)
			if c.Reads != nil {
				line[4] = classic.Group(*c.Reads)
			}
			line[5] = roundDuration(time.Duration(r.Seconds * float64(time.Second))).String()
			if r.Status == "timeout" {
				line[5] = ">" + line[5]
			}
			if r.RelativeToBitmask > 0 {
				line[6] = formatRelative(r.RelativeToBitmask)
			}
		}
		table = append(table, line)
		if note := compareNote(p, r, timeout); note != "" {
			notes = append(notes, p.T("cli.compare.note", i18n.Args{"Algo": r.Algorithm, "Note": note}))
		}
	}
	// Names flush left, numbers flush right; notes are too long for a
	// column and go below the table.
	width := make([]int, len(table[0]))
	for _, line := range table {
		for i, cell := range line {
			width[i] = max(width[i], displayWidth(cell))
		}
	}
	var b strings.Builder
	for _, line := range table {
		for i, cell := range line {
			pad := strings.Repeat(" ", width[i]-displayWidth(cell))
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
func roughDuration(p *i18n.Printer, secs float64) string {
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
		return p.T("cli.rough.seconds", i18n.Args{"V": two(secs)})
	case secs < 2*3600:
		return p.T("cli.rough.minutes", i18n.Args{"V": two(secs / 60)})
	case secs < 2*86400:
		return p.T("cli.rough.hours", i18n.Args{"V": two(secs / 3600)})
	case secs < 2*365.25*86400:
		return p.T("cli.rough.days", i18n.Args{"V": two(secs / 86400)})
	}
	return p.T("cli.rough.years", i18n.Args{"V": fmt.Sprintf("%.2g", secs/(365.25*86400))})
}

func roughRate(p *i18n.Printer, r float64) string {
	switch {
	case r >= 1e9:
		return p.T("cli.rate.billion", i18n.Args{"V": fmt.Sprintf("%.3g", r/1e9)})
	case r >= 1e6:
		return p.T("cli.rate.million", i18n.Args{"V": fmt.Sprintf("%.3g", r/1e6)})
	}
	return fmt.Sprintf("%.3g", r)
}
