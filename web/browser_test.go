package web

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/complete"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/solve"
)

// The board panel's screenshot becomes docs/screenshot.png (shown by the
// README) with -update-screenshot or NQUEENS_UPDATE_SCREENSHOT=1.
var updateScreenshot = flag.Bool("update-screenshot", false, "rewrite docs/screenshot.png from the browser test")

// chromiumPath finds Debian's Chromium. Without it the browser tests skip,
// except in CI (the CI variable is set), where they must run.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed, and CI is set: the browser tests must run (scripts/test.sh installs it)")
	}
	t.Skip("chromium is not installed; the browser tests run in CI")
	return ""
}

// testOut is the folder for screenshots: $NQUEENS_TEST_OUT/web (CI sets
// it, for instance to testout/ at the repository root, which git ignores),
// or nqueens-testout/web in the system's temporary folder, overwritten by
// each run.
func testOut(t *testing.T) string {
	dir := os.Getenv("NQUEENS_TEST_OUT")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "nqueens-testout")
	}
	dir = filepath.Join(dir, "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// browser drives one headless Chromium tab against a fresh server.
type browser struct {
	t    *testing.T
	ctx  context.Context
	base string
	srv  *Server
	out  string
}

func newBrowser(t *testing.T, cfg Config) *browser {
	path := chromiumPath(t)
	s := newServer(t, cfg)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)

	// One bound for the whole browser session, so that a hung page fails
	// the test instead of hanging it.
	root, cancelRoot := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancelRoot)
	alloc, cancelAlloc := chromedp.NewExecAllocator(root,
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("font-render-hinting", "none"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	t.Cleanup(cancelCtx)
	return &browser{t: t, ctx: ctx, base: ts.URL, srv: s, out: testOut(t)}
}

// do runs actions, failing the test with what was being done.
func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval returns the value of a JavaScript expression.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitJS waits until a JavaScript condition holds.
func (b *browser) waitJS(what, cond string, d time.Duration) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(d), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting for %s (%s): %v", what, cond, err)
	}
}

func (b *browser) text(id string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
}

// number reads a counter shown with thousands separators.
func (b *browser) number(id string) uint64 {
	b.t.Helper()
	s := strings.ReplaceAll(b.text(id), ",", "")
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		b.t.Fatalf("#%s shows %q, not a number", id, s)
	}
	return v
}

// screenshot saves the whole page as name.png under the test output folder.
func (b *browser) screenshot(name string) []byte {
	b.t.Helper()
	return b.screenshotOf(name, chromedp.FullScreenshot(100))
}

// screenshotOf saves the picture that shot takes as name.png.
func (b *browser) screenshotOf(name string, shot chromedp.Action[[]byte]) []byte {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, shot)
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(b.out, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	return png
}

// open shows a panel and waits until it has started.
func (b *browser) open(panel string) {
	b.t.Helper()
	b.do("open "+panel, chromedp.Navigate(b.base+"/#"+panel))
	b.waitJS(panel+" panel", fmt.Sprintf(`document.body.dataset.ready === 'true' && document.getElementById(%q).dataset.ready === 'true' && !document.getElementById(%q).hidden`, panel, panel), 20*time.Second)
}

// TestBrowser loads the page in Chromium and uses every panel as a person
// would, checking what it shows against the libraries.
func TestBrowser(t *testing.T) {
	// N = 18 on one worker: a count that cannot end before the test cancels it.
	b := newBrowser(t, Config{MaxCountN: 18, CountWorkers: 1})
	for _, step := range []struct {
		name string
		run  func(*browser)
	}{
		{"board", testBoardPanel},
		{"gallery", testGalleryPanel},
		{"count", testCountPanel},
		{"huge", testHugePanel},
		{"complete", testCompletePanel},
		{"strategies", testStrategies},
		{"phone", testPhone}, // last: it changes the viewport
	} {
		t.Run(step.name, func(t *testing.T) {
			b.t = t
			step.run(b)
		})
	}
}

