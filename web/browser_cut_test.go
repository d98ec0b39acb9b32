package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestPageStreamCutOff runs the page against a server whose event
// streams are cut off after 50 ms: the watch panel says so and plays the
// steps it received, and the count panel connects again and again to follow
// its job until it is cancelled.
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
	b.do("count 18", chromedp.SetValue(chromedp.ID("count-n"), "18"), chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("progress", `document.getElementById('count').dataset.state === 'running' && document.getElementById('count-progress').value > 0`, 20*time.Second)
	// Many stream lifetimes later the page still follows the job.
	time.Sleep(500 * time.Millisecond)
	done := eval[float64](b, `document.getElementById('count-progress').value`)
	b.waitJS("more progress", fmt.Sprintf(`document.getElementById('count-progress').value > %v`, done), 20*time.Second)
	if st := eval[string](b, `document.getElementById('count').dataset.state`); st != "running" {
		b.t.Fatalf("after many 50 ms streams the count panel is %s: %s", st, b.text("count-status"))
	}
	b.do("cancel", chromedp.Click(chromedp.ID("count-cancel")))
	b.waitJS("the cancellation", `document.getElementById('count').dataset.state === 'cancelled'`, 20*time.Second)
}

// TestPageServerDown stops the server under the page: a banner says so, the
// page keeps asking, and the banner goes when the server answers again.
func TestPageServerDown(t *testing.T) {
	b := newBrowser(t, Config{})
	b.visit("/?panel=gallery&n=6")
	b.waitJS("the gallery", `document.querySelectorAll('.thumb').length === 4`, 20*time.Second)
	if !eval[bool](b, `document.getElementById('banner').hidden`) {
		b.t.Fatal("the banner shows while the server answers")
	}
	b.log.down.Store(true)
	b.do("show the gallery of 5", chromedp.SetValue(chromedp.ID("gallery-n"), "5"), chromedp.Click(chromedp.ID("gallery-show")))
	b.waitJS("the banner", `!document.getElementById('banner').hidden`, 10*time.Second)
	if s := b.text("banner"); !strings.Contains(s, "does not answer") {
		b.t.Fatalf("banner %q", s)
	}
	if s := b.text("gallery-summary"); !strings.Contains(s, "does not answer") {
		b.t.Fatalf("the gallery says %q", s)
	}
	b.screenshot("server-down")
	before := b.log.len()
	b.log.down.Store(false)
	b.waitJS("the banner to go", `document.getElementById('banner').hidden`, 10*time.Second)
	if got := b.log.since(before); len(got) == 0 || got[0] != "GET /api/limits" {
		b.t.Fatalf("after the server came back the page asked %q", got)
	}
}
