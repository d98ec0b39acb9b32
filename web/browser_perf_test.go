package web

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// streamFigures is how the page's thread fared while a trace streamed in.
type streamFigures struct {
	Seconds float64 // the trace request's response, first byte to last
	Frames  int     // animation frames drawn meanwhile
	FPS     float64
	Gap     float64 // the longest time between two frames, ms
	Task    float64 // the longest task of the page's thread (long tasks are over 50 ms), ms
	Tasks   int     // long tasks meanwhile
	Steps   int     // steps received
	URL     string  // of the trace's request
	Wire    float64 // bytes of the trace's body on the wire
	Body    float64 // bytes of the body, uncompressed
}

// perfProbe records, from the page's first script on, every animation
// frame and every long task of the page's thread.
const perfProbe = `window.perfProbe = {frames: [], tasks: []};
(function frame(now) { perfProbe.frames.push(now); requestAnimationFrame(frame); })(0);
new PerformanceObserver((list) => { for (const e of list.getEntries()) perfProbe.tasks.push([e.startTime, e.duration]); })
	.observe({type: 'longtask', buffered: true});`

// measureStream opens the watch panel on 20 queens by the stack search, as
// a person would, plays it while its trace streams in (the page asks for
// up to 100,000 steps), and measures the page's thread from the first byte
// of the trace to its last.
func measureStream(b *browser) streamFigures {
	b.t.Helper()
	script, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: perfProbe})
	if err != nil {
		b.t.Fatal(err)
	}
	defer chromedp.Call(b.ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams(script))
	b.visit("/?n=20&algo=stack")
	b.do("play", chromedp.Click(chromedp.ID("watch-play")))
	b.waitTrace()
	return eval[streamFigures](b, `(() => {
		const r = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/trace')).pop();
		const [from, to] = [r.responseStart, r.responseEnd];
		const frames = perfProbe.frames.filter((t) => t >= from && t <= to);
		let gap = 0;
		for (let k = 1; k < frames.length; k++) gap = Math.max(gap, frames[k] - frames[k - 1]);
		const tasks = perfProbe.tasks.filter(([s, d]) => s + d >= from && s <= to);
		const secs = (to - from) / 1000;
		return {Seconds: secs, Frames: frames.length, FPS: frames.length / secs, Gap: gap,
			Task: Math.max(0, ...tasks.map(([, d]) => d)), Tasks: tasks.length,
			Steps: Number(document.getElementById('watch-timeline').max),
			URL: r.name, Wire: r.encodedBodySize, Body: r.decodedBodySize};
	})()`)
}

// TestPageStreamSmooth: while the page reads the 100,000 steps of 20
// queens, its thread never blocks for long. What would block it is the
// trace worker's work done on the page's thread: parsing the events and
// building the trace's columns, which the test times on the page's thread
// itself after each run (parseCost), on the same machine under the same
// load. The longest task while the trace streamed in must stay under half
// of that (and may always take 200 ms), the longest time between two
// frames under all of it (or 400 ms): a page that parsed the trace itself
// at once would fail, a machine slowed by other work slows both sides. The
// best of three runs counts; BenchmarkPageStream gives the figures.
func TestPageStreamSmooth(t *testing.T) {
	b := newBrowser(t, Config{})
	var best streamFigures
	bestParse := 0.0
	for run := range 3 {
		f := measureStream(b)
		parse := parseCost(b)
		t.Logf("run %d: %d steps in %.2f s: %d frames (%.0f per second), the longest gap %.0f ms; %d long tasks, the longest %.0f ms; the parse on the page's thread takes %.0f ms",
			run+1, f.Steps, f.Seconds, f.Frames, f.FPS, f.Gap, f.Tasks, f.Task, parse)
		if f.Steps != 100_000 {
			t.Fatalf("%d steps received, want 100,000", f.Steps)
		}
		if run == 0 {
			t.Logf("the trace's request %s: %.0f bytes on the wire, %.0f uncompressed", f.URL, f.Wire, f.Body)
			if !strings.Contains(f.URL, "form=compact") || f.Wire >= f.Body || f.Wire > 3e6 {
				t.Errorf("the page's trace of 20 queens came from %s, %.0f bytes on the wire for %.0f: not compact and compressed, under 3 MB", f.URL, f.Wire, f.Body)
			}
		}
		if run == 0 || f.Task/max(200, parse/2) < best.Task/max(200, bestParse/2) {
			best, bestParse = f, parse
		}
		if best.Task <= max(200, bestParse/2) && best.Gap <= max(400, bestParse) {
			return
		}
	}
	t.Errorf("the page's thread was blocked while the trace streamed in, in each of three runs: at best a task of %.0f ms, a frame gap of %.0f ms, against %.0f ms to parse the trace on the page's thread (want under half of it and all of it, or 200 and 400 ms)", best.Task, best.Gap, bestParse)
}

