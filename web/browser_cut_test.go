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
// streams are cut off after 50 ms: the board view says so and plays the
// steps it received, and the count panel connects again and again to follow
// its job until it is cancelled.
func TestPageStreamCutOff(t *testing.T) {
	b := newBrowser(t, Config{StreamTimeout: 50 * time.Millisecond, MaxCountN: 18, CountWorkers: 1})

	b.open("board")
	b.do("load 20 queens", chromedp.SetValue(chromedp.ID("trace-n"), "20"), chromedp.Click(chromedp.CSS("#trace-form button[type=submit]")))
	b.waitJS("the cut-off stream", `!trace.loading && trace.n === 20`, 20*time.Second)
	if s, cls := b.text("trace-status"), eval[string](b, `document.getElementById('trace-status').className`); !strings.Contains(s, "the trace ran past the stream time limit (50ms) after") || !strings.Contains(cls, "error") {
		b.t.Fatalf("status %q (class %q)", s, cls)
	}
	received := eval[int](b, `trace.events.length`)
	if received == 0 || received >= 100000 {
		b.t.Fatalf("%d steps received", received)
	}
	b.do("press End", chromedp.KeyEvent(kb.End))
	if st := eval[string](b, `document.getElementById('board').dataset.state`); st != "end" || eval[int](b, `trace.pos`) != received-1 {
		b.t.Fatalf("after End: state %s at step %d of %d", st, eval[int](b, `trace.pos`)+1, received)
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
