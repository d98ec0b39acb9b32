package web

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
)

// cellBox is a square of the board as Chromium lays it out.
type cellBox struct {
	W, H  float64
	Label string
	Class string
}

// cells measures the squares of the board #id: their boxes and labels.
func cells(b *browser, id string) []cellBox {
	b.t.Helper()
	return eval[[]cellBox](b, fmt.Sprintf(`[...document.querySelectorAll('#%s [role=gridcell]')].map((c) => {
		const r = c.getBoundingClientRect();
		return {W: r.width, H: r.height, Label: c.getAttribute('aria-label') || '', Class: c.className};
	})`, id))
}

// checkSquare checks that board #id shows n×n labelled squares, all square
// and of one size, inside an ARIA grid of n rows.
func checkSquare(b *browser, id string, n int) {
	b.t.Helper()
	cs := cells(b, id)
	if len(cs) != n*n {
		b.t.Fatalf("#%s has %d squares, want %d", id, len(cs), n*n)
	}
	if rows := eval[int](b, fmt.Sprintf(`document.querySelectorAll('#%s[role=grid] > [role=row]').length`, id)); rows != n {
		b.t.Fatalf("#%s is not a grid of %d rows (%d)", id, n, rows)
	}
	for i, c := range cs {
		at := fmt.Sprintf("#%s square (%d, %d)", id, i/n+1, i%n+1)
		if math.Abs(c.W-c.H) > 1 || math.Abs(c.W-cs[0].W) > 1 || c.W < 4 {
			b.t.Fatalf("%s is %.1f×%.1f px, the first %.1f×%.1f: not square", at, c.W, c.H, cs[0].W, cs[0].H)
		}
		if want := fmt.Sprintf("row %d, column %d: ", i/n+1, i%n+1); !strings.HasPrefix(c.Label, want) || len(c.Label) <= len(want) {
			b.t.Fatalf("%s is labelled %q", at, c.Label)
		}
	}
}

// noSideways checks that the page is no wider than the window.
func noSideways(b *browser, what string) {
	b.t.Helper()
	if w := eval[int](b, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		wide := eval[[]string](b, `[...document.querySelectorAll('body *')].filter((e) => e.checkVisibility() && e.getBoundingClientRect().right > window.innerWidth + 0.5 && !(e.parentElement.getBoundingClientRect().right > window.innerWidth + 0.5)).slice(0, 3).map((e) => e.tagName + '#' + e.id + '.' + e.getAttribute('class'))`)
		b.t.Errorf("%s: the page is %d px wider than the window (%q reach past it)", what, w, wide)
	}
}

// markedLine returns the pseudocode lines marked as the current step.
func markedLine(b *browser) []string {
	b.t.Helper()
	return eval[[]string](b, `[...document.querySelectorAll('#watch-code li[aria-current=step]')].map((li) => li.textContent)`)
}

// shownStep is the step the timeline shows (0 for the empty board).
func shownStep(b *browser) int {
	b.t.Helper()
	return eval[int](b, `Number(document.getElementById('watch-timeline').value)`)
}

// waitTrace waits until the watch panel has its whole trace.
func (b *browser) waitTrace() {
	b.t.Helper()
	b.waitJS("the trace", `document.getElementById('watch-status').textContent.includes('steps') && !document.getElementById('watch-status').textContent.startsWith('Loading')`, 30*time.Second)
}

// traceOf is the library's trace of the search by algo on n×n; an error
// fails the test.
func traceOf(b *browser, algo string, n int) iter.Seq[classic.Event] {
	b.t.Helper()
	a, err := classic.Lookup(algo)
	if err != nil {
		b.t.Fatal(err)
	}
	return func(yield func(classic.Event) bool) {
		for e, err := range a.(classic.Tracer).Trace(context.Background(), n) {
			if err != nil {
				b.t.Fatal(err)
			}
			if !yield(e) {
				return
			}
		}
	}
}

// eventAt is the library's event at step of the search by algo on n×n.
func eventAt(b *browser, algo string, n int, step uint64) classic.Event {
	b.t.Helper()
	for e := range traceOf(b, algo, n) {
		if e.Step == step {
			return e
		}
	}
	b.t.Fatalf("%s on %d has no step %d", algo, n, step)
	return classic.Event{}
}

