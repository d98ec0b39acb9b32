package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// traceLegend explains the marks of a drawn board, in p's language.
func traceLegend(p *i18n.Printer) string {
	return p.T("cli.trace.legend", i18n.Args{"Q": "Q", "X": "x", "Star": "*", "Dot": "."})
}

type traceOptions struct {
	streams
	n      int
	algo   string
	format string
	json   bool
	every  int
	limit  int
	play   bool
	speed  float64

	strategy classic.Strategy
	trace    func(context.Context, int) iter.Seq2[classic.Event, error]
}

func newTraceCmd(p *i18n.Printer) *cobra.Command {
	o := &traceOptions{}
	cmd := &cobra.Command{
		Use:   "trace N",
		Short: p.T("help.trace.short", nil),
		Long:  p.T("help.trace.long", nil),
		Example: `  nqueens trace 4 --algo stack
  nqueens trace 8 --algo bitmask --format json --limit 100
  nqueens trace 8 --play --speed 20`,
		Args: exactArgs(1, "N"),
	}
	f := cmd.Flags()
	f.StringVar(&o.algo, "algo", "stack", p.T("help.trace.flag.algo", nil))
	_ = cmd.RegisterFlagCompletionFunc("algo", cobra.FixedCompletions(traceableNames(), cobra.ShellCompDirectiveNoFileComp))
	f.StringVarP(&o.format, "format", "f", "text", p.T("help.trace.flag.format", nil))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	f.BoolVar(&o.json, "json", false, p.T("help.trace.flag.json", nil))
	f.IntVar(&o.every, "every", 1, p.T("help.trace.flag.every", nil))
	f.IntVar(&o.limit, "limit", 0, p.T("help.trace.flag.limit", nil))
	f.BoolVar(&o.play, "play", false, p.T("help.trace.flag.play", nil))
	f.Float64Var(&o.speed, "speed", 5, p.T("help.trace.flag.speed", nil))
	return command(cmd, o)
}

// validate checks the flags that do not depend on the terminal.
func (o *traceOptions) validate(args []string) error {
	n, err := parseN(args[0], "trace", classic.MaxN)
	if err != nil {
		return err
	}
	o.n = n
	if o.json {
		o.format = "json"
	}
	switch {
	case o.format != "text" && o.format != "json":
		return usageT("cli.trace.format", i18n.Args{"Value": strconv.Quote(o.format)})
	case o.every < 1:
		return usageT("cli.trace.every", i18n.Args{"Value": strconv.Itoa(o.every)})
	case o.limit < 0:
		return usageT("cli.trace.limit", i18n.Args{"Value": strconv.Itoa(o.limit)})
	case o.play && o.format != "text":
		return usageT("cli.trace.playjson", nil)
	case o.play && (o.speed <= 0 || o.speed > 1e6):
		return usageT("cli.trace.speed", i18n.Args{"Value": fmt.Sprint(o.speed)})
	}
	o.strategy, o.trace, err = tracer(o.algo)
	return err
}

// tracer finds the traceable strategy named name and how to trace it.
func tracer(name string) (classic.Strategy, func(context.Context, int) iter.Seq2[classic.Event, error], error) {
	s, err := lookupAlgo(name)
	if err != nil {
		return nil, nil, err
	}
	if trace, ok := classic.TraceOf(s); ok {
		return s, trace, nil
	}
	return nil, nil, &usageError{i18n.NewError("cli.trace.untraceable", i18n.Args{"Name": s.Name(), "Names": strings.Join(traceableNames(), ", ")})}
}

// traceableNames are the strategies trace can show, which its --algo
// completes (it offered fast, which it refuses).
func traceableNames() []string {
	var names []string
	for _, t := range classic.All() {
		if _, ok := classic.TraceOf(t); ok {
			names = append(names, t.Name())
		}
	}
	return names
}

