package web

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
)

// holdCount holds one unit in the middle of N's units until the test ends
// (or calls Release), so that a count the page starts is still running,
// with progress shown, whatever the engine's speed: the tests below need a
// count that is under way, not one that takes a guessed time.
func holdCount(t testing.TB, n int) *faults.Hold {
	h := faults.HoldUnit(n, count.Units(n)/2)
	t.Cleanup(h.Release)
	return h
}

// TestPageStreamCutOff runs the page against a server whose event
// streams are cut off after 50 ms: the watch panel says so and plays the
// steps it received, and the count panel connects again and again to follow
// its job (held at one unit meanwhile) to its end.
func TestPageStreamCutOff(t *testing.T) {
	b := newBrowser(t, Config{StreamTimeout: 50 * time.Millisecond, MaxCountN: 18, CountWorkers: 1})

	b.visit("/?n=20")
	b.waitJS("the cut-off stream", `document.getElementById('watch-status').className.includes('error')`, 20*time.Second)
	if s := b.text("watch-status"); !strings.Contains(s, "the trace ran past the stream time limit (50ms) after") {
		b.t.Fatalf("status %q", s)
	}
	received := eval[int](b, `Number(document.getElementById('watch-timeline').max)`)
	if received == 0 || received >= 100000 {
		b.t.Fatalf("%d steps received", received)
	}
	b.do("press End", chromedp.KeyEvent(kb.End))
	if st := eval[string](b, `document.getElementById('watch').dataset.state`); st != "end" || shownStep(b) != received {
		b.t.Fatalf("after End: state %s at step %d of %d", st, shownStep(b), received)
	}

	b.open("count")
	hold := holdCount(b.t, 18)
	b.do("count 18", chromedp.SetValue(chromedp.ID("count-n"), "18"), chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("progress", `document.getElementById('count').dataset.state === 'running' && document.getElementById('count-progress').value > 0`, 20*time.Second)
	testkit.Receive(b.t, "the count to come to its held unit", hold.Reached())
	// Many stream lifetimes later, the count held, the page still follows
	// the job...
	time.Sleep(500 * time.Millisecond) // ten lifetimes of a stream (50 ms) on the wall clock, which cuts them
	if st := eval[string](b, `document.getElementById('count').dataset.state`); st != "running" {
		b.t.Fatalf("after many 50 ms streams the count panel is %s: %s", st, b.text("count-status"))
	}
	// ...and sees it finish once the unit goes.
	hold.Release()
	b.waitJS("the end of the count", `document.getElementById('count').dataset.state === 'done'`, 20*time.Second)
	if row, ok, err := reference.Get(18); err != nil || !ok || b.number("count-total") != row.Total.Uint64() {
		b.t.Fatalf("after following the job over many streams the page shows %d solutions of 18 queens; published: %v (%v)", b.number("count-total"), row.Total, err)
	}
}

// TestPageServerDown stops the server under the page while it plays a
// search and counts: the banner says so within 2 seconds (the page's
// heartbeat), the loaded search plays on, the count says that it stopped and
// how far it got, and offers to count again; when the server answers again
// the banner goes and Retry counts.
func TestPageServerDown(t *testing.T) {
	b := newBrowser(t, Config{MaxCountN: 18, CountWorkers: 1})
	holdCount(t, 18)
	b.visit("/?panel=count&n=18")
	b.do("count 18", chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("progress", `document.getElementById('count').dataset.state === 'running' && document.getElementById('count-progress').value > 0`, 20*time.Second)
	b.open("watch")
	b.do("load 8 queens", chromedp.SetValue(chromedp.ID("watch-n"), "8"), chromedp.Click(chromedp.CSS(`#watch-form button[type=submit]`)))
	b.waitTrace()
	setSpeed(b, 30) // about 10 steps a second
	b.do("play", chromedp.Click(chromedp.ID("watch-play")))
	b.waitJS("play", `Number(document.getElementById('watch-timeline').value) > 2`, 10*time.Second)
	if !eval[bool](b, `document.getElementById('banner').hidden`) {
		b.t.Fatal("the banner shows while the server answers")
	}
	b.do("watch the banner", chromedp.Evaluate[chromedp.Void](`window.bannerAt = 0;
		new MutationObserver(() => { if (!document.getElementById('banner').hidden && !window.bannerAt) window.bannerAt = Date.now(); })
			.observe(document.getElementById('banner'), {attributes: true})`))

	down := time.Now()
	b.log.down.Store(true)
	b.ts.CloseClientConnections()
	b.waitJS("the banner", `window.bannerAt > 0`, 10*time.Second)
	after := time.UnixMilli(int64(eval[float64](b, `window.bannerAt`))).Sub(down)
	b.t.Logf("the banner came %v after the server went", after)
	if after > 2*time.Second {
		b.t.Errorf("the banner came %v after the server went, want within 2 s", after)
	}
	if s := b.text("banner"); !strings.Contains(s, "does not answer") || !strings.Contains(s, "stays playable") {
		b.t.Fatalf("banner %q", s)
	}
	// The search plays on.
	at := shownStep(b)
	b.waitJS("more steps", fmt.Sprintf(`Number(document.getElementById('watch-timeline').value) > %d`, at+2), 10*time.Second)
	b.screenshot("server-down")
	b.do("pause", chromedp.Click(chromedp.ID("watch-play")))

	// A panel's request while the server is gone says why it has no answer.
	b.open("gallery")
	b.do("show the gallery of 5", chromedp.SetValue(chromedp.ID("gallery-n"), "5"), chromedp.Click(chromedp.ID("gallery-show")))
	b.waitJS("the gallery's message", `document.getElementById('gallery-summary').textContent.includes('does not answer')`, 10*time.Second)

	b.open("count")
	b.waitJS("the count stopped", `document.getElementById('count').dataset.state === 'stopped'`, 10*time.Second)
	if s := b.text("count-status"); !regexp.MustCompile(`stopped after [\d,]+ of [\d,]+ work units`).MatchString(s) {
		b.t.Fatalf("the count says %q", s)
	}
	if !eval[bool](b, `document.getElementById('count-retry').checkVisibility()`) {
		b.t.Fatal("no Retry button")
	}

	b.log.down.Store(false)
	b.waitJS("the banner to go", `document.getElementById('banner').hidden`, 10*time.Second)
	b.do("retry", chromedp.Click(chromedp.ID("count-retry")))
	b.waitJS("the count again", `document.getElementById('count').dataset.state === 'running' && document.getElementById('count-progress').value > 0`, 20*time.Second)
	b.do("cancel", chromedp.Click(chromedp.ID("count-cancel")))
	b.waitJS("the cancellation", `document.getElementById('count').dataset.state === 'cancelled'`, 20*time.Second)
	if errs := b.pageErrors(); len(errs) > 0 {
		t.Errorf("the page threw: %q", errs)
	}
}
