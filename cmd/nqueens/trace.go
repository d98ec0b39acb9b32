package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"strings"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// traceLegend explains the marks of a drawn board.
const traceLegend = "Q queen, x attacked, * square tried and rejected, . free"

type traceOptions struct {
	algo   string
	format string
	json   bool
	every  int
	limit  int
	play   bool
	speed  float64
}

func newTraceCmd() *cobra.Command {
	var o traceOptions
	cmd := &cobra.Command{
		Use:   "trace N",
		Short: "Show a classic backtracking search step by step",
		Long: `Show the search of one backtracking algorithm on the N×N board as a stream
of events: place (row, col), reject (row, col and the queen that attacks
it), remove (row, col) and solution. Rows and columns are 1-based.

The text format draws the board after each event (Q queen, x attacked
square, * the square just rejected) with a one-line description and the
counters; --format json writes one JSON object a line with the board after
the event ("queens", 0 for an empty row) and the counters. --every K shows
only every K-th event (and the last), --limit K stops the search after K
events. --play animates the board in place on a terminal at --speed events
per second; Ctrl-C stops it.`,
		Example: `  nqueens trace 4 --algo stack
  nqueens trace 8 --algo bitmask --format json --limit 100
  nqueens trace 8 --play --speed 20`,
		Args: exactArgs(1, "N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseN(args[0], "trace", classic.MaxN)
			if err != nil {
				return err
			}
			return runTrace(cmd, n, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.algo, "algo", "stack", "backtracking algorithm to trace (see nqueens algorithms)")
	algoNames(cmd, "algo")
	f.StringVarP(&o.format, "format", "f", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	f.BoolVar(&o.json, "json", false, "same as --format json")
	f.IntVar(&o.every, "every", 1, "show every K-th event only (and the last)")
	f.IntVar(&o.limit, "limit", 0, "stop after K events (0: run the whole search)")
	f.BoolVar(&o.play, "play", false, "animate on the terminal, redrawing in place")
	f.Float64Var(&o.speed, "speed", 5, "events shown per second with --play")
	return cmd
}

func runTrace(cmd *cobra.Command, n int, o traceOptions) error {
	if o.json {
		o.format = "json"
	}
	if o.format != "text" && o.format != "json" {
		return usagef("format %q is not available for trace (want text or json)", o.format)
	}
	if o.every < 1 {
		return usagef("--every must be at least 1, got %d", o.every)
	}
	if o.limit < 0 {
		return usagef("--limit must not be negative, got %d", o.limit)
	}
	s, err := lookupAlgo(o.algo)
	if err != nil {
		return err
	}
	tr, ok := s.(classic.Tracer)
	if !ok {
		var names []string
		for _, t := range classic.All() {
			if _, ok := t.(classic.Tracer); ok {
				names = append(names, t.Name())
			}
		}
		return usagef("%s cannot be traced (want one of %s)", s.Name(), strings.Join(names, ", "))
	}
	out := cmd.OutOrStdout()
	var screen *os.File
	if o.play {
		if o.format != "text" {
			return usagef("--play draws boards; it cannot be used with --format json")
		}
		if o.speed <= 0 || o.speed > 1e6 {
			return usagef("--speed must be between 0 and 1000000 events per second, got %v", o.speed)
		}
		f, isFile := out.(*os.File)
		if !isFile || !term.IsTerminal(int(f.Fd())) {
			return usagef("--play needs a terminal on stdout; use the text or json format to write to a file or pipe")
		}
		screen = f
	}
	ctx := cmd.Context()
	// The search's context is separate so that --limit and the end of
	// play stop it without making the command fail.
	search, stop := context.WithCancel(ctx)
	defer stop()
	seq, err := tr.Trace(search, n)
	if err != nil {
		return &usageError{err}
	}
	if screen != nil {
		return playTrace(ctx, screen, cmd.ErrOrStderr(), s.Name(), n, seq, o)
	}

	w := bufio.NewWriter(out)
	if o.format == "text" {
		fmt.Fprintf(w, "%s on %d×%d: %s\n\n", s.Name(), n, n, traceLegend)
	}
	show := func(e classic.Event) error {
		if o.format == "json" {
			line, err := json.Marshal(e)
			if err != nil {
				return err
			}
			w.Write(line)
			return w.WriteByte('\n')
		}
		_, err := w.WriteString(drawEvent(e) + "\n")
		return err
	}
	var last classic.Event
	count := 0
	for e := range seq {
		count++
		last = e
		if count%o.every == 0 {
			if err := show(e); err != nil {
				return err
			}
		}
		if count == o.limit {
			break
		}
	}
	if count > 0 && count%o.every != 0 {
		if err := show(last); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("trace stopped after %d events: %w", count, err)
	}
	return nil
}

// drawEvent is the text form of one event: a description line, the board
// with attacked squares marked, and the counters.
func drawEvent(e classic.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d: %s\n", e.Step, e)
	n := len(e.Queens)
	for r := range n {
		for c := range n {
			if c > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(squareMark(e, r, c))
		}
		b.WriteByte('\n')
	}
	b.WriteString(e.Counters.String() + "\n")
	return b.String()
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

// playTrace animates the events on the terminal f, redrawing each frame over
// the last one, until the search ends, --limit is reached or ctx is
// cancelled (Ctrl-C), which is a clean stop, not a failure.
func playTrace(ctx context.Context, f *os.File, msg io.Writer, name string, n int, seq iter.Seq[classic.Event], o traceOptions) error {
	const hideCursor, showCursor = "\x1b[?25l", "\x1b[?25h"
	fmt.Fprint(f, hideCursor)
	defer fmt.Fprint(f, showCursor)
	tick := time.NewTicker(time.Duration(float64(time.Second) / o.speed))
	defer tick.Stop()
	header := fmt.Sprintf("%s on %d×%d at %g events/s (Ctrl-C stops): %s\n", name, n, n, o.speed, traceLegend)
	lines := 0
	count, shown := 0, 0
	interrupted := false
	var last classic.Event
	draw := func(e classic.Event) {
		frame := header + drawEvent(e)
		if lines > 0 {
			// Back to the top of the previous frame, and clear it.
			fmt.Fprintf(f, "\x1b[%dF\x1b[J", lines)
		}
		fmt.Fprint(f, frame)
		lines = strings.Count(frame, "\n")
	}
	for e := range seq {
		count++
		last = e
		if count%o.every == 0 || count == o.limit {
			if shown > 0 {
				select {
				case <-ctx.Done():
					interrupted = true
				case <-tick.C:
				}
				if interrupted {
					break
				}
			}
			draw(e)
			shown++
		}
		if count == o.limit {
			break
		}
	}
	if count > 0 && last.Step != uint64(shown*o.every) && !interrupted && ctx.Err() == nil {
		draw(last) // the final board, when --every skipped it
	}
	if interrupted || ctx.Err() != nil {
		fmt.Fprintf(msg, "nqueens: trace stopped after %d events\n", count)
	}
	return nil
}
