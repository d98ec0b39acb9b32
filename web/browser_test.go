package web

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/nqueens/nqueens/internal/testkit"
)

// The board panel's screenshot becomes docs/screenshot.png (shown by the
// README) with -update-screenshot or NQUEENS_UPDATE_SCREENSHOT=1.
var updateScreenshot = flag.Bool("update-screenshot", false, "rewrite docs/screenshot.png from the browser test")

// chromiumPath finds Debian's Chromium. Without it the browser tests skip,
// except in CI (the CI variable is set), where they must run. With -short
// they skip: the browser sessions take most of a minute.
func chromiumPath(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("drives Chromium (-short)")
	}
	// Under the race detector the server's work behind a page (traces, the
	// cost chart) runs several times slower, and the package's browser
	// tests took 18 minutes at load 10; scripts/test.sh runs them without
	// it, in a part of their own. NQUEENS_BROWSER_RACE=1 runs them here.
	if raceEnabled && os.Getenv("NQUEENS_BROWSER_RACE") == "" {
		t.Skip("drives Chromium: run without -race (scripts/test.sh's part \"browser tests\"), or set NQUEENS_BROWSER_RACE=1")
	}
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
func testOut(t testing.TB) string {
	dir := os.Getenv("NQUEENS_TEST_OUT")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "nqueens-testout")
	}
	dir = filepath.Join(dir, "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// requestLog records the API requests the server receives (the heartbeat's
// pings apart), and can make the server unreachable: while down, every connection is dropped unanswered,
// as by a server that stopped.
type requestLog struct {
	mu    sync.Mutex
	paths []string
	down  atomic.Bool
	pings atomic.Int64
	next  http.Handler
}

func (l *requestLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if l.down.Load() {
		panic(http.ErrAbortHandler)
	}
	// The page's heartbeat, a ping a second, is counted apart.
	if r.URL.Path == "/api/ping" {
		l.pings.Add(1)
	} else if strings.HasPrefix(r.URL.Path, "/api/") {
		l.mu.Lock()
		l.paths = append(l.paths, r.Method+" "+r.URL.Path)
		l.mu.Unlock()
	}
	l.next.ServeHTTP(w, r)
}

// since returns the API requests after the first k.
func (l *requestLog) since(k int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.paths[k:]...)
}

func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.paths)
}

// browser drives one headless Chromium tab against a fresh server.
type browser struct {
	t    testing.TB
	ctx  context.Context
	base string
	srv  *Server
	log  *requestLog
	ts   *httptest.Server
	out  string
	// close closes the tab (and its profile, if it has its own) before the
	// test ends.
	close func()

	mu     sync.Mutex
	errors []string // uncaught exceptions and console errors of the page
}

func newBrowser(t testing.TB, cfg Config) *browser {
	path := chromiumPath(t)
	s := newServer(t, cfg)
	log := &requestLog{next: s}
	ts := httptest.NewServer(log)
	t.Cleanup(ts.Close)
	b := newTab(t, path, ts.URL)
	b.srv, b.log, b.ts = s, log, ts
	return b
}

// chromium is the headless browser of this test binary, started by the
// first browser test and shared by all: each test gets tabs of its own.
// TestMain stops it.
var chromium struct {
	once    sync.Once
	ctx     context.Context // the browser's first tab: chromedp.NewContext(ctx) opens others
	err     error
	dataDir string
	stop    func()
}

func startChromium(path string) {
	dir, err := os.MkdirTemp("", "nqueens-chromium-")
	if err != nil {
		chromium.err = err
		return
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
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
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	chromium.ctx, chromium.dataDir = ctx, dir
	chromium.stop = func() {
		cancelCtx()
		cancelAlloc()
		os.RemoveAll(dir)
	}
	chromium.err = chromedp.Do(ctx)
}

func TestMain(m *testing.M) {
	code := testkit.Run(m) // and removes what testkit.BuildBinary built
	if chromium.stop != nil {
		chromium.stop()
	}
	if builtSite.dir != "" {
		os.RemoveAll(builtSite.dir)
	}
	os.Exit(code)
}

// newTab opens a tab of the shared browser on base, which it records the
// page's errors of. With chromedp.WithNewBrowserContext() among opts the
// tab has a profile of its own: no cache, storage or cookies of the others.
func newTab(t testing.TB, path, base string, opts ...chromedp.ContextOption) *browser {
	chromium.once.Do(func() { startChromium(path) })
	if chromium.err != nil {
		t.Fatalf("starting %s: %v", path, chromium.err)
	}
	tab, closeTab := chromedp.NewContext(chromium.ctx, opts...)
	t.Cleanup(closeTab)
	// One bound for the whole test, so that a hung page fails the test
	// instead of hanging it: 4 minutes of an idle machine, at least, and
	// before go test's own limit, which would end the binary unreported.
	bound := time.Now().Add(testkit.Patient(4 * time.Minute))
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := d.Deadline(); ok {
			if last := end.Add(-30 * time.Second); last.Before(bound) {
				bound = last
			}
		}
	}
	ctx, cancel := context.WithDeadline(tab, bound)
	t.Cleanup(cancel)
	b := &browser{t: t, ctx: ctx, base: base, out: testOut(t), close: closeTab}
	if err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = fmt.Sprintf("%s (line %d)", ev.ExceptionDetails.Text, ev.ExceptionDetails.LineNumber)
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				msg += ": " + ex.Description
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				msg = fmt.Sprintf("console.error %v", ev.Args)
			}
		}
		if msg != "" {
			b.mu.Lock()
			b.errors = append(b.errors, msg)
			b.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	b.viewport(1280, 900)
	return b
}

