package web

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core (MPL-2.0, Deque Systems), vendored from npm's
// axe-core 4.14.1 so that the test fetches nothing.
const axeSource = "browser-axe.min.js"

// axeViolation is one failed rule of an axe-core run.
type axeViolation struct {
	ID    string
	Help  string
	Nodes []string
}

// checkAxe runs axe-core's WCAG 2.1 A and AA rules on the page as shown and
// fails on any violation.
func checkAxe(b *browser, what string) {
	b.t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", axeSource))
	if err != nil {
		b.t.Fatal(err)
	}
	// Runtime.evaluate is not bound by the page's Content-Security-Policy.
	b.do("load axe-core", chromedp.Evaluate[chromedp.Void](string(src)+"\n;undefined"))
	vs, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}).then((r) =>
		r.violations.map((v) => ({ID: v.id, Help: v.help, Nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary)})))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("axe on %s: %v", what, err)
	}
	for _, v := range vs {
		b.t.Errorf("axe on %s: %s (%s): %s", what, v.ID, v.Help, strings.Join(v.Nodes, "; "))
	}
}

// testAxe checks every panel with axe-core, the watch panel mid-search.
func testAxe(b *browser) {
	b.visit("/?n=8&algo=backtrack-flags&step=133")
	b.waitJS("step 133", `Number(document.getElementById('watch-timeline').value) === 133`, 20*time.Second)
	checkAxe(b, "the watch panel")
	b.viewport(390, 844)
	b.visit("/?n=12&algo=bitmask&step=500")
	b.waitJS("step 500", `Number(document.getElementById('watch-timeline').value) === 500`, 20*time.Second)
	checkAxe(b, "the watch panel at 390 px")
	b.viewport(1280, 900)
	for _, panel := range []string{"complete", "gallery", "count", "huge"} {
		b.open(panel)
		time.Sleep(300 * time.Millisecond) // the panel's first requests render after "ready"; no event marks their end
		checkAxe(b, fmt.Sprintf("the %s panel", panel))
	}
}