// testGroup checks the page's one thousands grouping on the kinds of
// numbers it gets: numbers, BigInts and the decimal strings of big counts.
func testGroup(b *browser) {
	b.visit("/?n=4")
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`import('./js/text.js').then((t) => [0, 999, 1000, 1234567, -4321, 12345n, 2.5, '100000000000000000000'].map(t.group))`, chromedp.EvalAwaitPromise))
	want := []string{"0", "999", "1,000", "1,234,567", "-4,321", "12,345", "2.5", "100,000,000,000,000,000,000"}
	if err != nil || !slices.Equal(got, want) {
		b.t.Fatalf("group: %q (%v), want %q", got, err, want)
	}
}

// openStep opens the address of a search at a step, and checks that the
// page shows square, labelled cells, the step the library traces and one
// marked pseudocode line.
func openStep(b *browser, where, algo string, n, step int) {
	b.t.Helper()
	openAt(b, where, fmt.Sprintf("/?n=%d&algo=%s&step=%d", n, algo, step), algo, n, step)
}

// openAt is openStep at an address of the caller's.
func openAt(b *browser, where, path, algo string, n, step int) {
	b.t.Helper()
	b.visit(path)
	b.waitJS(where, fmt.Sprintf(`Number(document.getElementById('watch-timeline').value) === %d`, step), 30*time.Second)
	checkSquare(b, "watch-board", n)
	e := eventAt(b, algo, n, uint64(step))
	if got := b.text("watch-event"); !strings.HasPrefix(got, fmt.Sprintf("Step %d of", step)) || !strings.Contains(got, e.Kind.String()) {
		b.t.Fatalf("%s: the step reads %q, the library's step is %v", where, got, e)
	}
	if m := markedLine(b); len(m) != 1 {
		b.t.Fatalf("%s: marked pseudocode lines %q, want one", where, m)
	}
	checkSentence(b, where, e)
}

// checkSentence checks that the step's sentence on the page is the
// library's, and that the marked pseudocode line is the event's.
func checkSentence(b *browser, where string, e classic.Event) {
	b.t.Helper()
	if got := eval[string](b, `document.querySelector('[data-testid=step-sentence]').textContent`); got != e.Text {
		b.t.Fatalf("%s: the step sentence reads %q, the library says %q", where, got, e.Text)
	}
	if got := eval[int](b, `[...document.querySelectorAll('#watch-code li')].findIndex((li) => li.getAttribute('aria-current') === 'step') + 1`); got != e.Line {
		b.t.Fatalf("%s: pseudocode line %d marked, the step runs line %d", where, got, e.Line)
	}
}

// testAcceptance opens the addresses of issue 12's acceptance at a desktop
// and a phone size: each shows exactly its step, square labelled cells and
// a marked pseudocode line, with no sideways scroll.
func testAcceptance(b *browser) {
	for _, vp := range [][2]int64{{1280, 900}, {390, 844}} {
		b.viewport(vp[0], vp[1])
		for _, tc := range []struct {
			algo       string
			n, step    int
			line, kind string
		}{
			{"stack", 8, 133, "", ""},
			{"bitmask", 8, 40, "", ""},
			{"backtrack-flags", 12, 500, "", ""},
		} {
			where := fmt.Sprintf("%d×%d /?n=%d&algo=%s&step=%d", vp[0], vp[1], tc.n, tc.algo, tc.step)
			openStep(b, where, tc.algo, tc.n, tc.step)
			noSideways(b, where)
			if vp[0] == 1280 && tc.algo == "bitmask" {
				b.screenshot("acceptance-bitmask-40")
			}
		}
		b.screenshot(fmt.Sprintf("acceptance-%dx%d", vp[0], vp[1]))
	}
	// The watch panel's former name still opens it, at the step asked, and
	// the address takes the panel's name.
	openAt(b, "/?panel=board", "/?panel=board&n=5&algo=bitmask&step=7", "bitmask", 5, 7)
	b.waitJS("the address of the step", `location.search.includes('step=7')`, 10*time.Second)
	if u := eval[string](b, `location.search`); strings.Contains(u, "board") {
		b.t.Fatalf("/?panel=board&…: the address became %q", u)
	}
}

