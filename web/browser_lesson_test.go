package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/solve"
)

// TestLessonPage uses, in Chromium, the views of the lesson issue as a
// learner would, measuring what they show against the engine's own
// outputs: the construction drawn from the address.
func TestLessonPage(t *testing.T) {
	b, g := newGatedBrowser(t, Config{MaxJobs: 8, MaxTraceEvents: 20000})
	runSteps(t, b, []browserStep{
		{"huge-construct", testHugeConstruct},
		{"play-before-ready", func(b *browser) { testPlayBeforeReady(b, g) }},
		{"race", testRace},
		{"cost", testCost},
		{"lesson", testLessonChapters},
		{"lesson-player", testLessonPlayer},
		{"lesson-layout", testLessonLayout},
		{"watch-layout", testWatchLayout},
	})
}

// traceGate holds the answers of /api/trace while it is shut, so that a
// test acts while a panel is still loading its searches.
type traceGate struct {
	mu   sync.Mutex
	shut chan struct{} // nil while open
	next http.Handler
}

func (g *traceGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	shut := g.shut
	g.mu.Unlock()
	if shut != nil && r.URL.Path == "/api/trace" {
		select {
		case <-shut:
		case <-r.Context().Done():
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

func (g *traceGate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut == nil {
		g.shut = make(chan struct{})
	}
}

func (g *traceGate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shut != nil {
		close(g.shut)
		g.shut = nil
	}
}

// newGatedBrowser is newBrowser with a gate before the server's traces.
func newGatedBrowser(t *testing.T, cfg Config) (*browser, *traceGate) {
	path := chromiumPath(t)
	s := newServer(t, cfg)
	g := &traceGate{next: s}
	log := &requestLog{next: g}
	ts := httptest.NewServer(log)
	t.Cleanup(ts.Close)
	t.Cleanup(g.open)
	b := newTab(t, path, ts.URL)
	b.srv, b.log, b.ts = s, log, ts
	return b, g
}

// testPlayBeforeReady presses Play while the watch panel and the race
// still load their searches (the traces held at the gate): each starts
// playing once its searches are in, with no second press.
func testPlayBeforeReady(b *browser, g *traceGate) {
	g.close()
	b.visit("/?n=8&algo=stack")
	if s := b.text("watch-status"); !strings.HasPrefix(s, "Loading") {
		b.t.Fatalf("with the trace held, the watch panel says %q", s)
	}
	b.do("press Play while loading", chromedp.Click(chromedp.ID("watch-play")))
	g.open()
	b.waitJS("the search to play", `Number(document.getElementById('watch-timeline').value) > 3`, 20*time.Second)
	b.do("pause", chromedp.Click(chromedp.ID("watch-play")))

	g.close()
	b.visit("/?panel=race&n=6&algos=backtrack-2d,bitmask&speed=100")
	if st := eval[string](b, `document.getElementById('race').dataset.state`); st != "loading" {
		b.t.Fatalf("with the traces held, the race is %q", st)
	}
	b.do("press Play while loading", chromedp.Click(chromedp.ID("race-play")))
	if p := eval[string](b, `document.getElementById('race-play').getAttribute('aria-pressed')`); p != "true" {
		b.t.Fatalf("Play pressed while loading: aria-pressed %q", p)
	}
	g.open()
	b.waitJS("the race to run to its end", `document.getElementById('race').dataset.state === 'end'`, 30*time.Second)
}

// finalCounters are the counters at the end of the library's trace of
// algo on n×n, and its last solution (1-based columns).
func finalCounters(b *browser, algo string, n int) (classic.Counters, []int) {
	var last classic.Event
	var sol []int
	for e := range traceOf(b, algo, n) {
		last = e
		if e.Kind == classic.Solution {
			sol = nil
			for _, c := range e.Queens {
				sol = append(sol, int(c)+1)
			}
		}
	}
	return last.Counters, sol
}

// testRace runs a race to its end as a learner would and measures what it
// shows: a bar a strategy, as long as its reads on one scale; each
// finished board keeps its last solution; the result ranks the strategies
// by reads, as the library counts them, and shows a time only with its
// spread, where the spread is smaller than the time.
func testRace(b *browser) {
	algos := []string{"backtrack-2d", "backtrack-flags", "stack", "bitmask"}
	b.visit("/?panel=race&n=6&algos=" + strings.Join(algos, ",") + "&speed=100")
	if s := eval[string](b, `document.getElementById('race-speed').getAttribute('aria-valuetext')`); s != "the race lasts about 2 s" {
		b.t.Fatalf("the speed control says %q", s)
	}
	b.waitJS("the race loaded", `document.getElementById('race').dataset.state === 'ready'`, 30*time.Second)
	for _, id := range algos {
		sel := fmt.Sprintf(`#race-boards [data-algo=%q] [role=grid]`, id)
		if got := eval[string](b, fmt.Sprintf(`document.querySelector(%q).getAttribute('aria-label')`, sel)); got != "Board of "+id {
			b.t.Fatalf("race: the board of %s is labelled %q", id, got)
		}
		eval[bool](b, fmt.Sprintf(`(() => { document.querySelector(%q).id = 'race-%s'; return true; })()`, sel, id))
		checkSquare(b, "race-"+id, 6)
	}
	b.do("play the race", chromedp.Click(chromedp.ID("race-play")))
	b.waitJS("the race's end", `document.getElementById('race').dataset.state === 'end'`, 30*time.Second)
	b.waitJS("the measured times", `!document.getElementById('race-times').textContent.includes('Measuring')`, 60*time.Second)

	type lane struct {
		Bar     float64
		Queens  []int
		Counter string
	}
	lanes := eval[map[string]lane](b, `Object.fromEntries([...document.querySelectorAll('#race-boards .lane')].map((l) => [l.dataset.algo, {
		Bar: l.querySelector('.race-bar span').getBoundingClientRect().width,
		Queens: [...l.querySelectorAll('[role=row]')].map((r) => [...r.children].findIndex((c) => c.classList.contains('queen')) + 1),
		Counter: l.querySelector('.lane-counters').textContent}]))`)
	full := eval[float64](b, `document.querySelector('#race-boards .race-bar').clientWidth`)
	var most uint64
	reads := map[string]uint64{}
	for _, a := range algos {
		c, _ := finalCounters(b, a, 6)
		reads[a] = c.Reads
		most = max(most, c.Reads)
	}
	for _, a := range algos {
		c, sol := finalCounters(b, a, 6)
		l := lanes[a]
		if want := full * float64(c.Reads) / float64(most); l.Bar < want-1.5 || l.Bar > want+1.5 {
			b.t.Errorf("%s: its bar is %.1f px of %.1f, its reads %d of %d want %.1f px", a, l.Bar, full, c.Reads, most, want)
		}
		if !slices.Equal(l.Queens, sol) {
			b.t.Errorf("%s: the finished board shows %v, its last solution is %v", a, l.Queens, sol)
		}
		if !strings.HasPrefix(l.Counter, fmt.Sprintf("%s reads, ", groupDigits(strconv.FormatUint(c.Reads, 10)))) || !strings.Contains(l.Counter, "done") {
			b.t.Errorf("%s: its counters read %q, the library's reads %d", a, l.Counter, c.Reads)
		}
	}
	rows := eval[[][]string](b, `[...document.querySelectorAll('#race-table tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent))`)
	ranked := slices.Clone(algos)
	slices.SortStableFunc(ranked, func(x, y string) int { return int(reads[x]) - int(reads[y]) })
	if len(rows) != len(ranked) {
		b.t.Fatalf("the race's table has %d rows", len(rows))
	}
	for i, r := range rows {
		if r[1] != ranked[i] || r[2] != groupDigits(strconv.FormatUint(reads[ranked[i]], 10)) {
			b.t.Fatalf("the race ranks %q, the library's reads rank %v (%v)", rows, ranked, reads)
		}
		checkRaceTime(b, ranked[i], r[6])
	}
	if !eval[bool](b, `document.getElementById('race-result').checkVisibility() && document.getElementById('race-times').checkVisibility()`) {
		b.t.Fatal("the race's result is not shown")
	}
	b.screenshot("race-end")
	checkPhoneAndAxe(b, "race")
}

// A time cell of the race: its median and the quartiles, or why none.
var (
	raceTime   = regexp.MustCompile(`^([\d.]+ (?:ns|µs|ms|s)) \(middle half ([\d.]+ (?:ns|µs|ms|s)) to ([\d.]+ (?:ns|µs|ms|s))\)(, [\d.]+ times [a-z0-9-]+'s)?$`)
	raceNoTime = regexp.MustCompile(`^not shown: (within its noise \([\d.]+ (?:ns|µs|ms|s) to [\d.]+ (?:ns|µs|ms|s)\)|\d+ measure only)$`)
)

// checkRaceTime checks that a time is shown only where the middle half of
// its measures spans less than the time itself.
func checkRaceTime(b *browser, algo, text string) {
	b.t.Helper()
	if raceNoTime.MatchString(text) {
		return
	}
	m := raceTime.FindStringSubmatch(text)
	if m == nil {
		b.t.Fatalf("%s: the race's time reads %q", algo, text)
	}
	median, q1, q3 := secondsOf(m[1]), secondsOf(m[2]), secondsOf(m[3])
	if q1 > median*1.05 || median > q3*1.05 || q3-q1 >= median*1.05 { // the text is rounded
		b.t.Fatalf("%s: the time %q is shown, but its spread is not smaller than it", algo, text)
	}
}

// secondsOf reads a time as the page writes it (text.js runTime).
func secondsOf(s string) float64 {
	v, unit, _ := strings.Cut(s, " ")
	f, _ := strconv.ParseFloat(v, 64)
	return f * map[string]float64{"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1}[unit]
}

// testHugeConstruct opens the construction from its address alone: the rule
// by n mod 6 and the drawing come at load, without pressing Solve. A huge
// board is drawn as its staircases; a small one a square a queen (each
// queen's disc inside its own square, measured in pixels), and the panel
// says how seed article 000's board differs, with both lists as the solve
// package builds them.
func testHugeConstruct(b *browser) {
	b.visit("/?panel=huge&n=1000&method=construct")
	b.waitJS("the construction at load", `document.getElementById('huge').dataset.state === 'done'`, 30*time.Second)
	p, _ := solve.Construct(1000)
	if s := b.text("huge-rule"); !strings.Contains(s, "mod 6") || !eval[bool](b, `document.getElementById('huge-rule').checkVisibility()`) || !strings.Contains(b.text("huge-caption"), "1,000 queens") {
		b.t.Fatalf("huge rule %q, caption %q", s, b.text("huge-caption"))
	}
	if k := eval[int](b, `document.querySelectorAll('#huge-svg svg line.run').length`); k != len(p.Runs()) {
		b.t.Fatalf("the construction of 1,000 is drawn as %d staircases, want %d", k, len(p.Runs()))
	}
	if !strings.Contains(b.text("huge-article"), "builds the same board for n = 1,000") {
		b.t.Fatalf("n = 1,000 (n mod 6 = 4): the article's board is said to be %q", b.text("huge-article"))
	}

	for _, n := range []int{8, 9, 10, 14} {
		b.visit(fmt.Sprintf("/?panel=huge&n=%d&method=construct", n))
		b.waitJS("the construction at load", fmt.Sprintf(`document.getElementById('huge').dataset.state === 'done' && document.querySelectorAll('#huge-svg circle.queen').length === %d`, n), 30*time.Second)
		type disc struct{ Row, Col, W, H, Cell float64 }
		discs := eval[[]disc](b, fmt.Sprintf(`(() => {
			const svg = document.querySelector('#huge-svg svg').getBoundingClientRect();
			const cell = svg.width / %d;
			return [...document.querySelectorAll('#huge-svg circle.queen')].map((c) => {
				const r = c.getBoundingClientRect();
				return {Row: Math.floor((r.top + r.height / 2 - svg.top) / cell) + 1, Col: Math.floor((r.left + r.width / 2 - svg.left) / cell) + 1, W: r.width, H: r.height, Cell: cell};
			});
		})()`, n))
		p, _ := solve.Construct(n)
		want := p.Placement().OneBased()
		for _, d := range discs {
			if d.W > d.Cell || d.H > d.Cell || d.W < d.Cell/2 || int(want[int(d.Row)-1]) != int(d.Col) {
				b.t.Fatalf("n = %d: a queen drawn %.1f×%.1f px at row %.0f, column %.0f; the squares are %.1f px, the construction's queen of that row is in column %d",
					n, d.W, d.H, d.Row, d.Col, d.Cell, want[int(d.Row)-1])
			}
		}
		if k := eval[int](b, `document.querySelectorAll('#huge-svg rect.sq').length`); k != n*n {
			b.t.Fatalf("n = %d: %d squares drawn", n, k)
		}
		if c := b.text("huge-caption"); !strings.Contains(c, "one square each") || !strings.Contains(c, fmt.Sprintf("%d staircases", len(p.Runs()))) {
			b.t.Fatalf("n = %d: caption %q (%d staircases)", n, c, len(p.Runs()))
		}
		article, _ := solve.ConstructHalf(n)
		note := b.text("huge-article")
		if article.Equal(p.Placement()) {
			if !strings.Contains(note, "builds the same board") {
				b.t.Fatalf("n = %d: the article's board is the page's, but the panel says %q", n, note)
			}
			continue
		}
		orbit, _ := board.Orbit(p.Placement())
		same := slices.ContainsFunc(orbit, article.Equal)
		list := func(q board.Placement) string { return strings.Trim(fmt.Sprint(q.OneBased()), "[]") }
		if !strings.Contains(note, "prints another board for n = "+fmt.Sprint(n)+": "+list(article)+", where this page's rule gives "+list(p.Placement())) ||
			strings.Contains(note, "different symmetry classes") == same {
			b.t.Fatalf("n = %d: the article's board %s (same class: %v), the page says %q", n, list(article), same, note)
		}
	}
	b.screenshot("huge-construct-14")
	checkAxe(b, "the construction of 14")
}

// testCost opens the cost chart as a person would: the chart and its
// table, one row per strategy; the sentence of each strategy that says
// why it pays what it pays, its numbers worked out again here from the
// library's counters (reads per try at the N it names, the growth of its
// reads, or of its candidates by their formula, from one N to the next);
// lines told apart by marker and dashes, not colour alone, their names
// neither overlapping nor cut off; powers of ten in superscript; and only
// measured times in the time chart.
func testCost(b *browser) {
	b.visit("/?panel=cost")
	b.waitJS("the cost chart", `document.getElementById('cost').dataset.state === 'done'`, 180*time.Second)
	rows := eval[[]string](b, `[...document.querySelectorAll('#cost-table tbody tr')].map((tr) => tr.dataset.algo)`)
	var want []string
	for _, s := range classic.All() {
		if _, ok := classic.LessonOf(s); ok {
			want = append(want, s.Name())
		}
	}
	if !slices.Equal(rows, want) {
		b.t.Fatalf("cost table rows %q, want %q", rows, want)
	}
	if cell := eval[string](b, `document.querySelector('#cost-table tr[data-algo=bitmask] td:nth-of-type(5)').textContent`); !regexp.MustCompile(`^7,951 reads, [\d.]+ (ns|µs|ms)$`).MatchString(cell) {
		b.t.Fatalf("bitmask at N = 8 in the table: %q", cell)
	}
	if cell := eval[string](b, `document.querySelector('#cost-table tr[data-algo=brute-combinations] td:nth-of-type(9)').textContent`); !strings.HasPrefix(cell, "out of reach: C(n², n) = 103,619,293,824,707,388 candidates, about ") {
		b.t.Fatalf("brute-combinations at N = 12 in the table: %q", cell)
	}

	// The sentences.
	if !eval[bool](b, `(() => { const e = document.querySelector('[data-testid=cost-why]'); const r = e.getBoundingClientRect(); return e.checkVisibility() && r.height > 20 && r.width > 200; })()`) {
		b.t.Fatal("the cost-why sentence is not shown")
	}
	why := eval[map[string]string](b, `Object.fromEntries([...document.querySelectorAll('[data-testid=cost-why] li')].map((li) => [li.dataset.algo, li.textContent]))`)
	sentence := regexp.MustCompile(`at N = (\d+) a (?:try|candidate|placement) (?:reads|costs) ([\d.]+) .* multiplies its (reads|candidates)(?:, .+?,)? by about ([\d.]+) \(N = (\d+) to (\d+)\)\.$`)
	for _, algo := range want {
		m := sentence.FindStringSubmatch(why[algo])
		if m == nil {
			b.t.Fatalf("%s: the sentence %q", algo, why[algo])
		}
		a, _ := classic.Lookup(algo)
		n, _ := strconv.Atoi(m[1])
		from, _ := strconv.Atoi(m[5])
		to, _ := strconv.Atoi(m[6])
		c, err := a.Solve(context.Background(), n, nil)
		if err != nil {
			b.t.Fatal(err)
		}
		if got := fmt.Sprintf("%.1f", float64(c.Reads)/float64(c.Tries)); got != m[2] {
			b.t.Errorf("%s: at N = %d a step reads %s, the page says %s", algo, n, got, m[2])
		}
		work := func(k int) float64 {
			if m[3] == "candidates" {
				f, _ := new(big.Float).SetInt(a.(classic.Estimator).Candidates(k)).Float64()
				return f
			}
			c, err := a.Solve(context.Background(), k, nil)
			if err != nil {
				b.t.Fatal(err)
			}
			return float64(c.Reads)
		}
		if got := fmt.Sprintf("%.1f", math.Pow(work(to)/work(from), 1/float64(to-from))); got != m[4] || to-from < 1 {
			b.t.Errorf("%s: from N = %d to %d its %s grow %s times per N, the page says %s", algo, from, to, m[3], got, m[4])
		}
	}

	for _, chart := range []string{"reads", "time"} {
		type series struct {
			Algo, Dash, Marker string
		}
		got := eval[[]series](b, fmt.Sprintf(`[...document.querySelectorAll('#cost-chart-%s .series-group')].map((g) => ({Algo: g.dataset.algo,
			Dash: g.querySelector('path.series').getAttribute('stroke-dasharray') || '', Marker: g.querySelector('.marker').tagName + (g.querySelector('.marker').getAttribute('class'))}))`, chart))
		seen := map[string]string{}
		for _, s := range got {
			if other, dup := seen[s.Dash+"|"+s.Marker]; dup {
				b.t.Errorf("%s chart: %s and %s have the same marker and dashes", chart, s.Algo, other)
			}
			seen[s.Dash+"|"+s.Marker] = s.Algo
		}
		if chart == "reads" && len(got) != len(want) {
			b.t.Errorf("%d lines in the chart of reads, want %d", len(got), len(want))
		}
		type box struct {
			Name                     string
			Left, Top, Right, Bottom float64
		}
		boxes := eval[[]box](b, fmt.Sprintf(`(() => { const svg = document.querySelector('#cost-chart-%s svg').getBoundingClientRect();
			return [{Name: 'svg', Left: svg.left, Top: svg.top, Right: svg.right, Bottom: svg.bottom},
				...[...document.querySelectorAll('#cost-chart-%s text')].map((t) => { const r = t.getBoundingClientRect(); return {Name: t.textContent, Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}; })]; })()`, chart, chart))
		frame := boxes[0]
		for i, x := range boxes[1:] {
			if x.Left < frame.Left-0.5 || x.Right > frame.Right+0.5 || x.Top < frame.Top-0.5 || x.Bottom > frame.Bottom+0.5 {
				b.t.Errorf("%s chart: %q is cut off (%.0f–%.0f of %.0f–%.0f)", chart, x.Name, x.Left, x.Right, frame.Left, frame.Right)
			}
			for _, y := range boxes[i+2:] {
				if x.Left < y.Right && y.Left < x.Right && x.Top < y.Bottom && y.Top < x.Bottom {
					b.t.Errorf("%s chart: %q and %q overlap", chart, x.Name, y.Name)
				}
			}
			if strings.Contains(x.Name, "^") {
				b.t.Errorf("%s chart: the axis reads %q", chart, x.Name)
			}
		}
	}
	if k := eval[int](b, `[...document.querySelectorAll('#cost-chart-reads text')].filter((t) => /^10[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/.test(t.textContent)).length`); k < 3 {
		b.t.Errorf("the chart of reads has %d powers of ten in superscript", k)
	}
	// Only what was measured: a point a row that ran, none for a row
	// skipped (its estimate is in the table).
	points := eval[int](b, `document.querySelectorAll('#cost-chart-time .series-group .marker').length`)
	ran := eval[int](b, `[...document.querySelectorAll('#cost-table tbody td')].filter((td) => td.textContent && !td.classList.contains('out')).length`)
	if points != ran {
		b.t.Errorf("the time chart has %d points, the table %d measured runs", points, ran)
	}
	b.screenshot("cost")
	eval[bool](b, `(() => { document.querySelector('.cost-charts').scrollIntoView(); return true; })()`)
	b.screenshot("cost-charts")
	checkPhoneAndAxe(b, "cost")
}

// openChapter opens chapter k of the lesson and waits until it is ready.
func openChapter(b *browser, k int) {
	b.t.Helper()
	b.visit(fmt.Sprintf("/?panel=lesson&chapter=%d", k))
	b.waitJS(fmt.Sprintf("chapter %d", k), fmt.Sprintf(`document.getElementById('lesson').dataset.state === 'ready' && document.getElementById('lesson').dataset.chapter === '%d'`, k), 60*time.Second)
	if missing := eval[string](b, `document.getElementById('lesson').innerText.match(/\[lesson\.[^\]]*\]/)?.[0] || ''`); missing != "" {
		b.t.Fatalf("chapter %d shows the key %s", k, missing)
	}
}

// lessonText is what chapter k says, as shown.
func lessonText(b *browser) string {
	return eval[string](b, `document.querySelector('.lesson-text').innerText`)
}

// classesUnder counts the classes of solutions under a group of the
// square's symmetries, by Burnside's lemma, in Go: the lesson's figures
// for article 003's 42 are worked out again here.
func classesUnder(t testing.TB, solutions []board.Placement, group ...board.Symmetry) int {
	fixed := 0
	for _, s := range group {
		for _, p := range solutions {
			q, err := s.Apply(p)
			if err != nil {
				t.Fatal(err)
			}
			if q.Equal(p) {
				fixed++
			}
		}
	}
	return fixed / len(group)
}

// testLessonChapters reads every chapter of the lesson as a learner would and checks
// its numbers against the engine's own outputs, answers its questions, and
// runs axe-core on each chapter.
func testLessonChapters(b *browser) {
	g := func(v uint64) string { return groupDigits(strconv.FormatUint(v, 10)) }
	// 1: the three sizes of the brute force for n = 8.
	openChapter(b, 1)
	text := lessonText(b)
	for _, name := range []string{"brute-combinations", "brute-rows", "permutations"} {
		a, _ := classic.Lookup(name)
		c := a.(classic.Estimator).Candidates(8)
		if !strings.Contains(text, groupDigits(c.String())) {
			b.t.Errorf("chapter 1 does not show the %s candidates of 8, %s: %q", name, groupDigits(c.String()), text)
		}
	}
	for _, want := range []string{"4,426,165,368", "16,777,216", "40,320", "8⁸"} {
		if !strings.Contains(text, want) {
			b.t.Errorf("chapter 1 does not show %s", want)
		}
	}
	// Its question: is the first solution of the permutations of 4 one?
	b.do("ask", chromedp.Click(chromedp.ID("lesson-ask")))
	if s := b.text("lesson-sentence"); !strings.HasSuffix(s, "is it a solution?") || eval[int](b, `document.querySelectorAll('#lesson-board .attacker, #lesson-board svg line').length`) != 0 {
		b.t.Fatalf("the question shows its answer: %q", s)
	}
	b.do("answer yes", chromedp.Click(chromedp.CSS(`#lesson-choices button:first-child`)))
	if s := b.text("lesson-answer"); !strings.HasPrefix(s, "Right.") || !strings.Contains(s, "solution") {
		b.t.Fatalf("chapter 1: answered yes for a solution, the page says %q", s)
	}
	checkAxe(b, "lesson chapter 1")

	// 2 to 6: the backtracking strategies, each with its own counters.
	for k, algo := range map[int]string{2: "backtrack-2d", 3: "backtrack-array", 4: "backtrack-flags", 5: "bitmask", 6: "stack"} {
		openChapter(b, k)
		a, _ := classic.Lookup(algo)
		c, err := a.Solve(context.Background(), 8, nil)
		if err != nil {
			b.t.Fatal(err)
		}
		text := lessonText(b)
		wants := []string{g(c.Reads), fmt.Sprintf("%.1f", float64(c.Reads)/float64(c.Tries))}
		if k == 5 { // bitmask: a placement's reads, as it tries nothing else
			wants = []string{g(c.Reads), g(c.Placed), fmt.Sprintf("%.1f", float64(c.Reads)/float64(c.Placed))}
		}
		if k == 2 {
			wants = append(wants, g(c.Placed), g(c.Tries))
		}
		for _, want := range wants {
			if !strings.Contains(text, want) {
				b.t.Errorf("chapter %d (%s): %s does not appear in %q", k, algo, want, text)
			}
		}
		if k == 6 {
			for _, want := range []string{"2,056", "13,664", g(c.Placed), g(c.Rejected), g(c.Tries)} {
				if !strings.Contains(text, want) {
					b.t.Errorf("chapter 6 does not show %s", want)
				}
			}
		}
		checkAxe(b, fmt.Sprintf("lesson chapter %d", k))
	}

	// The question of chapter 2, answered right, and of chapter 6, wrong:
	// the answer is the library trace's next try.
	for _, tc := range []struct {
		k     int
		algo  string
		n     int
		right bool
	}{{2, "backtrack-2d", 6, true}, {6, "stack", 8, false}} {
		openChapter(b, tc.k)
		b.do("ask", chromedp.Click(chromedp.ID("lesson-ask")))
		at := eval[int](b, `Number(document.getElementById('lesson').dataset.askedAt)`)
		var next classic.Event
		for e := range traceOf(b, tc.algo, tc.n) {
			if int(e.Step) > at && (e.Kind == classic.Place || e.Kind == classic.Reject) {
				next = e
				break
			}
		}
		r, c := next.Row+1, next.Col+1
		if !tc.right {
			c = c%tc.n + 1
		}
		b.do("click the square", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#lesson-board [data-row="%d"][data-col="%d"]`, r, c))))
		ans := b.text("lesson-answer")
		if want := map[bool]string{true: "Right:", false: "Not quite:"}[tc.right]; !strings.HasPrefix(ans, want) || !strings.Contains(ans, fmt.Sprintf("row %d, column %d", next.Row+1, next.Col+1)) {
			b.t.Fatalf("chapter %d: clicked row %d, column %d; the next try is row %d, column %d; the page says %q", tc.k, r, c, next.Row+1, next.Col+1, ans)
		}
	}

	// 7: 92 solutions in 12 classes, and article 003's 42 set against the
	// symmetry groups.
	openChapter(b, 7)
	var sols []board.Placement
	for p, err := range solve.All(8) {
		if err != nil {
			b.t.Fatal(err)
		}
		sols = append(sols, p.Clone())
	}
	text = lessonText(b)
	for _, want := range []string{"92 solutions", "12 classes", "says 42 classes",
		fmt.Sprintf("four turns alone %d", classesUnder(b.t, sols, board.Identity, board.Rotate90, board.Rotate180, board.Rotate270)),
		fmt.Sprintf("half turn alone %d", classesUnder(b.t, sols, board.Identity, board.Rotate180)),
		fmt.Sprintf("one mirror alone %d", classesUnder(b.t, sols, board.Identity, board.MirrorCols))} {
		if !strings.Contains(text, want) {
			b.t.Errorf("chapter 7 does not say %q: %q", want, text)
		}
	}
	checkAxe(b, "lesson chapter 7")

	// 8: the engines, as count.Engine decides.
	openChapter(b, 8)
	text = lessonText(b)
	for _, r := range countEngines() {
		if r.Engine == "join" && !strings.Contains(text, fmt.Sprintf("%d to %d it joins half boards", r.From, r.To)) {
			b.t.Errorf("chapter 8 does not say the join counts %d to %d: %q", r.From, r.To, text)
		}
	}
	b.do("answer", chromedp.Click(chromedp.CSS(`#lesson-choices button:nth-child(2)`)))
	if s := b.text("lesson-answer"); !strings.HasPrefix(s, "Right: Q(13) = 73,712") {
		b.t.Errorf("chapter 8's answer: %q", s)
	}
	checkAxe(b, "lesson chapter 8")

	// 9: the rule by n mod 6, and article 000's board.
	openChapter(b, 9)
	text = lessonText(b)
	p, _ := solve.Construct(8)
	article, _ := solve.ConstructHalf(8)
	list := func(q board.Placement) string { return strings.Trim(fmt.Sprint(q.OneBased()), "[]") }
	if !strings.Contains(text, "mod 6") || !strings.Contains(text, list(article)) || !strings.Contains(text, list(p.Placement())) {
		b.t.Errorf("chapter 9: %q", text)
	}
	checkAxe(b, "lesson chapter 9")
}

// rect is an element's box in the window, in CSS pixels.
type rect struct{ Top, Bottom, Left, Right, W, H float64 }

// boxes measures the elements of ids and the window (as "window").
func boxes(b *browser, ids ...string) map[string]rect {
	b.t.Helper()
	js, _ := json.Marshal(ids)
	return eval[map[string]rect](b, fmt.Sprintf(`(() => {
		const out = {window: {Top: 0, Bottom: window.innerHeight, Left: 0, Right: window.innerWidth, W: window.innerWidth, H: window.innerHeight}};
		for (const id of %s) { const r = document.getElementById(id).getBoundingClientRect(); out[id] = {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, W: r.width, H: r.height}; }
		return out; })()`, js))
}

// inView fails unless every element of ids lies whole inside the window.
func inView(b *browser, what string, ids ...string) {
	b.t.Helper()
	m := boxes(b, ids...)
	w := m["window"]
	for _, id := range ids {
		r := m[id]
		if r.H == 0 || r.Top < -0.5 || r.Bottom > w.H+0.5 || r.Left < -0.5 || r.Right > w.W+0.5 {
			b.t.Errorf("%s at %.0f×%.0f: #%s spans %.0f–%.0f px down, %.0f–%.0f across: not whole in the window", what, w.W, w.H, id, r.Top, r.Bottom, r.Left, r.Right)
		}
	}
}

// testLessonPlayer uses the lesson's player by its buttons: Step and Back
// move one step, and Play runs at the speed its control says: the steps
// shown, read twice on the page's own clock, come at that many a second,
// within a factor of 1.5 (on a loaded machine frames come late, and a
// frame shows every step that has come due since the last one).
func testLessonPlayer(b *browser) {
	openChapter(b, 6)
	b.do("step, step, back", chromedp.Click(chromedp.ID("lesson-step")), chromedp.Click(chromedp.ID("lesson-step")), chromedp.Click(chromedp.ID("lesson-back")))
	if s := b.text("lesson-event"); !strings.HasPrefix(s, "Step 1 of ") {
		b.t.Fatalf("after Step, Step and Back the lesson shows %q", s)
	}
	eval[bool](b, `(() => { const s = document.getElementById('lesson-speed'); s.value = 70; s.dispatchEvent(new Event('input')); return true; })()`)
	speed := math.Round(math.Pow(200, 0.7)) // the control's scale: 0 → 1 step a second, 100 → 200
	want := fmt.Sprintf("%.0f steps a second", speed)
	if s, v := b.text("lesson-speed-value"), eval[string](b, `document.getElementById('lesson-speed').getAttribute('aria-valuetext')`); s != want || v != want {
		b.t.Fatalf("the speed control at 70 says %q (to a screen reader %q), want %q", s, v, want)
	}
	b.do("play", chromedp.Click(chromedp.ID("lesson-play")))
	b.waitJS("a few steps", `document.getElementById('lesson').dataset.playing === 'true' && /^Step ([4-9]|\d\d)/.test(document.getElementById('lesson-event').textContent)`, 20*time.Second)
	sample := func() (step, ms float64) {
		v := eval[[]float64](b, `[Number(document.getElementById('lesson-event').textContent.match(/^Step ([\d,]+)/)[1].replaceAll(',', '')), performance.now()]`)
		return v[0], v[1]
	}
	step0, ms0 := sample()
	time.Sleep(2 * time.Second) // the span sampled; the clock is the page's
	step1, ms1 := sample()
	b.do("pause", chromedp.Click(chromedp.ID("lesson-play")))
	rate := (step1 - step0) / ((ms1 - ms0) / 1000)
	b.t.Logf("the lesson played %.0f steps in %.0f ms: %.1f a second at a speed of %.0f", step1-step0, ms1-ms0, rate, speed)
	if rate < speed/1.5 || rate > speed*1.5 {
		b.t.Errorf("the lesson played %.0f steps in %.0f ms, %.1f a second, at a speed of %.0f a second", step1-step0, ms1-ms0, rate, speed)
	}
}

// testLessonLayout plays chapter 6 at a laptop's and a phone's size: the
// board, the step's sentence and the counters are in view together
// without scrolling while it plays (the phone's first screen shows the
// board).
func testLessonLayout(b *browser) {
	for _, size := range [][2]int64{{1366, 768}, {390, 844}} {
		b.viewport(size[0], size[1])
		openChapter(b, 6)
		if size[0] < 500 {
			// The phone's first screen shows the board.
			inView(b, "chapter 6 at 390×844, before playing", "lesson-board")
		}
		if size[0] > 1000 {
			// The keyboard: → steps, End goes to the end, Home to the start.
			b.do("→ →", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
			if s := b.text("lesson-event"); !strings.HasPrefix(s, "Step 2 of ") {
				b.t.Fatalf("after → → the lesson shows %q", s)
			}
			b.do("End", chromedp.KeyEvent(kb.End))
			steps := 0
			for range traceOf(b, "stack", 8) {
				steps++
			}
			last := groupDigits(strconv.Itoa(steps))
			if s := b.text("lesson-event"); !strings.HasPrefix(s, "Step "+last+" of "+last) {
				b.t.Fatalf("after End the lesson shows %q", s)
			}
			b.do("Home", chromedp.KeyEvent(kb.Home))
		}
		b.do("play", chromedp.Click(chromedp.ID("lesson-play")))
		b.waitJS("a few steps", `document.getElementById('lesson').dataset.playing === 'true' && /^Step [2-9]/.test(document.getElementById('lesson-event').textContent)`, 20*time.Second)
		what := fmt.Sprintf("chapter 6 playing at %d×%d", size[0], size[1])
		// Smooth scrolling, where the board first moves into view, ends.
		b.waitJS("the scroll to end", `(() => { const y = window.scrollY; const same = y === window.lastY; window.lastY = y; return same; })()`, 5*time.Second)
		inView(b, what, "lesson-board", "lesson-sentence", "lesson-counters", "lesson-play")
		b.screenshot(fmt.Sprintf("lesson-6-%dx%d", size[0], size[1]))
		b.do("pause", chromedp.Click(chromedp.ID("lesson-play")))
	}
	b.viewport(1280, 900)
}

// testWatchLayout: the watch panel as the issue measured it. At 1366×768,
// /?n=8&algo=stack&step=200 shows its step sentence whole in the window,
// and while playing the board, the sentence and the counters are in view
// together, at 1366×768 and at 390×844 (where the sticky player covers no
// square of the board); every line of pseudocode is readable whole (it
// wraps, never clipped); at 200 % zoom (1366×768 seen as 683×384 CSS
// pixels) the board fits the window. (The player sticks to the top of a
// phone's screen only.)
func testWatchLayout(b *browser) {
	b.viewport(1366, 768)
	b.visit("/?n=8&algo=stack&step=200")
	b.waitTrace()
	inView(b, "/?n=8&algo=stack&step=200", "watch-sentence")
	b.screenshot("watch-1366x768-step200")
	clipped := eval[[]string](b, `[...document.querySelectorAll('#watch-code li')].filter((li) => li.scrollWidth > li.clientWidth + 1 || li.getBoundingClientRect().right > document.getElementById('watch-code-box').getBoundingClientRect().right + 1).map((li) => li.textContent)`)
	if len(clipped) > 0 {
		b.t.Errorf("lines of pseudocode cut at 1366 px: %q", clipped)
	}
	for _, size := range [][2]int64{{1366, 768}, {390, 844}} {
		b.viewport(size[0], size[1])
		b.visit("/?n=8&algo=stack")
		b.waitTrace()
		setSpeed(b, 30)
		b.do("play", chromedp.Click(chromedp.ID("watch-play")))
		b.waitJS("a few steps", `Number(document.getElementById('watch-timeline').value) > 5`, 20*time.Second)
		b.waitJS("the scroll to end", `(() => { const y = window.scrollY; const same = y === window.lastY; window.lastY = y; return same; })()`, 5*time.Second)
		what := fmt.Sprintf("watch playing at %d×%d", size[0], size[1])
		inView(b, what, "watch-board", "watch-sentence", "watch-counters")
		m := boxes(b, "watch-player", "watch-board")
		if m["watch-player"].Bottom > m["watch-board"].Top+0.5 {
			b.t.Errorf("%s: the player (to %.0f px) covers the board (from %.0f px)", what, m["watch-player"].Bottom, m["watch-board"].Top)
		}
		b.screenshot(fmt.Sprintf("watch-playing-%dx%d", size[0], size[1]))
		b.do("pause", chromedp.Click(chromedp.ID("watch-play")))
	}
	b.viewport(683, 384)
	b.visit("/?n=8&algo=stack&step=200")
	b.waitTrace()
	if m := boxes(b, "watch-board"); m["watch-board"].H > m["window"].H || m["watch-board"].W > m["window"].W {
		b.t.Errorf("at 200 %% zoom the board is %.0f×%.0f px in a window of %.0f×%.0f", m["watch-board"].W, m["watch-board"].H, m["window"].W, m["window"].H)
	}
	b.screenshot("watch-zoom-200")
	b.viewport(1280, 900)
}