// pageErrors returns the page's uncaught exceptions and console errors since
// the last call.
func (b *browser) pageErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	errs := b.errors
	b.errors = nil
	return errs
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

// waitJS waits until a JavaScript condition holds, for d on an idle
// machine, times testkit.Patience on a loaded one: the waits tell a hung
// page from a slow one, what must be fast is measured by the benchmarks.
// A poll that starts while a navigation replaces the page can lose its
// JavaScript context ("Cannot find context with specified id"); it is
// started again on the new page, within the same time.
func (b *browser) waitJS(what, cond string, d time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(testkit.Patient(d))
	var err error
	for {
		_, err = chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(20*time.Millisecond)))
		if err == nil || !strings.Contains(err.Error(), "Cannot find context with specified id") || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond) // the page was replaced: poll again on the new one
	}
	if err != nil {
		status, _ := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.status')].filter((e) => e.checkVisibility() && e.textContent).map((e) => e.id + ': ' + e.textContent)`))
		b.t.Fatalf("waiting for %s (%s): %v (page errors: %q; the page says %q)", what, cond, err, b.pageErrors(), status)
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

// screenshot saves the visible page as name.png under the test output folder.
func (b *browser) screenshot(name string) []byte {
	b.t.Helper()
	return b.screenshotOf(name, chromedp.CaptureScreenshot())
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

// visit loads the page at path (such as "/?n=8&algo=stack&step=133") and
// waits until the panel it opens has started; the watch panel waits for its
// step.
func (b *browser) visit(path string) {
	b.t.Helper()
	b.do("open "+path, chromedp.Navigate(b.base+path))
	b.waitJS("the page", `document.body.dataset.ready === 'true' && [...document.querySelectorAll('main > section')].some((s) => !s.hidden && s.dataset.ready === 'true')`, 20*time.Second)
}

// open shows a panel by its navigation link, as a person would.
func (b *browser) open(panel string) {
	b.t.Helper()
	if eval[bool](b, `document.body.dataset.ready !== 'true'`) || !strings.HasPrefix(eval[string](b, `location.href`), b.base) {
		b.visit("/")
	}
	b.do("click the "+panel+" link", chromedp.Click(chromedp.CSS(fmt.Sprintf(`nav a[data-panel=%q]`, panel))))
	b.waitJS(panel+" panel", fmt.Sprintf(`!document.getElementById(%q).hidden && document.getElementById(%q).dataset.ready === 'true'`, panel, panel), 20*time.Second)
}

// viewport sets the window's size in CSS pixels.
func (b *browser) viewport(w, h int64) {
	b.t.Helper()
	b.do(fmt.Sprintf("viewport %d×%d", w, h), chromedp.EmulateViewport(w, h))
}

// TestBrowser loads the page in Chromium and uses every panel as a person
// would, checking what it shows against the libraries. One browser serves
// every step, to keep the suite fast.
func TestBrowser(t *testing.T) {
	// N = 18 on one worker: a count that cannot end before the test cancels it.
	// The test leaves pages faster than anybody, and the server frees the job
	// slot of a left page's trace stream only when a write to it fails: more
	// slots than the default keep a count from being refused for that.
	// Traces of at most 20,000 steps keep the streams short.
	b := newBrowser(t, Config{MaxCountN: 18, CountWorkers: 1, MaxJobs: 8, MaxTraceEvents: 20000})
	runSteps(t, b, []browserStep{
		{"acceptance", testAcceptance},
		{"group", testGroup},
		{"big-counts", testBigCounts},
		{"watch", testWatchPanel},
		{"timeline", testTimeline},
		{"strategies", testStrategies},
		{"lesson", testLesson},
		{"live", testLiveRegion},
		{"invalid", testInvalidInput},
		{"gallery", testGalleryPanel},
		{"count", testCountPanel},
		{"huge", testHugePanel},
		{"complete", testCompletePanel},
		{"variants", testVariants},
		{"contrast", testContrast},
		{"signals", testSignals},
		{"keyboard", testKeyboard},
		{"media", testMedia},
		{"phone-play", testPhonePlay},
		{"axe", testAxe},
		{"phone", testPhone},
	})
}

// browserStep is one subtest of a browser session.
type browserStep struct {
	name string
	run  func(*browser)
}

// runSteps runs the steps in b one after the other, each as a subtest at
// the desktop size, failing one whose page threw.
func runSteps(t *testing.T, b *browser, steps []browserStep) {
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			b.t = t
			b.viewport(1280, 900)
			step.run(b)
			if errs := b.pageErrors(); len(errs) > 0 {
				t.Errorf("the page threw: %q", errs)
			}
		})
	}
	b.t = t
}