// testBoardPanel plays the 6-queens stack search to its end with the
// keyboard and checks the counters against those of the library's search,
// which `nqueens count 6 --algo stack --stats` prints; then steps back.
func testBoardPanel(b *browser) {
	b.open("board")
	b.waitJS("the 6-queens trace", `document.getElementById('trace-status').textContent.includes('the whole search')`, 20*time.Second)
	a, _ := classic.Lookup("stack")
	want, err := a.Solve(context.Background(), 6, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	steps := want.Tries + want.Backtracks + want.Solutions
	if got := b.text("trace-step"); got != fmt.Sprintf("Empty board (%s steps)", classic.Group(steps)) {
		b.t.Fatalf("before playing: %q", got)
	}
	// The page loads nothing from elsewhere.
	if foreign := eval[[]string](b, `performance.getEntriesByType('resource').map((e) => e.name).filter((u) => !u.startsWith(location.origin + '/'))`); len(foreign) > 0 {
		b.t.Fatalf("the page loaded %q", foreign)
	}

	// Space plays at a slow speed and pauses; the player then stays put.
	setSpeed := func(v int) {
		eval[bool](b, fmt.Sprintf(`(() => { const s = document.getElementById('speed'); s.value = %d; s.dispatchEvent(new Event('input')); return true; })()`, v))
	}
	setSpeed(40) // about 20 steps a second
	b.do("press space to play", chromedp.KeyEvent(" "))
	b.waitJS("a few steps played", `document.getElementById('board').dataset.state === 'playing' && trace.pos >= 3`, 20*time.Second)
	b.do("click pause", chromedp.Click(chromedp.ID("btn-play")))
	paused := b.text("trace-step")
	time.Sleep(200 * time.Millisecond)
	if st := eval[string](b, `document.getElementById('board').dataset.state`); st != "paused" || b.text("trace-step") != paused {
		b.t.Fatalf("after pausing at %q: state %s, step %q", paused, st, b.text("trace-step"))
	}
	if b.text("btn-play") != "▶ Play" {
		b.t.Fatalf("paused, the play button reads %q", b.text("btn-play"))
	}

	// Fastest speed, then space plays on to the end, also with the focus on
	// the play button, which must not take the key as a second click.
	setSpeed(100)
	b.do("focus the play button", chromedp.Focus(chromedp.ID("btn-play")))
	b.do("press space", chromedp.KeyEvent(" "))
	b.waitJS("playing", `document.getElementById('board').dataset.state !== 'paused'`, 5*time.Second)
	b.waitJS("the end of the search", `document.getElementById('board').dataset.state === 'end'`, 60*time.Second)
	want.Elapsed = 0
	if got := shownCounters(b); got != want {
		b.t.Fatalf("counters at the end: %+v, want %+v", got, want)
	}
	last := fmt.Sprintf("Step %s of %s:", classic.Group(steps), classic.Group(steps))
	if s := b.text("trace-step"); !strings.HasPrefix(s, last) {
		b.t.Fatalf("at the end the step reads %q, want %q…", s, last)
	}

	// Step back with the button and with the arrow key; forward again.
	b.do("click step back", chromedp.Click(chromedp.ID("btn-back")))
	if s := b.text("trace-step"); !strings.HasPrefix(s, fmt.Sprintf("Step %s of", classic.Group(steps-1))) {
		b.t.Fatalf("after one step back: %q", s)
	}
	b.do("press ← twice and → once", chromedp.KeyEvent(kb.ArrowLeft+kb.ArrowLeft+kb.ArrowRight))
	if s := b.text("trace-step"); !strings.HasPrefix(s, fmt.Sprintf("Step %s of", classic.Group(steps-2))) {
		b.t.Fatalf("after ← ← →: %q", s)
	}
	// The counters shown are those of that step of the search.
	var at classic.Counters
	seq, _ := a.(classic.Tracer).Trace(context.Background(), 6)
	for e := range seq {
		if e.Step == steps-2 {
			at = e.Counters
			break
		}
	}
	if b.number("c-placed") != at.Placed || b.number("c-rejected") != at.Rejected || b.number("c-backtracks") != at.Backtracks {
		b.t.Fatalf("counters at step %d do not match the search's %+v", steps-2, at)
	}
	b.do("press Home", chromedp.KeyEvent(kb.Home))
	if s := b.text("trace-step"); !strings.HasPrefix(s, "Empty board") {
		b.t.Fatalf("after Home: %q", s)
	}
	b.do("click step forward twice", chromedp.Click(chromedp.ID("btn-step")), chromedp.Click(chromedp.ID("btn-step")))
	if s := b.text("trace-step"); !strings.HasPrefix(s, "Step 2 of") {
		b.t.Fatalf("after two steps forward: %q", s)
	}
	b.do("click reset", chromedp.Click(chromedp.ID("btn-reset")))
	if s := b.text("trace-step"); !strings.HasPrefix(s, "Empty board") || b.number("c-placed") != 0 {
		b.t.Fatalf("after reset: %q, %d placed", s, b.number("c-placed"))
	}

	// A picture for the docs: 8 queens, a rejected try after 5 queens.
	showRejectedTry(b)
	checkTraceBoard(b, a.(classic.Tracer), 8)
	png := b.screenshot("board")
	if *updateScreenshot || os.Getenv("NQUEENS_UPDATE_SCREENSHOT") != "" {
		if err := os.WriteFile(filepath.Join("..", "docs", "screenshot.png"), png, 0o644); err != nil {
			b.t.Fatal(err)
		}
		b.t.Log("rewrote docs/screenshot.png")
	}
}

// showRejectedTry loads the stack search on 8 queens and shows a step that
// makes a good picture: a try rejected by a queen a few rows up, with five
// or more queens on the board, after the first solution.
func showRejectedTry(b *browser) {
	b.t.Helper()
	b.do("load 8 queens", chromedp.SetValue(chromedp.ID("trace-n"), "8"), chromedp.SetValue(chromedp.ID("trace-algo"), "stack"),
		chromedp.Click(chromedp.CSS("#trace-form button[type=submit]")))
	b.waitJS("the 8-queens trace", `document.getElementById('trace-status').textContent.startsWith('stack on 8×8')`, 20*time.Second)
	if !eval[bool](b, `(() => {
		trace.pos = trace.events.findIndex((e) => e.kind === 'reject' && e.counters.solutions >= 1 &&
			e.queens.filter((c) => c > 0).length >= 5 && e.by.row < e.row - 2);
		showTrace();
		return trace.pos > 0;
	})()`) {
		b.t.Fatal("the 8-queens search has no such rejected try")
	}
}

// shownCounters reads the counters beside the board.
func shownCounters(b *browser) classic.Counters {
	b.t.Helper()
	return classic.Counters{
		Placed: b.number("c-placed"), Rejected: b.number("c-rejected"), Backtracks: b.number("c-backtracks"),
		Solutions: b.number("c-solutions"), Nodes: b.number("c-nodes"), Tries: b.number("c-tries"),
	}
}

// testStrategies checks that the list offers every traceable strategy of
// the library, and that each, loaded on 6 queens and taken to its last step
// with End, shows the counters of the library's search, which `nqueens
// count 6 --algo NAME --stats` prints.
func testStrategies(b *browser) {
	b.open("board")
	var names []string
	for _, a := range classic.All() {
		if _, ok := a.(classic.Tracer); ok {
			names = append(names, a.Name())
		}
	}
	if got := eval[[]string](b, `[...document.querySelectorAll('#trace-algo option')].map((o) => o.value)`); !slices.Equal(got, names) {
		b.t.Fatalf("the strategy list offers %q, want the traceable strategies %q", got, names)
	}
	for _, name := range names {
		a, _ := classic.Lookup(name)
		want, err := a.Solve(context.Background(), 6, nil)
		if err != nil {
			b.t.Fatal(err)
		}
		want.Elapsed = 0
		b.do("load "+name, chromedp.SetValue(chromedp.ID("trace-n"), "6"), chromedp.SetValue(chromedp.ID("trace-algo"), name),
			chromedp.Click(chromedp.CSS("#trace-form button[type=submit]")))
		b.waitJS("the trace of "+name, fmt.Sprintf(`document.getElementById('trace-status').textContent.startsWith(%q)`, name+" on 6×6: the whole search"), 20*time.Second)
		b.do("press End", chromedp.KeyEvent(kb.End))
		if st := eval[string](b, `document.getElementById('board').dataset.state`); st != "end" {
			b.t.Fatalf("%s: after End the player is %s", name, st)
		}
		if got := shownCounters(b); got != want {
			b.t.Errorf("%s: counters at the end %+v, want %+v", name, got, want)
		}
	}
}

// checkTraceBoard compares the board the page shows for the step it is on
// with the library's event of that step: the queens, the stack beside the
// board, the shaded squares (those a queen of another row attacks, as
// board.Check sees it) and, for a rejected try, the two red squares.
func checkTraceBoard(b *browser, tr classic.Tracer, n int) {
	b.t.Helper()
	step := eval[uint64](b, `trace.events[trace.pos].step`)
	seq, err := tr.Trace(context.Background(), n)
	if err != nil {
		b.t.Fatal(err)
	}
	var e classic.Event
	for ev := range seq {
		if ev.Step == step {
			e = ev
			break
		}
	}
	if e.Step != step {
		b.t.Fatalf("the library's search has no step %d", step)
	}
	classes := eval[[]string](b, `[...document.querySelectorAll('#trace-board .cell')].map((c) => c.className)`)
	if len(classes) != n*n {
		b.t.Fatalf("the board has %d squares, want %d", len(classes), n*n)
	}
	var stack []string
	for r := range n {
		if e.Queens[r] != board.Empty {
			stack = append(stack, fmt.Sprintf("row %d, col %d", r+1, e.Queens[r]+1))
		}
		for c := range n {
			has := map[string]bool{}
			for _, cl := range strings.Fields(classes[r*n+c]) {
				has[cl] = true
			}
			at := fmt.Sprintf("step %d, square (%d, %d) with classes %q", step, r+1, c+1, classes[r*n+c])
			queen := int(e.Queens[r]) == c
			if has["queen"] != queen {
				b.t.Errorf("%s: queen shown %v, want %v", at, has["queen"], queen)
			}
			if !queen && has["attacked"] != attackedBy(e.Queens, r, c) {
				b.t.Errorf("%s: shaded %v, want %v", at, has["attacked"], !has["attacked"])
			}
			rejected := e.Kind == classic.Reject && r == e.Row && c == e.Col
			attacker := e.Kind == classic.Reject && r == e.By.Row && c == e.By.Col
			if has["rejected"] != rejected || has["attacker"] != attacker {
				b.t.Errorf("%s: want rejected %v, attacker %v", at, rejected, attacker)
			}
		}
	}
	got := eval[[]string](b, `[...document.querySelectorAll('#trace-stack li')].map((li) => li.textContent)`)
	if strings.Join(got, "; ") != strings.Join(stack, "; ") {
		b.t.Errorf("step %d: stack shown %q, want %q", step, got, stack)
	}
}

// attackedBy reports whether a queen of another row of q attacks square
// (r, c), as board.Check judges the board with the queen of row r moved
// there.
func attackedBy(q board.Placement, r, c int) bool {
	p := q.Clone()
	p[r] = int32(c)
	return board.Check(p) != nil
}

// testPhone checks that the page fits a phone-sized screen without sideways
// scrolling, in every panel.
func testPhone(b *browser) {
	b.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	for _, panel := range []string{"board", "gallery", "count", "huge", "complete"} {
		b.open(panel)
		if w := eval[int](b, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
			b.t.Errorf("%s panel is %d px wider than a 390 px phone screen", panel, w)
		}
	}
	b.open("board")
	showRejectedTry(b)
	b.screenshot("phone-board")
}

// testGalleryPanel shows the 92 solutions of 8 queens in 12 classes.
func testGalleryPanel(b *browser) {
	b.open("gallery")
	b.waitJS("the gallery", `document.querySelectorAll('.thumb').length > 0`, 20*time.Second)
	if s := b.text("gallery-summary"); !strings.Contains(s, "92 solutions of the 8×8 board in 12 symmetry classes") {
		b.t.Fatalf("summary %q", s)
	}
	if n := eval[int](b, `document.querySelectorAll('.thumb').length`); n != 92 {
		b.t.Fatalf("%d boards drawn, want 92", n)
	}
	if n := eval[int](b, `document.querySelectorAll('.thumb.canonical').length`); n != 12 {
		b.t.Fatalf("%d canonical boards, want 12", n)
	}
	b.screenshot("gallery")

	// Clicking the third board of the second class shows it large with its
	// 1-based list: the library's second class, third board of its orbit.
	var class board.Placement
	i := 0
	for p := range solve.Unique(8) {
		if i++; i == 2 {
			class = p
			break
		}
	}
	orbit, err := board.Orbit(class)
	if err != nil || len(orbit) < 3 {
		b.t.Fatalf("orbit of %v: %v", class, err)
	}
	b.do("click a board", chromedp.Click(chromedp.CSS(`#gallery-classes .class:nth-child(2) .thumb:nth-child(3)`)))
	b.waitJS("the large board", `document.getElementById('gallery-dialog').open && document.getElementById('gallery-dialog-img').complete && document.getElementById('gallery-dialog-img').naturalWidth > 0`, 20*time.Second)
	if got, want := b.text("gallery-dialog-list"), orbit[2].String(); got != want {
		b.t.Fatalf("the large view lists %q, want %q", got, want)
	}
	if h := b.text("gallery-dialog-title"); h != "Class 2" {
		b.t.Fatalf("the large view is titled %q", h)
	}
	b.screenshotOf("gallery-large", chromedp.Screenshot(chromedp.ID("gallery-dialog")))
	b.do("close with Escape", chromedp.KeyEvent(kb.Escape))
	b.waitJS("the dialog to close", `!document.getElementById('gallery-dialog').open`, 5*time.Second)
}

// testCountPanel counts 11 queens and checks the result against the
// published counts, then starts a long count and cancels it from the page,
// checking that the server's job stops.
func testCountPanel(b *browser) {
	b.open("count")
	const n = 11
	row, ok, err := reference.Get(n)
	if err != nil || !ok {
		b.t.Fatalf("no published count for %d: %v", n, err)
	}
	b.do("count 11", chromedp.SetValue(chromedp.ID("count-n"), strconv.Itoa(n)), chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("the count", `document.getElementById('count').dataset.state === 'done'`, 60*time.Second)
	if total, unique := b.number("count-total"), b.number("count-unique"); total != row.Total.Uint64() || unique != row.Unique.Uint64() {
		b.t.Fatalf("count %d shows %d solutions, %d classes; published: %s, %s", n, total, unique, row.Total, row.Unique)
	}
	if ref := b.text("count-reference"); !strings.HasPrefix(ref, "matches") {
		b.t.Fatalf("reference check %q", ref)
	}
	b.screenshot("count")

	b.do("count 18", chromedp.SetValue(chromedp.ID("count-n"), "18"), chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("live progress", `document.getElementById('count').dataset.state === 'running' && document.getElementById('count-progress').value > 0`, 20*time.Second)
	if s := b.text("count-status"); !strings.Contains(s, "work units") {
		b.t.Fatalf("status while counting: %q", s)
	}
	if eval[bool](b, `document.getElementById('count-result').checkVisibility()`) {
		b.t.Fatal("the result of the previous count is still shown while counting")
	}
	b.screenshot("count-running")
	b.do("cancel", chromedp.Click(chromedp.ID("count-cancel")))
	b.waitJS("the cancellation", `document.getElementById('count').dataset.state === 'cancelled'`, 20*time.Second)
	b.srv.counts.mu.Lock()
	var states []string
	for _, j := range b.srv.counts.jobs {
		if j.n == 18 {
			states = append(states, j.status().State)
		}
	}
	b.srv.counts.mu.Unlock()
	if len(states) != 1 || states[0] != stateCancelled {
		b.t.Fatalf("server-side count jobs for 18: %v, want one cancelled", states)
	}
	if s := b.text("count-status"); !strings.Contains(s, "Cancelled") {
		b.t.Fatalf("status after cancel: %q", s)
	}
}

// testHugePanel solves a random board of 10^6 queens, shows its density
// picture, and checks that the download link gives that same, valid board.
func testHugePanel(b *browser) {
	b.open("huge")
	b.do("solve 10^6 at random", chromedp.SetValue(chromedp.ID("huge-n"), "1000000"),
		chromedp.SetValue(chromedp.ID("huge-method"), "random"),
		chromedp.SetValue(chromedp.ID("huge-seed"), "7"),
		chromedp.Click(chromedp.CSS("#huge-form button[type=submit]")))
	b.waitJS("the picture", `document.getElementById('huge').dataset.state === 'done'`, 60*time.Second)
	if w := eval[int](b, `document.getElementById('huge-img').naturalWidth`); w < 500 || w > 1024 {
		b.t.Fatalf("picture is %d px wide", w)
	}
	href := eval[string](b, `document.getElementById('huge-dl-list').href`)
	res, err := http.Get(href)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	p, err := board.Parse(string(body), board.List)
	if err != nil || len(p) != 1_000_000 || board.Verify(p) != nil {
		b.t.Fatalf("downloaded board: %v, %d rows", err, len(p))
	}
	want, _ := solve.Random(context.Background(), 1_000_000, solve.RandomOptions{Seed: 7})
	if !p.Equal(want) {
		b.t.Fatal("the download is not the seed's board")
	}
	b.screenshot("huge")
}

// square is the selector of a square of the completion board, 1-based.
func square(r, c int) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`#complete-board .cell[data-row="%d"][data-col="%d"]`, r, c))
}

