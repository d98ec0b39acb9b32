package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// progressState is what count, a shard and the coordinator report alike.
type progressState struct {
	Done, Units int           // finished units (resumed ones included) of all
	Resumed     int           // of those, finished before this run
	Nodes       count.Uint128 // nodes of the units finished in this run
	Elapsed     time.Duration
	Note        string // appended to status lines (workers, alarms)
}

func fromCount(p count.Progress) progressState {
	return progressState{Done: p.UnitsDone, Units: p.Units, Resumed: p.Resumed, Nodes: p.Nodes, Elapsed: p.Elapsed}
}

// progressView shows progress on stderr: a bar on a terminal, else a
// status line every statusEvery once a run has lasted a couple of seconds.
// Quiet views show nothing.
type progressView struct {
	w        io.Writer
	label    string
	tty      bool
	quiet    bool
	estNodes float64 // estimated nodes of the units this run counts, 0 if unknown

	mu       sync.Mutex
	p        *mpb.Progress
	bar      *mpb.Bar
	last     progressState
	lastLine time.Time
}

// statusEvery is the gap between status lines when stderr is not a terminal.
var statusEvery = 5 * time.Second

// barAfter and linesAfter are how long a run goes before progress shows:
// short runs print nothing but their result.
const (
	barAfter   = time.Second
	linesAfter = 2 * time.Second
)

func newProgressView(w io.Writer, label string, quiet bool) *progressView {
	v := &progressView{w: w, label: label, quiet: quiet}
	v.tty = isTerminal(w)
	return v
}

// eta is computed from this run's rate only (resumed units excluded). Units
// differ in size by orders of magnitude, so when the run has an estimate of
// its nodes the ETA is remaining nodes over this run's node rate; otherwise
// it is remaining units over this run's unit rate.
func (v *progressView) eta(p progressState) string {
	doneHere := p.Done - p.Resumed
	if doneHere <= 0 || p.Elapsed <= 0 {
		return "?"
	}
	if nodes := p.Nodes.Float64(); v.estNodes > 0 && nodes > 0 {
		left := v.estNodes - nodes
		if left > 0 {
			return formatDuration(time.Duration(float64(p.Elapsed) / nodes * left))
		}
	}
	left := p.Units - p.Done
	return formatDuration(time.Duration(float64(p.Elapsed) / float64(doneHere) * float64(left)))
}

func rate(p progressState) string {
	if p.Elapsed <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.3g nodes/s", p.Nodes.Float64()/p.Elapsed.Seconds())
}

// line is the status line of p.
func (v *progressView) line(p progressState) string {
	s := fmt.Sprintf("nqueens: %s: %d/%d units (%.1f%%), %s, ETA %s", v.label, p.Done, p.Units,
		100*float64(p.Done)/float64(max(1, p.Units)), rate(p), v.eta(p))
	if p.Note != "" {
		s += ", " + p.Note
	}
	return s
}

func (v *progressView) update(p progressState) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.last = p
	if v.quiet {
		return
	}
	if v.tty {
		if v.p == nil {
			if p.Elapsed < barAfter {
				return
			}
			v.p = mpb.New(mpb.WithOutput(v.w), mpb.WithWidth(30))
			v.bar = v.p.AddBar(int64(p.Units),
				mpb.PrependDecorators(decor.Name(v.label+" "), decor.CountersNoUnit("%d/%d units")),
				mpb.AppendDecorators(decor.Percentage(), decor.Any(func(decor.Statistics) string {
					v.mu.Lock()
					defer v.mu.Unlock()
					s := "  " + rate(v.last) + "  ETA " + v.eta(v.last)
					if v.last.Note != "" {
						s += "  " + v.last.Note
					}
					return s
				})))
		}
		v.bar.SetCurrent(int64(p.Done))
		return
	}
	if p.Elapsed < linesAfter || time.Since(v.lastLine) < statusEvery {
		return
	}
	v.lastLine = time.Now()
	fmt.Fprintln(v.w, v.line(p))
}

func (v *progressView) updateCount(p count.Progress) { v.update(fromCount(p)) }

func (v *progressView) finish(ok bool) {
	v.mu.Lock()
	p, bar := v.p, v.bar
	v.mu.Unlock()
	if p == nil {
		return
	}
	if ok {
		bar.SetCurrent(int64(v.last.Units))
	} else {
		bar.Abort(false)
	}
	p.Wait()
}
