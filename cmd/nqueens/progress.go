package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// progressState is what every long job reports: count, a shard, the
// coordinator, list, solve --random, complete --count, merge.
type progressState struct {
	Done, Units int           // finished work (resumed included) of all; Units 0 if unknown
	Resumed     int           // of Done, finished before this run
	Nodes       count.Uint128 // nodes searched in this run, when the job counts them
	Elapsed     time.Duration // of this run; 0: the view's own clock
	Note        string        // appended to status lines (workers, alarms)
}

func fromCount(p count.Progress) progressState {
	return progressState{Done: p.UnitsDone, Units: p.Units, Resumed: p.Resumed, Nodes: p.Nodes, Elapsed: p.Elapsed}
}

// progressView shows a job's progress on stderr: on a terminal a bar (done
// of all, rate, ETA) once the job has run barAfter, else (and on a
// terminal of no size) a plain status
// line every statusEvery once it has run linesAfter. It redraws on its own
// clock, so a job that reports rarely (or is stuck on one big unit) still
// shows it is alive. Quiet views show nothing.
//
// While the bar is drawn, everything else written to stderr through the
// command's lockedWriter goes above the bar.
type progressView struct {
	label string
	unit  string // what Done counts: "units", "queens", "solutions", "bytes"

	w     io.Writer     // stderr as the command has it
	tty   *os.File      // the terminal behind w, nil if none
	lock  *lockedWriter // w, when it is one: diverted above the bar
	quiet bool
	start time.Time

	mu       sync.Mutex
	last     progressState
	reported bool    // update was called: before, there is nothing to show
	estNodes float64 // estimated nodes of the units this run counts, 0 if unknown

	stop       chan struct{} // closed by finish
	done       chan struct{} // closed when the loop has ended
	once       sync.Once
	finishedOK bool // set by finish before it closes stop
}

// statusEvery is the gap between status lines when stderr is not a
// terminal; barAfter and linesAfter are how long a job runs before its
// progress shows, so that short jobs print nothing but their result; tick
// is how often the view looks at the job. Tests shorten them.
var (
	statusEvery = 5 * time.Second
	barAfter    = time.Second
	linesAfter  = 2 * time.Second
	tick        = 100 * time.Millisecond
)

// newProgressView starts the view of a job on w, which counts its work in
// unit.
func newProgressView(w io.Writer, label, unit string, quiet bool) *progressView {
	v := &progressView{w: w, label: label, unit: unit, quiet: quiet, start: time.Now(),
		stop: make(chan struct{}), done: make(chan struct{})}
	v.tty, v.lock = terminalOf(w)
	if v.tty != nil {
		// A terminal that says it has no columns (script(1) run without
		// a terminal of its own, some CI runners) shows none of mpb's
		// bar, which it cuts to that size: status lines instead.
		if cols, rows, err := term.GetSize(int(v.tty.Fd())); err != nil || cols <= 0 || rows <= 0 {
			v.tty = nil
		}
	}
	if quiet {
		close(v.done)
		return v
	}
	go v.loop()
	return v
}

// state is the last reported state, with the view's clock when the job
// gives no time of its own.
func (v *progressView) state() progressState {
	v.mu.Lock()
	p := v.last
	v.mu.Unlock()
	if p.Elapsed <= 0 {
		p.Elapsed = time.Since(v.start)
	}
	return p
}

// update records the job's progress; it never blocks on the display.
func (v *progressView) update(p progressState) {
	v.mu.Lock()
	v.last, v.reported = p, true
	v.mu.Unlock()
}

func (v *progressView) updateCount(p count.Progress) { v.update(fromCount(p)) }

// setEstimate gives the estimated nodes of the whole run, for the ETA.
func (v *progressView) setEstimate(nodes float64) {
	v.mu.Lock()
	v.estNodes = nodes
	v.mu.Unlock()
}

// loop draws the bar or writes the status lines until finish.
func (v *progressView) loop() {
	defer close(v.done)
	t := time.NewTicker(tick)
	defer t.Stop()
	var b *barView
	var lastLine time.Time
	for {
		select {
		case <-v.stop:
			if b != nil {
				b.end(v.state(), v.finishedOK)
			}
			return
		case <-t.C:
		}
		since := time.Since(v.start)
		v.mu.Lock()
		reported := v.reported
		v.mu.Unlock()
		switch {
		case !reported:
		case v.tty != nil && b == nil && since >= barAfter:
			b = v.newBar()
		case v.tty != nil && b != nil:
			b.set(v.state())
		case v.tty == nil && since >= linesAfter && time.Since(lastLine) >= statusEvery:
			lastLine = time.Now()
			fmt.Fprintln(v.w, v.line(v.state()))
		}
	}
}

// finish stops the view; ok says whether the job completed (the bar is
// filled) or not (the bar is left where it was).
func (v *progressView) finish(ok bool) {
	v.once.Do(func() {
		v.finishedOK = ok
		close(v.stop)
	})
	<-v.done
}