// completeAs sets the board size with the N field and Clear, clicks the
// queens and then the blocked squares, presses Complete and waits for the
// answer, returning the panel's state.
func completeAs(b *browser, n int, queens, blocked [][2]int) string {
	b.t.Helper()
	b.do("new board", chromedp.SetValue(chromedp.ID("complete-n"), strconv.Itoa(n)), chromedp.Click(chromedp.ID("complete-clear")))
	b.do("queen mode", chromedp.Click(chromedp.CSS(`input[name=complete-mode][value=queen]`)))
	for _, q := range queens {
		b.do(fmt.Sprintf("place a queen at %v", q), chromedp.Click(square(q[0], q[1])))
	}
	b.do("block mode", chromedp.Click(chromedp.CSS(`input[name=complete-mode][value=block]`)))
	for _, x := range blocked {
		b.do(fmt.Sprintf("block %v", x), chromedp.Click(square(x[0], x[1])))
	}
	if got := eval[int](b, `document.querySelectorAll('#complete-board .cell.blocked').length`); got != len(blocked) {
		b.t.Fatalf("%d squares shown blocked, want %d", got, len(blocked))
	}
	b.do("complete", chromedp.Click(chromedp.ID("complete-go")))
	b.waitJS("the answer", `['solved', 'none', 'error'].includes(document.getElementById('complete').dataset.state)`, 20*time.Second)
	return eval[string](b, `document.getElementById('complete').dataset.state`)
}

