package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
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
	p     *i18n.Printer // of the words; nil for English
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
func newProgressView(w io.Writer, p *i18n.Printer, label, unit string, quiet bool) *progressView {
	v := &progressView{w: w, p: p, label: label, unit: unit, quiet: quiet, start: time.Now(),
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
	d, ok := v.etaTime(p)
	if !ok {
		return "?"
	}
	return dur(d).Localize(v.printer())
}

// etaPart is "ETA 35s" in the view's language.
func (v *progressView) etaPart(p progressState) string {
	return v.printer().T("cli.progress.eta", i18n.Args{"Time": v.eta(p)})
}

// etaTime is the time eta says, if it can say one.
func (v *progressView) etaTime(p progressState) (time.Duration, bool) {
	doneHere := p.Done - p.Resumed
	if doneHere <= 0 || p.Elapsed <= 0 || p.Units <= 0 {
		return 0, false
	}
	v.mu.Lock()
	est := v.estNodes
	v.mu.Unlock()
	if nodes := p.Nodes.Float64(); est > 0 && nodes > 0 {
		left := est - nodes
		if left > 0 {
			return time.Duration(float64(p.Elapsed) / nodes * left), true
		}
	}
	left := p.Units - p.Done
	return time.Duration(float64(p.Elapsed) / float64(doneHere) * float64(left)), true
}

// rate is nodes per second for a job that counts nodes, else its own unit
// per second, in human units: 3.14G nodes/s, 255 MB/s (it said 2.55e+08
// bytes/s).
func (v *progressView) rate(p progressState) string {
	if p.Elapsed <= 0 {
		return "?"
	}
	if v.countsNodes(p) {
		return rateIn(v.printer(), p.Nodes.Float64()/p.Elapsed.Seconds(), "nodes")
	}
	return rateIn(v.printer(), float64(p.Done-p.Resumed)/p.Elapsed.Seconds(), v.unit)
}

// countsNodes reports whether the rate is of nodes rather than of the
// view's own unit.
func (v *progressView) countsNodes(p progressState) bool {
	return p.Nodes != (count.Uint128{}) || v.unit == "units"
}

// printer is the printer of the view's words.
func (v *progressView) printer() *i18n.Printer {
	if v.p == nil {
		return i18n.For(i18n.English)
	}
	return v.p
}

// barRate is rate without the unit's name when it is the counters' own
// (942k/s beside 1.9M/14.8M solutions), for the room of the bar.
func (v *progressView) barRate(p progressState) string {
	if p.Elapsed <= 0 || v.countsNodes(p) {
		return v.rate(p)
	}
	x := float64(p.Done-p.Resumed) / p.Elapsed.Seconds()
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return "?/s"
	}
	return sig3(x, v.unit == "bytes").format(x, true) + "/s"
}

// line is the status line of p.
func (v *progressView) line(p progressState) string {
	pr := v.printer()
	var s string
	if p.Units > 0 {
		amount := v.amount(fmt.Sprintf("%d/%d", p.Done, p.Units))
		if v.unit == "bytes" {
			amount = v.counters(p) // 29.8/78.9 MB, not 29753344/78888897 B
		}
		s = pr.T("cli.progress.line", i18n.Args{"Label": v.label, "Amount": amount,
			"Pct": fmt.Sprintf("%.1f", 100*float64(p.Done)/float64(p.Units)), "Rate": v.rate(p), "ETA": v.etaPart(p)})
	} else {
		s = pr.T("cli.progress.line.open", i18n.Args{"Label": v.label, "Amount": v.amount(strconv.Itoa(p.Done)), "Rate": v.rate(p)})
	}
	if p.Note != "" {
		s = pr.T("cli.progress.note", i18n.Args{"Line": s, "Note": p.Note})
	}
	return "nqueens: " + s
}

// counters writes done of all (or done alone when all is unknown) for the
// bar, both in the scale of the larger: 1.9M/95.8M solutions, 121/259 MB
// (it mixed 1883461/95.8M, and wrote bytes as 259M bytes).
func (v *progressView) counters(p progressState) string {
	sc := scaleOf(float64(max(p.Units, p.Done)), v.unit == "bytes")
	s := sc.format(float64(p.Done), true)
	if p.Units > 0 {
		// Bytes carry their unit once (121/259 MB), numbers their suffix
		// on both (1.9M/95.8M).
		s = sc.format(float64(p.Done), v.unit != "bytes") + "/" + sc.format(float64(p.Units), true)
	}
	return v.amount(s)
}

// amount is s, a number or done/all, with the view's unit: "4042/4159
// units", "4042/4159 个单元"; bytes have theirs in s already (121/259 MB).
func (v *progressView) amount(s string) string {
	if v.unit == "bytes" {
		if strings.HasSuffix(s, "B") {
			return s
		}
		return s + " B"
	}
	return v.printer().T(unitKeys[v.unit][0], i18n.Args{"V": s})
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
	b := &barView{p: p, v: v}
	// The decorators read the view's state, never the bar's: they run on
	// mpb's goroutine while the job reports on its own. The left one lays
	// out the whole line for the terminal's width, which it is given, and
	// leaves the right side to the right one, drawn next.
	var right string
	left := decor.Any(func(st decor.Statistics) string {
		var l string
		l, right = v.layout(st.AvailableWidth, v.state())
		return l
	})
	rest := decor.Any(func(decor.Statistics) string { return right })
	// Total 0: mpb then lets set and complete the total (see end).
	b.bar = p.AddBar(0, mpb.PrependDecorators(left), mpb.AppendDecorators(rest))
	if v.lock != nil {
		v.lock.divert(p)
	}
	b.set(first)
	return b
}

// minBar is the room the bar keeps on its line, brackets and the spaces
// around it included: on an 80-column terminal mpb squeezed it to [>--],
// and dropped it, with the space before the percentage, when the label
// was long.
const minBar = 20

// layout is the bar's line at width columns: on the left the label and
// the counters, on the right the percentage, the rate, the ETA and the
// note, which give way in that order when the line is too long for a bar
// of minBar: the note is cut, then the label, then the rate and the ETA
// go.
func (v *progressView) layout(width int, p progressState) (left, right string) {
	label, counters := v.label, v.counters(p)
	var parts []string // of the right side, in the order they give way
	if p.Units > 0 {
		parts = append(parts, fmt.Sprintf("%d %%", 100*p.Done/max(p.Units, 1)))
	}
	parts = append(parts, v.barRate(p))
	if p.Units > 0 {
		parts = append(parts, v.etaPart(p))
	}
	note := p.Note
	room := width - minBar
	size := func() int {
		n := displayWidth(label) + 1 + displayWidth(counters) + displayWidth(strings.Join(parts, "  "))
		if note != "" {
			n += 2 + displayWidth(note)
		}
		return n
	}
	if over := size() - room; over > 0 && note != "" {
		note = cut(note, len([]rune(note))-over)
	}
	if over := size() - room; over > 0 {
		label = cut(label, max(8, len([]rune(label))-over))
	}
	for size() > room && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	right = strings.Join(parts, "  ")
	if note != "" {
		right += "  " + note
	}
	return label + " " + counters, right
}

// cut shortens s to n runes, the last an ellipsis; "" when n < 2.
func cut(s string, n int) string {
	r := []rune(s)
	switch {
	case len(r) <= n:
		return s
	case n < 2:
		return ""
	}
	return string(r[:n-1]) + "…"
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
