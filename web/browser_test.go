package web

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/solve"
)

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

// testOut is the folder for screenshots: $NQUEENS_TEST_OUT, or testout/web
// at the repository root (ignored by git).
func testOut(t *testing.T) string {
	dir := os.Getenv("NQUEENS_TEST_OUT")
	if dir == "" {
		dir = filepath.Join("..", "testout")
	}
	dir = filepath.Join(dir, "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
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

// screenshot saves the viewport as name.png under the test output folder.
func (b *browser) screenshot(name string) []byte {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
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
	b := newBrowser(t, Config{})
	for _, step := range []struct {
		name string
		run  func(*browser)
	}{
		{"board", testBoardPanel},
		{"gallery", testGalleryPanel},
		{"count", testCountPanel},
		{"huge", testHugePanel},
		{"complete", testCompletePanel},
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

	// Fastest speed, then space plays.
	eval[bool](b, `(() => { const s = document.getElementById('speed'); s.value = 100; s.dispatchEvent(new Event('input')); return true; })()`)
	b.do("press space", chromedp.KeyEvent(" "))
	b.waitJS("the end of the search", `document.getElementById('board').dataset.state === 'end'`, 60*time.Second)
	got := classic.Counters{
		Placed: b.number("c-placed"), Rejected: b.number("c-rejected"), Backtracks: b.number("c-backtracks"),
		Solutions: b.number("c-solutions"), Nodes: b.number("c-nodes"), Tries: b.number("c-tries"),
	}
	want.Elapsed = 0
	if got != want {
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

	// A picture for the docs: 8 queens, a rejected try after 5 queens.
	b.do("load 8 queens", chromedp.SetValue(chromedp.ID("trace-n"), "8"), chromedp.Click(chromedp.CSS("#trace-form button[type=submit]")))
	b.waitJS("the 8-queens trace", `document.getElementById('trace-status').textContent.includes('8×8')`, 20*time.Second)
	eval[bool](b, `(() => {
		trace.pos = trace.events.findIndex((e) => e.kind === 'reject' && e.counters.solutions >= 1 &&
			e.queens.filter((c) => c > 0).length >= 5 && e.by.row < e.row - 2);
		showTrace();
		return trace.pos > 0;
	})()`)
	if cells := eval[int](b, `document.querySelectorAll('#trace-board .rejected, #trace-board .attacker').length`); cells != 2 {
		b.t.Fatalf("a rejected try shows %d red squares, want 2 (the square and its attacker)", cells)
	}
	png := b.screenshot("board")
	if *updateScreenshot {
		if err := os.WriteFile(filepath.Join("..", "docs", "screenshot.png"), png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
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
	b.waitJS("the trace", `document.getElementById('trace-status').textContent.includes('the whole search')`, 20*time.Second)
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
}

// testCountPanel counts 12 queens, then starts a long count and cancels it
// from the page, checking that the server's job stops.
func testCountPanel(b *browser) {
	b.open("count")
	b.do("count 12", chromedp.SetValue(chromedp.ID("count-n"), "12"), chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("the count", `document.getElementById('count').dataset.state === 'done'`, 60*time.Second)
	if total, unique := b.text("count-total"), b.text("count-unique"); total != "14,200" || unique != "1,787" {
		b.t.Fatalf("count 12 shows %s solutions, %s classes", total, unique)
	}
	if ref := b.text("count-reference"); !strings.HasPrefix(ref, "matches") {
		b.t.Fatalf("reference check %q", ref)
	}
	b.screenshot("count")

	b.do("count 16", chromedp.SetValue(chromedp.ID("count-n"), "16"), chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("the count to start", `document.getElementById('count').dataset.state === 'running'`, 20*time.Second)
	b.do("cancel", chromedp.Click(chromedp.ID("count-cancel")))
	b.waitJS("the cancellation", `document.getElementById('count').dataset.state === 'cancelled'`, 20*time.Second)
	b.srv.counts.mu.Lock()
	var states []string
	for _, j := range b.srv.counts.jobs {
		if j.n == 16 {
			states = append(states, j.status().State)
		}
	}
	b.srv.counts.mu.Unlock()
	if len(states) != 1 || states[0] != stateCancelled {
		b.t.Fatalf("server-side count jobs for 16: %v, want one cancelled", states)
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

// testCompletePanel places a queen in a corner of the 8×8 board by
// clicking, completes it, checks the result keeps that queen and is a
// solution; then blocks squares until no completion exists.
func testCompletePanel(b *browser) {
	b.open("complete")
	b.do("set 8", chromedp.SetValue(chromedp.ID("complete-n"), "8"))
	eval[bool](b, `(() => { resetCompletion(); clickSquare(1, 1); return true; })()`)
	b.do("complete", chromedp.Click(chromedp.ID("complete-go")))
	b.waitJS("the completion", `['solved', 'none', 'error'].includes(document.getElementById('complete').dataset.state)`, 20*time.Second)
	if st := eval[string](b, `document.getElementById('complete').dataset.state`); st != "solved" {
		b.t.Fatalf("state %s: %s", st, b.text("complete-status"))
	}
	p, err := board.Parse(b.text("complete-list"), board.List)
	if err != nil || board.Verify(p) != nil || p[0] != 0 {
		b.t.Fatalf("completion %q: %v", b.text("complete-list"), err)
	}
	if n := eval[int](b, `completion.added.size`); n != 7 {
		b.t.Fatalf("the solver added %d queens, want 7", n)
	}
	b.screenshot("complete")

	// A 4×4 board with a queen in the corner has no completion.
	b.do("set 4", chromedp.SetValue(chromedp.ID("complete-n"), "4"))
	eval[bool](b, `(() => { resetCompletion(); clickSquare(1, 1); return true; })()`)
	b.do("complete", chromedp.Click(chromedp.ID("complete-go")))
	b.waitJS("the proof", `['solved', 'none', 'error'].includes(document.getElementById('complete').dataset.state)`, 20*time.Second)
	if st := eval[string](b, `document.getElementById('complete').dataset.state`); st != "none" || !strings.Contains(b.text("complete-status"), "No completion exists") {
		b.t.Fatalf("state %s: %s", st, b.text("complete-status"))
	}
	b.screenshot("complete-none")
}