// eta is computed from this run's rate only (resumed units excluded). Units
// differ in size by orders of magnitude, so when the run has an estimate of
// its nodes the ETA is remaining nodes over this run's node rate; otherwise
// it is remaining units over this run's unit rate.
func (v *progressView) eta(p progressState) string {
	doneHere := p.Done - p.Resumed
	if doneHere <= 0 || p.Elapsed <= 0 || p.Units <= 0 {
		return "?"
	}
	v.mu.Lock()
	est := v.estNodes
	v.mu.Unlock()
	if nodes := p.Nodes.Float64(); est > 0 && nodes > 0 {
		left := est - nodes
		if left > 0 {
			return formatDuration(time.Duration(float64(p.Elapsed) / nodes * left))
		}
	}
	left := p.Units - p.Done
	return formatDuration(time.Duration(float64(p.Elapsed) / float64(doneHere) * float64(left)))
}

// rate is nodes per second for a job that counts nodes, else its own unit
// per second.
func (v *progressView) rate(p progressState) string {
	if p.Elapsed <= 0 {
		return "?"
	}
	if p.Nodes != (count.Uint128{}) || v.unit == "units" {
		return fmt.Sprintf("%.3g nodes/s", p.Nodes.Float64()/p.Elapsed.Seconds())
	}
	return fmt.Sprintf("%.3g %s/s", float64(p.Done-p.Resumed)/p.Elapsed.Seconds(), v.unit)
}

// line is the status line of p.
func (v *progressView) line(p progressState) string {
	var s string
	if p.Units > 0 {
		s = fmt.Sprintf("nqueens: %s: %d/%d %s (%.1f%%), %s, ETA %s", v.label, p.Done, p.Units, v.unit,
			100*float64(p.Done)/float64(p.Units), v.rate(p), v.eta(p))
	} else {
		s = fmt.Sprintf("nqueens: %s: %d %s, %s", v.label, p.Done, v.unit, v.rate(p))
	}
	if p.Note != "" {
		s += ", " + p.Note
	}
	return s
}

// short writes a number of the bar in at most 7 digits (3 significant
// ones from 10^7 on: 21M, 300M, 2.85G): the bar of 300 million queens lost
// its bar and its ETA to an 80-column terminal. Status lines keep every
// digit.
func (v *progressView) short(k int) string {
	if k < 10_000_000 {
		return strconv.Itoa(k)
	}
	x, suffix := float64(k), ""
	for _, s := range []string{"k", "M", "G", "T", "P", "E"} {
		if x < 999.5 {
			break
		}
		x, suffix = x/1000, s
	}
	return strconv.FormatFloat(x, 'g', 3, 64) + suffix
}

// barView is the mpb bar of a view on a terminal.
type barView struct {
	p   *mpb.Progress
	bar *mpb.Bar
	v   *progressView
}

func (v *progressView) newBar() *barView {
	p := mpb.New(mpb.WithOutput(v.tty), mpb.WithWidth(30), mpb.WithRefreshRate(tick))
	first := v.state()
	// The decorators read the view's state, never the bar's: they run on
	// mpb's goroutine while the job reports on its own.
	counters := decor.Any(func(decor.Statistics) string {
		p := v.state()
		if p.Units > 0 {
			return fmt.Sprintf("%s/%s %s", v.short(p.Done), v.short(p.Units), v.unit)
		}
		return fmt.Sprintf("%s %s", v.short(p.Done), v.unit)
	})
	rest := decor.Any(func(decor.Statistics) string {
		p := v.state()
		s := "  " + v.rate(p)
		if p.Units > 0 {
			s += "  ETA " + v.eta(p)
		}
		if p.Note != "" {
			s += "  " + p.Note
		}
		return s
	})
	// Total 0: mpb then lets set and complete the total (see end).
	b := &barView{p: p, v: v, bar: p.AddBar(0,
		mpb.PrependDecorators(decor.Name(v.label+" "), counters),
		mpb.AppendDecorators(decor.Percentage(), rest))}
	if v.lock != nil {
		v.lock.divert(p)
	}
	b.set(first)
	return b
}

func (b *barView) set(p progressState) {
	if p.Units > 0 {
		b.bar.SetTotal(int64(p.Units), false)
	}
	b.bar.SetCurrent(int64(p.Done))
}

// end fills the bar when ok, else leaves it as it is, and waits until mpb
// has drawn it for the last time; then stderr is written directly again.
func (b *barView) end(p progressState, ok bool) {
	b.set(p)
	if ok {
		b.bar.SetTotal(int64(max(p.Units, p.Done)), true)
	} else {
		b.bar.Abort(false)
	}
	if b.v.lock != nil {
		b.v.lock.undivert(b.p.Wait)
		return
	}
	b.p.Wait()
}