func (o *traceOptions) run(ctx context.Context) error {
	n, tr, trace := o.n, o.strategy, o.trace
	out := o.stdout
	var screen terminal
	var err error
	if o.play {
		if screen, err = playTerminal(out, n); err != nil {
			return err
		}
	}
	// The search's context is separate so that --limit and the end of
	// play stop it without making the command fail. Its sentences are in
	// the language of the output: the human one for text, the data's for
	// JSON.
	p := say(ctx)
	search, stop := context.WithCancel(ctx)
	if o.format == "json" {
		search = dataLang(search)
	}
	defer stop()
	seq := trace(search, n)
	if o.play {
		return playTrace(ctx, p, screen, tr.Name(), n, seq, o)
	}
	w := bufio.NewWriter(out)
	if o.format == "text" {
		fmt.Fprintf(w, "%s\n\n", p.T("cli.trace.header", i18n.Args{"Algo": tr.Name(), "N": n, "Legend": traceLegend(p)}))
	}
	count, err := writeTrace(p, w, seq, o)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return interruptedT("cli.trace.stopped", i18n.Args{"Count": count})
	}
	return nil
}

// writeTrace writes every o.every-th event of seq, and the last, up to
// o.limit events, and returns how many there were.
func writeTrace(p *i18n.Printer, w *bufio.Writer, seq iter.Seq2[classic.Event, error], o *traceOptions) (int, error) {
	show := func(e classic.Event) error {
		if o.format == "json" {
			line, err := json.Marshal(e)
			if err != nil {
				return err
			}
			w.Write(line)
			return w.WriteByte('\n')
		}
		_, err := w.WriteString(drawEvent(p, e) + "\n")
		return err
	}
	var last classic.Event
	count := 0
	for e, err := range seq {
		if err != nil {
			return count, traceError(err)
		}
		count++
		last = e
		if count%o.every == 0 {
			if err := show(e); err != nil {
				return count, err
			}
		}
		if count == o.limit {
			break
		}
	}
	if count > 0 && count%o.every != 0 {
		return count, show(last)
	}
	return count, nil
}

// traceError sorts the error that ends a trace: a size out of range is a
// usage error; the end of the context is not an error here, as the caller
// reports it after what was written.
func traceError(err error) error {
	var se *board.SizeError
	switch {
	case errors.As(err, &se):
		return &usageError{err}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return nil
	}
	return err
}

// drawEvent is the text form of one event, in p's language: a description
// line, the board with attacked squares marked, and the counters.
func drawEvent(p *i18n.Printer, e classic.Event) string {
	var b strings.Builder
	b.WriteString(stepLine(p, e) + "\n")
	for _, row := range boardRows(e, true) {
		b.WriteString(row + "\n")
	}
	b.WriteString(countersLine(p, e.Counters) + "\n")
	return b.String()
}

// stepLine is "step 3: " and the event's sentence.
func stepLine(p *i18n.Printer, e classic.Event) string {
	return p.T("cli.trace.step", i18n.Args{"Step": strconv.FormatUint(e.Step, 10), "Text": e.Text})
}

// countersLine is the counters after an event, grouped: "nodes 1, tries 2, …".
func countersLine(p *i18n.Printer, c classic.Counters) string {
	return p.T("cli.trace.counters", i18n.Args{"Nodes": c.Nodes, "Tries": c.Tries, "Reads": c.Reads, "Placed": c.Placed,
		"Rejected": c.Rejected, "Backtracks": c.Backtracks, "Solutions": c.Solutions})
}

// boardRows draws the board of e, a string a row, with its cells spaced or
// not.
func boardRows(e classic.Event, spaced bool) []string {
	n := len(e.Queens)
	rows := make([]string, n)
	var b strings.Builder
	for r := range n {
		b.Reset()
		for c := range n {
			if c > 0 && spaced {
				b.WriteByte(' ')
			}
			b.WriteByte(squareMark(e, r, c))
		}
		rows[r] = b.String()
	}
	return rows
}

func squareMark(e classic.Event, r, c int) byte {
	switch {
	case int(e.Queens[r]) == c:
		return 'Q'
	case e.Kind == classic.Reject && e.Row == r && e.Col == c:
		return '*'
	}
	for qr, qc := range e.Queens {
		if qc != board.Empty && board.Attacks(board.Square{Row: qr, Col: int(qc)}, board.Square{Row: r, Col: c}) {
			return 'x'
		}
	}
	return '.'
}
