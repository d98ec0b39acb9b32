package web

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/nqueens/nqueens/internal/testkit"
)

// The static build (nqueens site) in Chromium: the site, built once per
// test binary, is served by a plain file server under /nqueens/ (as GitHub
// Pages serves a project's site) and used as a person would; not one
// request may go to /api/, neither at the file server nor in the browser's
// network events.

// fileLog is a static file server that records the path of every request.
type fileLog struct {
	mu    sync.Mutex
	paths []string
	next  http.Handler
}

func (l *fileLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.paths = append(l.paths, r.URL.Path)
	l.mu.Unlock()
	l.next.ServeHTTP(w, r)
}

func (l *fileLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.paths)
}

// apiRequests returns the URLs of urls whose path goes to /api/.
func apiRequests(urls []string) []string {
	var out []string
	for _, u := range urls {
		if strings.Contains(u, "/api/") {
			out = append(out, u)
		}
	}
	return out
}

func TestSite(t *testing.T) {
	path := chromiumPath(t)
	dir := writtenSite(t).dir
	files := &fileLog{next: http.StripPrefix("/nqueens", http.FileServer(http.Dir(dir)))}
	ts := httptest.NewServer(files)
	t.Cleanup(ts.Close)
	b := newTab(t, path, ts.URL+"/nqueens")

	var (
		mu   sync.Mutex
		seen []string // every URL the page's network events name
	)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			seen = append(seen, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	runSteps(t, b, []browserStep{
		{"acceptance", testSiteAcceptance},
		{"trace", testSiteTrace},
		{"gallery", testGalleryPanel},
		{"complete", testCompletePanel},
		{"variants", testVariants},
		{"count", testSiteCount},
		{"cancel", testSiteCancel},
		{"api", testSiteAPI},
		{"huge", testSiteHuge},
		{"languages", testSiteLanguages},
		{"lesson", testLessonChapters}, // the lesson, its numbers computed in the browser
	})
	mu.Lock()
	defer mu.Unlock()
	if api := apiRequests(files.all()); len(api) > 0 {
		t.Errorf("the file server was asked for %q", api)
	}
	if api := apiRequests(seen); len(api) > 0 {
		t.Errorf("the browser requested %q", api)
	}
	// The watch saw the page's own requests, so it would have seen others.
	if !slices.ContainsFunc(seen, func(u string) bool { return strings.HasSuffix(u, "/nqueens/site.json") }) {
		t.Errorf("the browser's network events do not show site.json: %q", seen)
	}
	if !slices.ContainsFunc(files.all(), func(p string) bool {
		return strings.HasPrefix(p, "/nqueens/wasm/nqueens.") && strings.HasSuffix(p, ".wasm.gz")
	}) {
		t.Errorf("the module was never loaded: %q", files.all())
	}
}

// testSiteAcceptance opens the addresses of issue 13's acceptance: square,
// labelled cells, the step the library traces and a marked pseudocode line.
func testSiteAcceptance(b *browser) {
	for _, tc := range []struct {
		algo    string
		n, step int
	}{
		{"stack", 8, 133},
		{"bitmask", 10, 300},
	} {
		openStep(b, fmt.Sprintf("/?n=%d&algo=%s&step=%d", tc.n, tc.algo, tc.step), tc.algo, tc.n, tc.step)
		if !strings.Contains(b.text("site-note"), "runs in your browser") {
			b.t.Fatalf("the footer says %q", b.text("site-note"))
		}
	}
	b.screenshot("site-acceptance")
}

// testSiteTrace plays a search, and loads a small one while a long one is
// still arriving: the long one is cancelled and the small one shown whole.
func testSiteTrace(b *browser) {
	b.visit("/?n=6&algo=stack")
	b.waitTrace()
	b.do("play", chromedp.Click(chromedp.ID("watch-play")))
	b.waitJS("the search to play", `Number(document.getElementById('watch-timeline').value) > 5`, 20*time.Second)
	b.do("pause", chromedp.Click(chromedp.ID("watch-play")))

	b.do("a long search", chromedp.SetValue(chromedp.ID("watch-n"), "20"), chromedp.Click(chromedp.CSS(`#watch-form button[type=submit]`)))
	b.waitJS("its first steps", `Number(document.getElementById('watch-timeline').max) > 10`, 30*time.Second)
	b.do("a small one", chromedp.SetValue(chromedp.ID("watch-n"), "5"), chromedp.Click(chromedp.CSS(`#watch-form button[type=submit]`)))
	b.waitTrace()
	if s := b.text("watch-status"); !strings.Contains(s, "on 5×5: the whole search") {
		b.t.Fatalf("after switching to N = 5 the page says %q", s)
	}
	checkSquare(b, "watch-board", 5)

	// The last step of the 8-queens search, as its address names it.
	b.visit("/?n=8&algo=stack&step=end")
	b.waitTrace()
	if s := eval[string](b, `document.querySelector('[data-testid=step-sentence]').textContent`); !strings.Contains(s, "92 solutions") {
		b.t.Fatalf("step=end in the static build: %q", s)
	}
	// The race and the construction run in the browser too.
	b.visit("/?panel=race&n=5&algos=backtrack-array,bitmask")
	b.waitJS("the race loaded", `document.getElementById('race').dataset.state === 'ready'`, 30*time.Second)
	b.visit("/?panel=huge&n=20&method=construct")
	b.do("solve", chromedp.Click(chromedp.ID("huge-go")))
	b.waitJS("the construction", `document.getElementById('huge').dataset.state === 'done' && document.getElementById('huge-rule').textContent.includes('mod 6') || document.getElementById('huge-rule').textContent.includes('divided by 6')`, 30*time.Second)
}

// testSiteCount counts in the browser the published numbers, showing the
// count's progress as it runs (the worker serves the page's events request
// while it counts); cancels a running count (the worker's answer to the
// cancel says it stopped, which it can only say if it saw the cancel
// while counting); and offers the command line for an N past the browser's
// limit.
func testSiteCount(b *browser) {
	b.open("count")
	countPublished(b, 12)

	b.do("watch the status line", chromedp.Evaluate[chromedp.Void](`window.statusLines = [];
		new MutationObserver(() => statusLines.push(document.getElementById('count-status').textContent))
			.observe(document.getElementById('count-status'), {childList: true, characterData: true, subtree: true})`))
	countPublished(b, 15)
	lines := eval[[]string](b, `statusLines`)
	partial := regexp.MustCompile(`^Counting N = 15: ([\d,]+) of ([\d,]+) work units`)
	if !slices.ContainsFunc(lines, func(l string) bool {
		m := partial.FindStringSubmatch(l)
		return m != nil && m[1] != m[2]
	}) {
		b.t.Fatalf("no progress shown while counting N = 15: %q", lines)
	}

	b.do("count 15", chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("the count to run", `document.getElementById('count').dataset.state === 'running'`, 10*time.Second)
	b.do("cancel", chromedp.Click(chromedp.ID("count-cancel")))
	b.waitJS("the cancellation", `document.getElementById('count').dataset.state === 'cancelled' && document.getElementById('count-status').textContent.startsWith('Cancelled')`, 20*time.Second)
	if s := b.text("count-status"); !strings.Contains(s, "(cancelled)") {
		b.t.Fatalf("after Cancel the page says %q: the count was not stopped while it ran", s)
	}

	b.do("count 16", chromedp.SetValue(chromedp.ID("count-n"), "16"), chromedp.Click(chromedp.ID("count-start")))
	msg := eval[string](b, `(document.getElementById('count-n-error') || {}).textContent || ''`)
	if !strings.Contains(msg, "too big to count in a browser") || !strings.Contains(msg, "nqueens count 16") {
		b.t.Fatalf("N = 16 in the browser: %q", msg)
	}
	if eval[string](b, `document.getElementById('count').dataset.state`) != "cancelled" {
		b.t.Fatal("N = 16 started a count")
	}
	b.screenshot("site-count")
}

// testSiteCancel shows that the worker stops a search the page cancels
// while it runs. The browser's server has BrowserConfig().MaxJobs job slots
// and answers 429 at once when they are taken; a search that went on after
// its cancel would keep its slot. The page starts and cancels that many
// counts of the completions of an empty 14×14 board (seconds of work each
// in the browser, under the request limit, which refuses larger counts at
// once), then counts those of a 6×6 board: it gets a slot, and the answer.
func testSiteCancel(b *browser) {
	b.open("complete")
	for i := range BrowserConfig().MaxJobs {
		b.do("an empty 14×14 board", chromedp.SetValue(chromedp.ID("complete-n"), "14"), chromedp.Click(chromedp.ID("complete-clear")))
		b.do("count its completions", chromedp.Click(chromedp.ID("complete-count")))
		b.waitJS("the count to run", `document.getElementById('complete').dataset.state === 'searching'`, 10*time.Second)
		time.Sleep(200 * time.Millisecond) // well into the search
		b.do("cancel", chromedp.Click(chromedp.ID("complete-cancel")))
		b.waitJS(fmt.Sprintf("cancel %d", i+1), `document.getElementById('complete-status').textContent === 'Cancelled.'`, 10*time.Second)
	}
	b.do("an empty 6×6 board", chromedp.SetValue(chromedp.ID("complete-n"), "6"), chromedp.Click(chromedp.ID("complete-clear")))
	b.do("count its completions", chromedp.Click(chromedp.ID("complete-count")))
	b.waitJS("the answer", `['counted', 'error'].includes(document.getElementById('complete').dataset.state)`, 20*time.Second)
	if s := b.text("complete-status"); s != "4 ways to complete this board." {
		b.t.Fatalf("after %d cancelled counts, counting the 6×6 board says %q", BrowserConfig().MaxJobs, s)
	}
}

// testSiteAPI calls, through the page's own transport, the endpoints that
// no panel of the page uses: verify and render answer as the server does,
// and an error comes back as the server's status and message.
func testSiteAPI(b *browser) {
	type answers struct {
		Kind, Bad, SVG, Err string
		OK                  bool
	}
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[answers](`(async () => {
		const api = await import(new URL('js/api.js', document.baseURI).href);
		const good = await api.postJSON('/api/verify', {queens: [2, 4, 1, 3]});
		const bad = await api.postJSON('/api/verify', {queens: [2, 4, 1, 4]});
		const url = await api.fileURL('/api/render', {queens: '2,4,1,3', format: 'svg'});
		const svg = await (await fetch(url)).text();
		URL.revokeObjectURL(url);
		let err = '';
		try { await api.getJSON('/api/solve', {n: 2000000}); } catch (e) { err = e.status + ' ' + e.message; }
		return {Kind: api.kind, OK: good.ok, Bad: bad.error, SVG: svg, Err: err};
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatal(err)
	}
	if got.Kind != "wasm" || !got.OK || !strings.Contains(got.Bad, "same column") {
		b.t.Fatalf("verify in the browser: %+v", got)
	}
	if !strings.Contains(got.SVG, "<svg") || !strings.Contains(got.SVG, "</svg>") {
		b.t.Fatalf("render in the browser: %.200q", got.SVG)
	}
	if !strings.HasPrefix(got.Err, "400 ") || !strings.Contains(got.Err, "1000000") {
		b.t.Fatalf("solve past the browser's limit: %q", got.Err)
	}
}

// testSiteHuge draws a random board of 10^5 queens and downloads it, both
// made in the browser.
func testSiteHuge(b *browser) {
	solveHuge(b, 100_000, 7)
	if src := eval[string](b, `document.getElementById('huge-img').src`); !strings.HasPrefix(src, "blob:") {
		b.t.Fatalf("the picture comes from %s, not from the browser", src)
	}
	downloads := b.t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads}); err != nil {
		b.t.Fatal(err)
	}
	b.do("download the list", chromedp.Click(chromedp.ID("huge-dl-list")))
	const name = "queens-100000-random-seed7.txt"
	var body []byte
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) { // polling for the download
		var err error
		if body, err = os.ReadFile(filepath.Join(downloads, name)); err == nil && len(body) > 0 && body[len(body)-1] == '\n' {
			break
		}
		if time.Now().After(deadline) {
			entries, _ := os.ReadDir(downloads)
			b.t.Fatalf("no download %s: %v (the folder holds %v)", name, err, entries)
		}
	}
	checkRandomBoard(b, body, 100_000, 7)
}

// TestSiteWithoutModule serves the site without its module, as a host that
// lost the file would: the page says that its solver does not answer, and
// why, and still sends nothing to /api/.
func TestSiteWithoutModule(t *testing.T) {
	path := chromiumPath(t)
	site := writtenSite(t)
	files := &fileLog{next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm.gz") {
			http.NotFound(w, r)
			return
		}
		http.FileServer(http.Dir(site.dir)).ServeHTTP(w, r)
	})}
	ts := httptest.NewServer(files)
	t.Cleanup(ts.Close)
	b := newTab(t, path, ts.URL)
	b.do("open the page", chromedp.Navigate(ts.URL+"/?n=6&algo=stack"))
	b.waitJS("the banner", `!document.getElementById('banner').hidden && document.getElementById('banner').textContent.includes('404')`, 20*time.Second)
	if s := b.text("banner"); !strings.Contains(s, "solver of this page") || !strings.Contains(s, "does not answer") || !regexp.MustCompile(`nqueens\.[0-9a-f]{16}\.wasm\.gz answered 404`).MatchString(s) {
		t.Fatalf("banner %q", s)
	}
	if !eval[bool](b, `document.getElementById('loading').checkVisibility()`) {
		t.Fatal("the page no longer says that it is starting its solver")
	}

	b.screenshot("site-without-module")
	if api := apiRequests(files.all()); len(api) > 0 {
		t.Errorf("the file server was asked for %q", api)
	}
}

// link serves next's answers as a network link of a rate and a round-trip
// time would: each answer waits a round trip before it starts, and the
// bytes of all answers share the rate. It models the link for every request
// of the page, its workers' included, which the browser's own throttling
// (the DevTools protocol's) leaves out.
type link struct {
	next        http.Handler
	rtt         time.Duration
	bytesPerSec float64

	mu   sync.Mutex
	free time.Time // when the link will have sent what it was given
}

func (l *link) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	time.Sleep(l.rtt) // modelling the link's delay, not waiting for work
	l.next.ServeHTTP(&pacedWriter{ResponseWriter: w, l: l, rc: http.NewResponseController(w)}, r)
}

type pacedWriter struct {
	http.ResponseWriter
	l  *link
	rc *http.ResponseController
}

func (p *pacedWriter) Write(b []byte) (int, error) {
	sent := 0
	for len(b) > 0 {
		k := min(len(b), 8<<10)
		p.l.mu.Lock()
		if now := time.Now(); p.l.free.Before(now) {
			p.l.free = now
		}
		p.l.free = p.l.free.Add(time.Duration(float64(k) / p.l.bytesPerSec * float64(time.Second)))
		until := p.l.free
		p.l.mu.Unlock()
		time.Sleep(time.Until(until))
		n, err := p.ResponseWriter.Write(b[:k])
		sent += n
		if err != nil {
			return sent, err
		}
		p.rc.Flush()
		b = b[k:]
	}
	return sent, nil
}

// githubPages serves the site as GitHub Pages does (README, "Hosting the
// site"): every file with Cache-Control: max-age=600, and text files
// gzip-compressed for a browser that accepts it.
func githubPages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=600")
		switch path.Ext(r.URL.Path) {
		case ".html", ".js", ".css", ".json", ".svg", "":
			if accepts(r.Header.Get("Accept-Encoding"), "gzip") {
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Add("Vary", "Accept-Encoding")
				zw := gzip.NewWriter(w)
				defer zw.Close()
				w = &gzipWriter{ResponseWriter: w, zw: zw}
			}
		}
		next.ServeHTTP(w, r)
	})
}

type gzipWriter struct {
	http.ResponseWriter
	zw *gzip.Writer
}

func (g *gzipWriter) WriteHeader(code int) {
	g.Header().Del("Content-Length") // of the file, not of what is sent
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(b []byte) (int, error) { return g.zw.Write(b) }

// siteServer serves the static build at /nqueens as GitHub Pages does,
// recording the requests; with paced, over a link of 10 Mbit/s and 40 ms.
func siteServer(t testing.TB, paced bool) (*httptest.Server, *fileLog) {
	dir := writtenSite(t).dir
	files := &fileLog{next: http.StripPrefix("/nqueens", githubPages(http.FileServer(http.Dir(dir))))}
	var h http.Handler = files
	if paced {
		h = &link{next: files, rtt: 40 * time.Millisecond, bytesPerSec: 10e6 / 8}
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts, files
}

// throttle has the browser itself (the DevTools protocol's network
// emulation) make the tab's link 10 Mbit/s and 40 ms. It covers the
// page's requests, the module's download among them (boot.js makes it),
// not those a worker makes itself: Go's loader, a few kilobytes.
func throttle(b *browser) {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, network.Enable, network.EnableParams{}); err != nil {
		b.t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: 40, DownloadThroughput: 10e6 / 8, UploadThroughput: 10e6 / 8}}}); err != nil {
		b.t.Fatal(err)
	}
}

// modulesAsked counts the requests for the module in paths.
func modulesAsked(paths []string) int {
	k := 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".wasm.gz") {
			k++
		}
	}
	return k
}

// watchLoading records, from the page's first script on, each state of its
// loading line and bar.
const watchLoading = `window.loadingLines = [];
document.addEventListener('DOMContentLoaded', () => new MutationObserver(() => {
	const bar = document.getElementById('loading-bar');
	loadingLines.push(document.getElementById('loading-text').textContent + (bar.hidden ? '' : ' [' + bar.value + '/' + bar.max + ']'));
}).observe(document.getElementById('loading'), {subtree: true, childList: true, characterData: true, attributes: true}));`

// siteStarts opens the static build in a new browser profile (an empty
// cache) twice, and returns how long after each navigation the page
// answered (its "nqueens-ready" mark: the solver's, or on the second visit
// the kept answers') and, on the second visit, how long until its board
// was playable (its "nqueens-playable" mark: the whole trace in), checking
// that the first visit showed the download's progress and the second
// asked for no module and took the watch panel's answers from the
// browser's cache, not from the solver.
func siteStarts(b *browser, files *fileLog) (first, second, playable time.Duration) {
	b.t.Helper()
	script, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watchLoading})
	if err != nil {
		b.t.Fatal(err)
	}
	defer chromedp.Call(b.ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams(script))
	mark := func(name string) time.Duration {
		return time.Duration(eval[float64](b, fmt.Sprintf(`performance.getEntriesByName(%q)[0].startTime`, name)) * float64(time.Millisecond))
	}
	start := func() time.Duration {
		b.visit("/?n=6&algo=stack")
		return mark("nqueens-ready")
	}
	asked := modulesAsked(files.all())
	first = start()
	lines := eval[[]string](b, `loadingLines`)
	if !slices.ContainsFunc(lines, func(l string) bool {
		return regexp.MustCompile(`^Downloading the solver: \d\.\d MB of 2\.\d MB… \[\d+/\d+\]$`).MatchString(l)
	}) {
		b.t.Errorf("the download's progress was not shown: %q", lines)
	}
	if k := modulesAsked(files.all()) - asked; k != 1 {
		b.t.Fatalf("the module was asked for %d times on the first visit", k)
	}
	// The module is kept once it has arrived whole and been checked.
	b.waitJS("the module kept", `caches.open('nqueens-wasm').then((c) => c.keys()).then((k) => window.kept = k.length) && window.kept === 1`, 20*time.Second)

	// The answers the first visit kept are written as they arrive whole.
	b.waitJS("the trace kept", `performance.getEntriesByName('nqueens-answer-stored').some((m) => m.detail === '/api/trace')`, 20*time.Second)

	second = start()
	b.waitJS("a playable board", `performance.getEntriesByName('nqueens-playable').length === 1`, 20*time.Second)
	playable = mark("nqueens-playable")
	kept := eval[[]string](b, `performance.getEntriesByName('nqueens-answer-kept').map((m) => m.detail)`)
	for _, p := range []string{"/api/limits", "/api/algorithms", "/api/trace"} {
		if !slices.Contains(kept, p) {
			b.t.Errorf("the second visit did not take %s from the browser's cache (it took %q)", p, kept)
		}
	}
	if k := modulesAsked(files.all()) - asked; k != 1 {
		b.t.Errorf("the second visit downloaded the module again (%d requests for it in all)", k)
	}
	// (The page no longer waits for the solver on a second visit, so its
	// loading line may never say that the solver was kept.)
	return first, second, playable
}

// TestSiteStart opens the static build, served as GitHub Pages serves it,
// over a link the browser throttles to 10 Mbit/s and 40 ms, as a first
// visitor with an empty cache: a bar and the bytes received show the
// download; then a second visit, whose module comes from the browser's
// cache (no request for it). Issue 24 asks for the solver to answer within
// 3 s and 1 s, issue 33 for a playable board within 0.5 s on the second
// visit: BenchmarkSiteStart gives those figures. This test holds the times
// to what the same tab measures of the module itself on the same link and
// machine (its download and compilation, which no page can do without), so
// that a loaded machine, which slows both, cannot fail it: the first visit
// adds little to it, the second is a small part of the first. A browser
// without WebAssembly is told so, and what to do, and nothing is
// downloaded.
func TestSiteStart(t *testing.T) {
	path := chromiumPath(t)
	ts, files := siteServer(t, false)
	b := newTab(t, path, ts.URL+"/nqueens", chromedp.WithNewBrowserContext())
	throttle(b)
	first, second, playable := siteStarts(b, files)
	module := moduleCost(b)
	t.Logf("at 10 Mbit/s and 40 ms the solver answered %v after the page was asked for on a first visit, the page %v on a second, with a playable board at %v; the module alone took %v to download and compile",
		first.Round(time.Millisecond), second.Round(time.Millisecond), playable.Round(time.Millisecond), module.Round(time.Millisecond))
	// The first visit: the module, then the Go program's start and the
	// first answers, which load slows more than the compilation; the
	// page's own files come beside the module. (Measured: 5.0 s against
	// 2.8 s at load 8, 7.6 s against 2.7 s at load 11.)
	if slack := testkit.Patient(2 * time.Second); first > 3*module+slack {
		t.Errorf("the solver answered %v after the page was asked for on a first visit, more than three times the module's own download and compilation (%v) and %v", first, module, slack.Round(time.Millisecond))
	}
	// The second visit downloads nothing and waits for no solver: a
	// page that did would take about as long as the first.
	if second > first/3 || playable > first/2 {
		t.Errorf("the second visit answered at %v, its board playable at %v, against %v for the first: want under a third and a half of it", second, playable, first)
	}

	// Without WebAssembly.
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `delete globalThis.WebAssembly;`}); err != nil {
		t.Fatal(err)
	}
	before := len(files.all())
	b.do("open the page", chromedp.Navigate(b.base+"/?n=6&algo=stack"))
	b.waitJS("the message", `document.body.dataset.ready === 'no-wasm'`, 20*time.Second)
	if s := b.text("loading-text"); !strings.Contains(s, "does not run WebAssembly") || !strings.Contains(s, "nqueens serve") {
		t.Errorf("without WebAssembly the page says %q", s)
	}
	if !eval[bool](b, `document.getElementById('banner').hidden`) {
		t.Errorf("without WebAssembly the banner shows %q", b.text("banner"))
	}
	for _, p := range files.all()[before:] {
		if strings.HasSuffix(p, ".wasm.gz") || strings.HasSuffix(p, "wasm_exec.js") {
			t.Errorf("without WebAssembly the page asked for %s", p)
		}
	}
	b.screenshot("site-no-wasm")
}

// moduleCost is how long the page in b takes to download the static
// build's module over its link, uncompress and compile it, as the solver's
// worker does on a first visit, with no cache: the least a first visit
// costs on this link and machine now.
func moduleCost(b *browser) time.Duration {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`(async () => {
		const site = await (await fetch('site.json', {cache: 'no-store'})).json();
		const t0 = performance.now();
		const res = await fetch(new URL(site.module, location.href), {cache: 'no-store'});
		const body = res.body.pipeThrough(new DecompressionStream('gzip'));
		await WebAssembly.compileStreaming(new Response(body, {headers: {'Content-Type': 'application/wasm'}}));
		return performance.now() - t0;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatal(err)
	}
	return time.Duration(v * float64(time.Millisecond))
}

// BenchmarkSiteStart reports how long after the page was asked for the
// static build's solver answers over a link of 10 Mbit/s and 40 ms, on a
// first visit (an empty cache) and on the second, with the link made by the
// browser's throttling (as TestSiteStart) and by the file server's pacing
// of every answer, the worker's own requests included ("paced"). Issue 24
// asks for 3 s and 1 s.
func BenchmarkSiteStart(bm *testing.B) {
	path := chromiumPath(bm)
	for _, paced := range []bool{false, true} {
		ts, files := siteServer(bm, paced)
		var first, second, playable time.Duration
		for range bm.N {
			b := newTab(bm, path, ts.URL+"/nqueens", chromedp.WithNewBrowserContext())
			if !paced {
				throttle(b)
			}
			f, s, p := siteStarts(b, files)
			bm.Logf("paced %v: %v on a first visit, %v on a second, a playable board at %v", paced, f.Round(time.Millisecond), s.Round(time.Millisecond), p.Round(time.Millisecond))
			first, second, playable = first+f, second+s, playable+p
			b.close()
		}
		unit := ""
		if paced {
			unit = "-paced"
		}
		bm.ReportMetric(first.Seconds()/float64(bm.N), "s-first-visit"+unit)
		bm.ReportMetric(second.Seconds()/float64(bm.N), "s-second-visit"+unit)
		bm.ReportMetric(playable.Seconds()/float64(bm.N), "s-second-visit-playable"+unit)
	}
}