// testCompletePanel places a queen in a corner of the 8×8 board and blocks
// two squares by clicking, completes it, and checks that the result keeps
// that queen, avoids the blocks and is a solution; then asks for boards
// with no completion, which the library confirms.
func testCompletePanel(b *browser) {
	b.open("complete")
	blocked := [][2]int{{2, 3}, {3, 5}}
	if st := completeAs(b, 8, [][2]int{{1, 1}}, blocked); st != "solved" {
		b.t.Fatalf("state %s: %s", st, b.text("complete-status"))
	}
	p, err := board.Parse(b.text("complete-list"), board.List)
	if err != nil || board.Verify(p) != nil || p[0] != 0 {
		b.t.Fatalf("completion %q: %v", b.text("complete-list"), err)
	}
	for _, x := range blocked {
		if int(p[x[0]-1]) == x[1]-1 {
			b.t.Fatalf("completion %v has a queen on the blocked square %v", p, x)
		}
	}
	if n := eval[int](b, `document.querySelectorAll('#complete-board .cell.added').length`); n != 7 {
		b.t.Fatalf("%d queens shown as added by the solver, want 7", n)
	}
	b.screenshot("complete")

	// A 4×4 board with a queen in a corner has no completion, nor has one
	// whose two solutions are both blocked.
	for _, tc := range []struct {
		queens, blocked [][2]int
	}{
		{[][2]int{{1, 1}}, nil},
		{nil, [][2]int{{1, 2}, {1, 3}}},
	} {
		pb := board.Partial{Queens: board.New(4)}
		for _, q := range tc.queens {
			pb.Queens[q[0]-1] = int32(q[1] - 1)
		}
		for _, x := range tc.blocked {
			pb.Blocked = append(pb.Blocked, board.Square{Row: x[0] - 1, Col: x[1] - 1})
		}
		if _, err := complete.Complete(context.Background(), pb, complete.Options{}); !errors.Is(err, complete.ErrNoCompletion) {
			b.t.Fatalf("the library completes %v: %v", pb, err)
		}
		if st := completeAs(b, 4, tc.queens, tc.blocked); st != "none" || !strings.Contains(b.text("complete-status"), "No completion exists") {
			b.t.Fatalf("queens %v, blocked %v: state %s: %s", tc.queens, tc.blocked, st, b.text("complete-status"))
		}
	}
	b.screenshot("complete-none")
}