// testWatchPanel plays the 6-queens stack search with the keyboard to its
// end and checks the counters against the library's; steps back; checks
// that the board stays square at several steps, that the board, the
// pseudocode line and the address follow the step, and that Space on a
// focused Step button steps.
func testWatchPanel(b *browser) {
	b.visit("/?n=6&algo=stack")
	b.waitTrace()
	a, _ := classic.Lookup("stack")
	want, err := a.Solve(context.Background(), 6, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	want.Elapsed = 0
	steps := want.Tries + want.Backtracks + want.Solutions + 1 // and the final step
	if got := b.text("watch-event"); got != fmt.Sprintf("Empty board (%s steps)", classic.Group(steps)) {
		b.t.Fatalf("before playing: %q", got)
	}
	if foreign := eval[[]string](b, `performance.getEntriesByType('resource').map((e) => e.name).filter((u) => !u.startsWith(location.origin + '/'))`); len(foreign) > 0 {
		b.t.Fatalf("the page loaded %q", foreign)
	}

	// Step through the first events: square cells, the right board, the
	// pseudocode line of the event's kind, and the address.
	lines := map[string]string{}
	for k := 1; k <= 12; k++ {
		b.do("press →", chromedp.KeyEvent(kb.ArrowRight))
		if shownStep(b) != k {
			b.t.Fatalf("after %d × →, step %d", k, shownStep(b))
		}
		checkSquare(b, "watch-board", 6)
		checkTraceBoard(b, "stack", 6)
		e := eventAt(b, "stack", 6, uint64(k))
		m := markedLine(b)
		if len(m) != 1 {
			b.t.Fatalf("step %d: marked lines %q", k, m)
		}
		if prev, ok := lines[e.Kind.String()]; ok && prev != m[0] {
			b.t.Fatalf("step %d (%s): marked %q, earlier %s steps marked %q", k, e.Kind, m[0], e.Kind, prev)
		}
		lines[e.Kind.String()] = m[0]
	}
	if len(lines) < 2 || lines["place"] == lines["reject"] {
		b.t.Fatalf("the marked line does not move with the kind of step: %q", lines)
	}
	b.waitJS("the address", `new URLSearchParams(location.search).get('step') === '12'`, 5*time.Second)
	u := eval[string](b, `location.search`)
	if q, _ := url.ParseQuery(strings.TrimPrefix(u, "?")); q.Get("n") != "6" || q.Get("algo") != "stack" {
		b.t.Fatalf("the address is %q", u)
	}

	// Space on the focused Step button steps once, it does not play.
	b.do("focus Step", chromedp.Focus(chromedp.ID("watch-step")))
	b.do("press space", chromedp.KeyEvent(" "))
	time.Sleep(150 * time.Millisecond) // a negative check: time in which space must not start playing
	if st := eval[string](b, `document.getElementById('watch').dataset.state`); shownStep(b) != 13 || st != "paused" {
		b.t.Fatalf("space on the focused Step button: step %d, state %s; want step 13, paused", shownStep(b), st)
	}

	// Space elsewhere plays, the button pauses.
	b.do("untick pause at solutions", chromedp.Click(chromedp.ID("watch-pause-solution")))
	b.do("focus the page", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	b.do("press space", chromedp.KeyEvent(" "))
	b.waitJS("a few steps played", `document.getElementById('watch').dataset.state === 'playing' && Number(document.getElementById('watch-timeline').value) >= 15`, 20*time.Second)
	b.do("click pause", chromedp.Click(chromedp.ID("watch-play")))
	paused := shownStep(b)
	time.Sleep(200 * time.Millisecond) // a negative check: time in which the paused board must not move
	if shownStep(b) != paused || b.text("watch-play") != "▶ Play" {
		b.t.Fatalf("after pausing at %d: step %d, button %q", paused, shownStep(b), b.text("watch-play"))
	}

	// At top speed, play to the end: the counters are the library's.
	setSpeed(b, 100)
	b.do("click play", chromedp.Click(chromedp.ID("watch-play")))
	b.waitJS("the end of the search", `document.getElementById('watch').dataset.state === 'end'`, 60*time.Second)
	if got := shownCounters(b); got != want {
		b.t.Fatalf("counters at the end: %+v, want %+v", got, want)
	}
	b.do("click back, press ← twice and → once", chromedp.Click(chromedp.ID("watch-back")), chromedp.KeyEvent(kb.ArrowLeft+kb.ArrowLeft+kb.ArrowRight))
	if got := uint64(shownStep(b)); got != steps-2 {
		b.t.Fatalf("after back, ←, ←, →: step %d, want %d", got, steps-2)
	}
	at := eventAt(b, "stack", 6, steps-2)
	if got := shownCounters(b); got != at.Counters {
		b.t.Fatalf("counters at step %d: %+v, want %+v", steps-2, got, at.Counters)
	}
	b.do("press Home", chromedp.KeyEvent(kb.Home))
	if shownStep(b) != 0 || !strings.HasPrefix(b.text("watch-event"), "Empty board") {
		b.t.Fatalf("after Home: step %d, %q", shownStep(b), b.text("watch-event"))
	}
	checkSquare(b, "watch-board", 6)

	// A new N typed, then Play: the new board plays, not the old one.
	b.do("type N = 5 and press Play", chromedp.SetValue(chromedp.ID("watch-n"), "5"), chromedp.Click(chromedp.ID("watch-play")))
	b.waitTrace()
	if k := len(cells(b, "watch-board")); k != 25 || !strings.Contains(b.text("watch-status"), "on 5×5") {
		b.t.Fatalf("after typing 5 and Play: %d squares, %q", k, b.text("watch-status"))
	}
	checkPicture(b)
}

// checkPicture shows the 8-queens stack search at a rejected try after the
// first solution, with five queens up and the attacker a few rows up, checks
// it, and saves it (docs/screenshot.png with -update-screenshot).
func checkPicture(b *browser) {
	a, _ := classic.Lookup("stack")
	seq := a.(classic.Tracer).Trace(context.Background(), 8)
	var step uint64
	for e := range seq {
		if e.Kind == classic.Reject && e.Counters.Solutions >= 1 && e.Queens.Queens() >= 5 && e.By.Row < e.Row-2 {
			step = e.Step
			break
		}
	}
	b.visit(fmt.Sprintf("/?n=8&algo=stack&step=%d", step))
	b.waitTrace()
	b.waitJS("the step", fmt.Sprintf(`Number(document.getElementById('watch-timeline').value) === %d`, step), 10*time.Second)
	checkTraceBoard(b, "stack", 8)
	png := b.screenshotOf("watch", chromedp.FullScreenshot(100))
	if *updateScreenshot || os.Getenv("NQUEENS_UPDATE_SCREENSHOT") != "" {
		if err := os.WriteFile(filepath.Join("..", "docs", "screenshot.png"), png, 0o644); err != nil {
			b.t.Fatal(err)
		}
		b.t.Log("rewrote docs/screenshot.png")
	}
}

// setSpeed moves the speed slider as a person drags it.
func setSpeed(b *browser, v int) {
	eval[bool](b, fmt.Sprintf(`(() => { const s = document.getElementById('watch-speed'); s.value = %d; s.dispatchEvent(new Event('input')); return true; })()`, v))
}

// shownCounters reads the counters beside the board.
func shownCounters(b *browser) classic.Counters {
	b.t.Helper()
	return classic.Counters{
		Placed: b.number("watch-counter-placed"), Rejected: b.number("watch-counter-rejected"), Backtracks: b.number("watch-counter-backtracks"),
		Solutions: b.number("watch-counter-solutions"), Nodes: b.number("watch-counter-nodes"), Tries: b.number("watch-counter-tries"), Reads: b.number("watch-counter-reads"),
	}
}

// checkTraceBoard compares the board shown with the library's event of the
// step shown: the queens, the shaded squares (those a queen of another row
// attacks, as board.Check sees it), the rejected square and its attacker
// with the line between them, the queen just placed, and the labels.
func checkTraceBoard(b *browser, algo string, n int) {
	b.t.Helper()
	step := shownStep(b)
	if step == 0 {
		return
	}
	e := eventAt(b, algo, n, uint64(step))
	cs := cells(b, "watch-board")
	for r := range n {
		for c := range n {
			cell := cs[r*n+c]
			has := map[string]bool{}
			for _, cl := range strings.Fields(cell.Class) {
				has[cl] = true
			}
			at := fmt.Sprintf("step %d (%v), square (%d, %d) %q %q", step, e, r+1, c+1, cell.Class, cell.Label)
			queen := int(e.Queens[r]) == c
			rejected := e.Kind == classic.Reject && r == e.Row && c == e.Col
			attacker := e.Kind == classic.Reject && r == e.By.Row && c == e.By.Col
			placed := e.Kind == classic.Place && r == e.Row && c == e.Col
			switch {
			case has["queen"] != queen:
				b.t.Errorf("%s: queen shown %v", at, has["queen"])
			case !queen && has["attacked"] != attackedBy(e.Queens, r, c):
				b.t.Errorf("%s: shaded %v", at, has["attacked"])
			case has["rejected"] != rejected || has["attacker"] != attacker || has["placed"] != placed:
				b.t.Errorf("%s: want rejected %v, attacker %v, placed %v", at, rejected, attacker, placed)
			case queen && !strings.Contains(cell.Label, "queen"), rejected && !strings.Contains(cell.Label, fmt.Sprintf("attacked by the queen in row %d", e.By.Row+1)):
				b.t.Errorf("%s: label", at)
			}
		}
	}
	lines := eval[[][4]float64](b, `[...document.querySelectorAll('#watch-board svg line')].map((l) => ['x1','y1','x2','y2'].map((a) => Number(l.getAttribute(a))))`)
	if e.Kind == classic.Reject {
		want := [4]float64{float64(e.By.Col) + .5, float64(e.By.Row) + .5, float64(e.Col) + .5, float64(e.Row) + .5}
		if len(lines) != 1 || lines[0] != want {
			b.t.Errorf("step %d: lines %v, want one from the attacker to the try %v", step, lines, want)
		}
	} else if len(lines) != 0 {
		b.t.Errorf("step %d (%s): lines %v, want none", step, e.Kind, lines)
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

// testTimeline jumps with the slider, plays until the first solution (the
// player pauses there), lists the solutions found and jumps to one by a
// click, and jumps to a node of the search tree.
func testTimeline(b *browser) {
	b.visit("/?n=6&algo=backtrack-array")
	b.waitTrace()
	a, _ := classic.Lookup("backtrack-array")
	seq := a.(classic.Tracer).Trace(context.Background(), 6)
	var sols []uint64
	for e := range seq {
		if e.Kind == classic.Solution {
			sols = append(sols, e.Step)
		}
	}
	// The slider jumps anywhere.
	eval[bool](b, `(() => { const s = document.getElementById('watch-timeline'); s.value = 100; s.dispatchEvent(new Event('input')); return true; })()`)
	if shownStep(b) != 100 || !strings.HasPrefix(b.text("watch-event"), "Step 100 of") {
		b.t.Fatalf("after moving the slider to 100: step %d, %q", shownStep(b), b.text("watch-event"))
	}
	checkTraceBoard(b, "backtrack-array", 6)
	if s := b.text("watch-solutions-note"); uint64(100) < sols[0] && !strings.Contains(s, "No solution yet") {
		b.t.Fatalf("before the first solution the note reads %q", s)
	}
	// Play at top speed: it pauses at the first solution.
	setSpeed(b, 100)
	b.do("play", chromedp.Click(chromedp.ID("watch-play")))
	b.waitJS("the pause", `document.getElementById('watch').dataset.state === 'paused'`, 30*time.Second)
	if got := uint64(shownStep(b)); got != sols[0] || !strings.Contains(b.text("watch-event"), "solution 1") {
		b.t.Fatalf("play paused at step %d (%q), the first solution is step %d", got, b.text("watch-event"), sols[0])
	}
	if !eval[bool](b, `document.getElementById('watch-board').classList.contains('solved')`) {
		b.t.Fatal("the board of a solution is not marked solved")
	}
	// Play on: it pauses at the second; the list holds both; click the first.
	b.do("play on", chromedp.Click(chromedp.ID("watch-play")))
	b.waitJS("the second pause", fmt.Sprintf(`document.getElementById('watch').dataset.state === 'paused' && Number(document.getElementById('watch-timeline').value) === %d`, sols[1]), 30*time.Second)
	if got := eval[[]string](b, `[...document.querySelectorAll('#watch-solutions button')].map((b) => b.textContent)`); len(got) != 2 {
		b.t.Fatalf("solutions listed: %q", got)
	}
	b.do("click the first solution", chromedp.Click(chromedp.CSS(`#watch-solutions li:first-child button`)))
	if got := uint64(shownStep(b)); got != sols[0] {
		b.t.Fatalf("clicking the first solution shows step %d, want %d", got, sols[0])
	}
	// The tree is drawn whole at this size; a click on a node goes to its step.
	nodes := eval[[]int](b, `[...document.querySelectorAll('#watch-tree [data-step]')].map((g) => Number(g.dataset.step))`)
	if len(nodes) < 10 || !slices.Contains(nodes, int(sols[0])-1) {
		b.t.Fatalf("the tree at the first solution has nodes at steps %v", nodes)
	}
	if n := eval[int](b, `document.querySelectorAll('#watch-tree .node.solution').length`); n != 1 {
		b.t.Fatalf("%d solution nodes in the tree at the first solution", n)
	}
	target := nodes[len(nodes)/3]
	b.do("click a node", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#watch-tree [data-step="%d"] circle`, target))))
	if shownStep(b) != target {
		b.t.Fatalf("clicking the node of step %d shows step %d", target, shownStep(b))
	}
	// A large tree is drawn bounded, the rest folded and said so.
	b.visit("/?n=10&algo=stack&step=5000")
	b.waitJS("step 5000", `Number(document.getElementById('watch-timeline').value) === 5000`, 20*time.Second)
	if n := eval[int](b, `document.querySelectorAll('#watch-tree [data-step]').length`); n > 200 || n < 5 {
		b.t.Fatalf("the tree at step 5000 of 10 queens draws %d nodes", n)
	}
	if s := b.text("watch-tree-summary"); !strings.Contains(s, "folded") {
		b.t.Fatalf("the tree summary reads %q", s)
	}
	// N = 20: the steps the page plays hold no solution, and it says so.
	b.visit("/?n=20&algo=bitmask")
	b.waitTrace()
	b.do("press End", chromedp.KeyEvent(kb.End))
	if s := b.text("watch-solutions-note"); !strings.Contains(s, "hold no solution") {
		b.t.Fatalf("at the end of the played part of N = 20 the note reads %q", s)
	}
}

// testStrategies checks that the list offers every traceable strategy of
// the library, that each shows its own data beside the board, and that
// each, taken to its last step, shows the counters of the library's search.
func testStrategies(b *browser) {
	views := map[string]string{
		"backtrack-2d": "table.grid2d", "backtrack-array": "table.bits", "backtrack-flags": "table.flags",
		"backtrack-flags-iterative": "table.flags", "stack": "ol.frames", "bitmask": "table.masks",
	}
	b.visit("/?n=6")
	// The list offers what the server says it can trace: every backtracking
	// strategy, and the brute-force ones candidate by candidate.
	res, err := http.Get(b.base + "/api/algorithms")
	if err != nil {
		b.t.Fatal(err)
	}
	var algos []algorithmJSON
	err = json.NewDecoder(res.Body).Decode(&algos)
	res.Body.Close()
	if err != nil {
		b.t.Fatal(err)
	}
	var names, traceable []string
	for _, a := range algos {
		if a.Traceable {
			traceable = append(traceable, a.Name)
		}
	}
	for _, a := range classic.All() {
		if _, ok := a.(classic.Tracer); ok {
			names = append(names, a.Name())
		}
	}
	if got := eval[[]string](b, `[...document.querySelectorAll('#watch-algo option')].map((o) => o.value)`); !slices.Equal(got, traceable) || len(got) < len(names) {
		b.t.Fatalf("the strategy list offers %q, want the traceable strategies %q", got, traceable)
	}
	if slices.Contains(traceable, "brute-rows") {
		testBruteForce(b)
	}
	for _, name := range names {
		a, _ := classic.Lookup(name)
		want, err := a.Solve(context.Background(), 6, nil)
		if err != nil {
			b.t.Fatal(err)
		}
		want.Elapsed = 0
		b.visit("/?n=6&algo=" + name + "&step=9")
		b.waitTrace()
		if sel, ok := views[name]; !ok || !eval[bool](b, fmt.Sprintf(`!!document.querySelector('#watch-data %s')`, sel)) {
			b.t.Errorf("%s: its data (%s) is not shown", name, sel)
		}
		if code := b.text("watch-code"); !strings.Contains(b.text("watch-code-title"), name) || len(code) < 40 {
			b.t.Errorf("%s: pseudocode %q", name, code)
		}
		b.do("press End", chromedp.KeyEvent(kb.End))
		if got := shownCounters(b); got != want {
			b.t.Errorf("%s: counters at the end %+v, want %+v", name, got, want)
		}
	}
	// Hovering a square names its three flags.
	b.visit("/?n=6&algo=backtrack-flags&step=3")
	b.do("hover (2, 5)", chromedp.Evaluate[chromedp.Void](`document.querySelector('#watch-board [data-row="2"][data-col="5"]').dispatchEvent(new PointerEvent('pointerover', {bubbles: true}))`))
	if s := b.text("watch-data"); !strings.Contains(s, "Row 2, column 5 → cols[5], diag[3], anti[6]") {
		b.t.Fatalf("hovering (2, 5): %q", s)
	}
}

// testBruteForce shows a brute-force search: the candidate tested, how many
// remain, the pair of queens that fails it joined by a line.
func testBruteForce(b *browser) {
	b.visit("/?n=8&algo=brute-rows&step=1000")
	b.waitJS("step 1000", `Number(document.getElementById('watch-timeline').value) === 1000`, 20*time.Second)
	tr, _ := classic.Lookup("brute-rows")
	seq := tr.(classic.CandidateTracer).TraceCandidates(context.Background(), 8)
	var e classic.Event
	for e = range seq {
		if e.Step == 1000 {
			break
		}
	}
	if s := b.text("watch-data"); !strings.Contains(s, "Candidate 1,000 of 16,777,216; 16,776,216 remain.") || !strings.Contains(s, e.Queens.String()) {
		b.t.Fatalf("brute-rows at candidate 1000 (%v): %q", e, s)
	}
	if q := eval[int](b, `document.querySelectorAll('#watch-board .cell.queen').length`); q != 8 || eval[int](b, `document.querySelectorAll('#watch-board svg line').length`) != 1 {
		b.t.Fatalf("brute-rows candidate 1000: %d queens shown", q)
	}
	if m := markedLine(b); len(m) != 1 || !strings.Contains(m[0], "two queens share") {
		b.t.Fatalf("brute-rows candidate 1000: marked line %q", m)
	}
	checkSquare(b, "watch-board", 8)
	b.visit("/?n=4&algo=brute-combinations&step=1")
	b.waitJS("step 1", `Number(document.getElementById('watch-timeline').value) === 1`, 20*time.Second)
	if q := eval[[]string](b, `[...document.querySelectorAll('#watch-board .cell.queen')].map((c) => c.dataset.row + ',' + c.dataset.col)`); !slices.Equal(q, []string{"1,1", "1,2", "1,3", "1,4"}) {
		b.t.Fatalf("brute-combinations candidate 1 shows queens at %q", q)
	}
	if s := b.text("watch-sentence"); !strings.Contains(s, "share a row") {
		b.t.Fatalf("brute-combinations candidate 1: %q", s)
	}
}

// testLiveRegion plays fast for two seconds and counts the announcements:
// at most one a second while playing.
func testLiveRegion(b *browser) {
	b.visit("/?n=8&algo=stack")
	b.waitTrace()
	b.do("untick pause at solutions", chromedp.Click(chromedp.ID("watch-pause-solution")))
	eval[bool](b, `(() => { window.liveChanges = 0; new MutationObserver(() => window.liveChanges++).observe(document.getElementById('watch-live'), {childList: true, characterData: true, subtree: true}); return true; })()`)
	setSpeed(b, 100)
	b.do("play", chromedp.Click(chromedp.ID("watch-play")))
	time.Sleep(2500 * time.Millisecond) // the rate under test (a change a second at most) needs real seconds
	changes := eval[int](b, `window.liveChanges`)
	played := shownStep(b)
	b.do("pause", chromedp.Click(chromedp.ID("watch-play")))
	if played < 1000 || changes > 4 {
		b.t.Fatalf("%d steps played in 2.5 s with %d announcements; want many steps and at most one announcement a second", played, changes)
	}
	if got := b.text("watch-live"); !strings.Contains(got, fmt.Sprintf("Step %s of", classic.Group(uint64(shownStep(b))))) {
		b.t.Fatalf("after pausing the live region says %q", got)
	}
}

// testInvalidInput types bad values in every N field: each shows a message
// beside the field and sends nothing to the server.
func testInvalidInput(b *browser) {
	for _, tc := range []struct {
		panel, field, value, action, want string
	}{
		{"watch", "watch-n", "21", "#watch-form button[type=submit]", "out of range"},
		{"watch", "watch-n", "-1", "#watch-form button[type=submit]", "out of range"},
		{"watch", "watch-n", "2.5", "#watch-form button[type=submit]", "whole number"},
		{"gallery", "gallery-n", "13", "#gallery-show", "out of range"},
		{"count", "count-n", "99", "#count-start", "out of range"},
		{"huge", "huge-n", "0", "#huge-go", "out of range"},
		{"complete", "complete-n", "1000", "#complete-clear", "out of range"},
		{"complete", "complete-n", "-1", "#complete-clear", "out of range"},
	} {
		b.open(tc.panel)
		time.Sleep(100 * time.Millisecond) // let the panel's own first requests end
		before := b.log.len()
		b.do("type "+tc.value, chromedp.SetValue(chromedp.ID(tc.field), tc.value), chromedp.Click(chromedp.CSS(tc.action)))
		time.Sleep(100 * time.Millisecond) // a negative check: time for a request the page must not send
		msg := eval[string](b, fmt.Sprintf(`(document.getElementById('%s-error') || {}).textContent || ''`, tc.field))
		if !strings.Contains(msg, tc.want) || eval[string](b, fmt.Sprintf(`document.getElementById(%q).getAttribute('aria-invalid')`, tc.field)) != "true" {
			b.t.Errorf("%s = %s: message %q", tc.field, tc.value, msg)
		}
		if sent := b.log.since(before); len(sent) > 0 {
			b.t.Errorf("%s = %s sent %q", tc.field, tc.value, sent)
		}
		if tc.panel == "complete" {
			if k := eval[int](b, `document.querySelectorAll('#complete-board [role=gridcell]').length`); k > 32*32 {
				b.t.Errorf("%s = %s: the board has %d squares", tc.field, tc.value, k)
			}
		}
		b.do("fix the field", chromedp.SetValue(chromedp.ID(tc.field), "8"))
	}
}

// testLesson checks what the trace panel teaches: the last step of a whole
// search (step=end) says it is over with the count; each strategy's own
// data is the library's at that step (the 2-D scan drawn on the board, the
// bitmask's words); the navigation buttons and keys reach the next
// placement, backtrack and solution; the solutions are marked under the
// slider.
func testLesson(b *browser) {
	b.visit("/?n=8&algo=stack&step=end")
	b.waitTrace()
	last := eventAt(b, "stack", 8, uint64(shownStep(b)))
	if last.Kind != classic.Done || !strings.Contains(b.text("watch-sentence"), "92 solutions") {
		b.t.Fatalf("step=end shows step %d (%v): %q", shownStep(b), last, b.text("watch-sentence"))
	}
	checkSentence(b, "step=end", last)

	// backtrack-2d: a reject reached by a scan up a diagonal draws the cells
	// read, one dashed line a direction, and the attack line.
	var scanStep classic.Event
	tr, _ := classic.Lookup("backtrack-2d")
	for e := range tr.(classic.Tracer).Trace(context.Background(), 6) {
		if e.Kind == classic.Reject && e.Scan.Diagonal > 0 && e.Scan.AntiDiagonal > 0 {
			scanStep = e
			break
		}
	}
	openStep(b, "2-D scan", "backtrack-2d", 6, int(scanStep.Step))
	if k := eval[int](b, `document.querySelectorAll('#watch-board svg line.scan').length`); k != 3 {
		b.t.Fatalf("backtrack-2d step %d (%v): %d scan lines, want 3", scanStep.Step, scanStep.Scan, k)
	}

	// bitmask: the current call's words are the event's.
	openStep(b, "bitmask", "bitmask", 6, 20)
	e := eventAt(b, "bitmask", 6, 20)
	row := eval[[]string](b, `[...document.querySelectorAll('#watch-data tr.now td')].map((td) => td.textContent)`)
	js, _ := json.Marshal(e)
	var m struct{ Masks map[string]string }
	json.Unmarshal(js, &m)
	if want := []string{m.Masks["cols"], m.Masks["ld"], m.Masks["rd"], m.Masks["free"]}; !slices.Equal(row, want) {
		b.t.Fatalf("bitmask step 20 (%s): the current call shows %q, want %q", e.Text, row, want)
	}

	// Navigation: S from the start goes to the first solution, B to the
	// first backtrack after it, Shift+P to the placement before.
	b.visit("/?n=6&algo=backtrack-flags")
	b.waitTrace()
	var firstSol, backAfter, placeBefore uint64
	tr, _ = classic.Lookup("backtrack-flags")
	var events []classic.Event
	for e := range tr.(classic.Tracer).Trace(context.Background(), 6) {
		events = append(events, e)
	}
	for _, e := range events {
		if firstSol == 0 && e.Kind == classic.Solution {
			firstSol = e.Step
		}
		if firstSol != 0 && backAfter == 0 && e.Kind == classic.Remove {
			backAfter = e.Step
		}
	}
	for _, e := range events[:backAfter-1] {
		if e.Kind == classic.Place {
			placeBefore = e.Step
		}
	}
	b.do("press S", chromedp.KeyEvent("s"))
	if got := uint64(shownStep(b)); got != firstSol {
		b.t.Fatalf("S goes to step %d, the first solution is step %d", got, firstSol)
	}
	b.do("click backtrack ▶", chromedp.Click(chromedp.ID("watch-next-backtrack")))
	if got := uint64(shownStep(b)); got != backAfter {
		b.t.Fatalf("backtrack ▶ goes to step %d, want %d", got, backAfter)
	}
	b.do("press Shift+P", chromedp.KeyEvent("P"))
	if got := uint64(shownStep(b)); got != placeBefore {
		b.t.Fatalf("Shift+P goes to step %d, want %d", got, placeBefore)
	}
	if k := eval[int](b, `document.querySelectorAll('#watch-marks .tick').length`); k != 4 {
		b.t.Fatalf("%d solutions marked under the slider, want 4", k)
	}
}

// checkPhoneAndAxe checks a panel as shown, at the desktop size and on a
// 390 px phone screen: axe-core's rules, and no sideways scroll there.
func checkPhoneAndAxe(b *browser, panel string) {
	b.t.Helper()
	checkAxe(b, "the "+panel+" panel")
	b.viewport(390, 844)
	noSideways(b, panel+" panel at 390 px")
	checkAxe(b, "the "+panel+" panel at 390 px")
	b.screenshot(panel + "-phone")
	b.viewport(1280, 900)
}