// parseCost times, on the page's thread, the work the trace worker did for
// the trace just streamed: the events of its body (fetched again) parsed
// and built into the trace's columns, with the page's own modules.
func parseCost(b *browser) float64 {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`(async () => {
		const r = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/trace')).pop();
		const text = await (await fetch(r.name)).text();
		const [{ splitEvents }, { TraceBuilder }] = await Promise.all([import('./js/sse.js'), import('./js/tracestore.js')]);
		const n = Number(new URL(r.name).searchParams.get('n'));
		const t0 = performance.now();
		const builder = new TraceBuilder(n);
		splitEvents(text, (name, data) => { const v = JSON.parse(data); if (name === 'message') builder.add(v); });
		builder.take();
		return performance.now() - t0;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// BenchmarkPageStream reports frames per second and the longest task of
// the page's thread while the trace of 20 queens (100,000 steps) streams in
// and plays: the median of the runs (a busy machine takes the page's thread
// away now and then, which the worst run shows), and the worst longest
// task. Issue 24 asks for 50 frames per second and no task over 50 ms.
func BenchmarkPageStream(bm *testing.B) {
	b := newBrowser(bm, Config{})
	var fps, task, gap, wire []float64
	for range bm.N {
		f := measureStream(b)
		fps, task, gap, wire = append(fps, f.FPS), append(task, f.Task), append(gap, f.Gap), append(wire, f.Wire)
		bm.Logf("%.0f frames/s, the longest frame gap %.0f ms, the longest task %.0f ms, %.0f bytes on the wire", f.FPS, f.Gap, f.Task, f.Wire)
	}
	median := func(v []float64) float64 {
		slices.Sort(v)
		return v[len(v)/2]
	}
	bm.ReportMetric(median(fps), "fps")
	bm.ReportMetric(median(gap), "ms-longest-frame")
	bm.ReportMetric(median(task), "ms-longest-task")
	bm.ReportMetric(slices.Max(task), "ms-longest-task-worst")
	bm.ReportMetric(median(wire), "wire-bytes")
}

// TestPageTraceWire: the 8-queens stack trace, as the page asks for it,
// comes compact and compressed, under 400 KB on the wire (issue 24).
func TestPageTraceWire(t *testing.T) {
	b := newBrowser(t, Config{})
	b.visit("/?n=8&algo=stack")
	b.waitTrace()
	type sizes struct {
		URL        string
		Wire, Body float64
	}
	s := eval[sizes](b, `(() => { const r = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/trace')).pop();
		return {URL: r.name, Wire: r.encodedBodySize, Body: r.decodedBodySize}; })()`)
	t.Logf("%s: %.0f bytes on the wire, %.0f uncompressed", s.URL, s.Wire, s.Body)
	if !strings.Contains(s.URL, "form=compact") || s.Wire >= s.Body || s.Wire >= 400_000 {
		t.Errorf("the 8-queens stack trace came from %s, %.0f bytes on the wire for %.0f: want compact, compressed and under 400 KB", s.URL, s.Wire, s.Body)
	}
}
