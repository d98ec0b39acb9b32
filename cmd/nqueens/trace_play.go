package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/i18n"
	"golang.org/x/term"
)

// terminal is where --play draws: the writer and its size, read again for
// every frame so that a resized window is followed.
type terminal struct {
	w    io.Writer
	size func() (width, height int)
}

// playTerminal checks that out is a terminal on which the n×n board fits.
func playTerminal(out io.Writer, n int) (terminal, error) {
	f, isFile := out.(*os.File)
	if !isFile || !term.IsTerminal(int(f.Fd())) {
		return terminal{}, usageT("cli.play.noterm", nil)
	}
	size := func() (int, int) {
		w, h, err := term.GetSize(int(f.Fd()))
		if err != nil || w <= 0 || h <= 0 {
			return 80, 24 // what a terminal that cannot say is likely to be
		}
		return w, h
	}
	if w, h := size(); n > w || n+minFrameLines > h {
		return terminal{}, usageT("cli.play.small", i18n.Args{"N": n, "Lines": n + minFrameLines, "W": w, "H": h})
	}
	return terminal{w: f, size: size}, nil
}

// minFrameLines is how many lines a frame takes beside the board's rows, at
// the least: the header, the step and the counters.
const minFrameLines = 3

// playFrame lays out one frame of --play for a terminal width columns wide:
// the header, the step and the counters are wrapped at spaces, the board
// drawn with spaced cells when they fit and cut to the width when even
// unspaced cells do not. Every line fits the width, so the frame takes
// exactly len(lines) rows of the terminal and the next frame can be drawn
// over it.
func playFrame(p *i18n.Printer, header string, e classic.Event, width int) []string {
	lines := wrap(header, width)
	lines = append(lines, wrap(stepLine(p, e), width)...)
	n := len(e.Queens)
	for _, row := range boardRows(e, 2*n-1 <= width) {
		if len(row) > width {
			row = row[:width] // only on a terminal shrunk while playing
		}
		lines = append(lines, row)
	}
	return append(lines, wrap(e.Counters.String(), width)...)
}

// wrap breaks s into lines of at most width characters, at spaces where it
// can.
func wrap(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for displayWidth(word) > width { // a word longer than a line (or Chinese, without spaces)
			if line != "" {
				lines, line = append(lines, line), ""
			}
			cut := cutAt(word, width)
			lines, word = append(lines, word[:cut]), word[cut:]
		}
		switch {
		case line == "":
			line = word
		case displayWidth(line)+1+displayWidth(word) <= width:
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// cutAt is the byte offset where s passes k columns of a terminal (a
// Chinese character takes two); never 0 for a non-empty s, so that a cut
// always makes progress.
func cutAt(s string, k int) int {
	for i, r := range s {
		w := displayWidth(string(r))
		if w > k {
			if i == 0 {
				return len(string(r))
			}
			return i
		}
		k -= w
	}
	return len(s)
}

// fitFrame is the frame of e that fits a terminal of width×height: the
// whole header, sentence and counters when they fit; else the title alone,
// without the legend; else the sentence and the counters cut to a line
// each. The title stays the first line (it scrolled away for N ≥ 19 on 80×24).
// playTerminal has checked that n + minFrameLines lines fit.
func fitFrame(p *i18n.Printer, title string, e classic.Event, width, height int) []string {
	frame := playFrame(p, title+": "+traceLegend(p), e, width)
	if len(frame) <= height {
		return frame
	}
	if frame = playFrame(p, title, e, width); len(frame) <= height {
		return frame
	}
	one := func(s string) string {
		if displayWidth(s) <= width {
			return s
		}
		return s[:cutAt(s, max(width-1, 0))] + "…"
	}
	lines := []string{one(title), one(stepLine(p, e))}
	n := len(e.Queens)
	for _, row := range boardRows(e, 2*n-1 <= width) {
		lines = append(lines, one(row))
	}
	return append(lines, one(countersLine(p, e.Counters)))
}

// playTrace animates the events on the terminal, redrawing each frame over
// the last one, until the search ends, --limit is reached or ctx is
// cancelled (Ctrl-C: interrupted, naming the step shown, exit 130 as for
// every command).
func playTrace(ctx context.Context, p *i18n.Printer, t terminal, name string, n int, seq iter.Seq2[classic.Event, error], o *traceOptions) error {
	const hideCursor, showCursor = "\x1b[?25l", "\x1b[?25h"
	fmt.Fprint(t.w, hideCursor)
	defer fmt.Fprint(t.w, showCursor)
	tick := time.NewTicker(time.Duration(float64(time.Second) / o.speed))
	defer tick.Stop()
	title := p.T("cli.play.title", i18n.Args{"Algo": name, "N": n, "Speed": strconv.FormatFloat(o.speed, 'g', -1, 64), "Key": "Ctrl-C"})
	lines := 0
	count, shown := 0, 0
	interrupted := false
	var last, drawn classic.Event
	draw := func(e classic.Event) {
		width, height := t.size()
		frame := fitFrame(p, title, e, width, height)
		drawn = e
		if lines > 0 {
			// Back to the top of the previous frame, and clear it.
			fmt.Fprintf(t.w, "\x1b[%dF\x1b[J", lines)
		}
		fmt.Fprint(t.w, strings.Join(frame, "\n")+"\n")
		lines = len(frame)
	}
	for e, err := range seq {
		if err != nil {
			if err = traceError(err); err != nil {
				return err
			}
			break
		}
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
		// The step on the screen: the search may have gone one further.
		return interruptedT("cli.trace.stoppedat", i18n.Args{"Step": strconv.FormatUint(drawn.Step, 10)})
	}
	return nil
}
