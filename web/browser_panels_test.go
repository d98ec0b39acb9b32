package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/complete"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/solve"
)

// testGalleryPanel shows the 92 solutions of 8 queens in 12 classes, each
// board captioned with the symmetry that maps it onto its class's
// representative, which the library confirms; a board opens large.
func testGalleryPanel(b *browser) {
	b.open("gallery")
	b.waitJS("the gallery", `document.querySelectorAll('.thumb').length > 0`, 20*time.Second)
	if s := b.text("gallery-summary"); !strings.Contains(s, "92 solutions of the 8×8 board in 12 symmetry classes") {
		b.t.Fatalf("summary %q", s)
	}
	type thumb struct {
		Class  int
		Queens string
		Sym    string
		Rep    string
	}
	thumbs := eval[[]thumb](b, `[...document.querySelectorAll('.class')].flatMap((cls, i) => [...cls.querySelectorAll('.thumb-fig')].map((f) => ({
		Class: i + 1, Queens: f.querySelector('button').getAttribute('aria-label').match(/solution ([\d ]+):/)[1],
		Sym: f.querySelector('figcaption').dataset.symmetry, Rep: cls.querySelector('h3').textContent.match(/representative ([\d ]+)$/)[1]})))`)
	if len(thumbs) != 92 {
		b.t.Fatalf("%d boards drawn, want 92", len(thumbs))
	}
	reps := map[string]bool{}
	for _, th := range thumbs {
		reps[th.Rep] = true
		p, err1 := board.Parse(th.Queens, board.List)
		rep, err2 := board.Parse(th.Rep, board.List)
		sym, err3 := board.ParseSymmetry(th.Sym)
		if err := errors.Join(err1, err2, err3); err != nil {
			b.t.Fatalf("class %d board %q: %v", th.Class, th.Queens, err)
		}
		img := board.New(8)
		for r, c := range p {
			r2, c2 := sym.Map(8, r, int(c))
			img[r2] = int32(c2)
		}
		if !img.Equal(rep) {
			b.t.Fatalf("class %d: %s maps %s to %s, not to the representative %s", th.Class, th.Sym, th.Queens, img, th.Rep)
		}
	}
	if len(reps) != 12 || eval[int](b, `document.querySelectorAll('.thumb.canonical').length`) != 12 {
		b.t.Fatalf("%d representatives", len(reps))
	}
	// Each heading names the size of its class, the boards drawn under it.
	for i, h := range eval[[]string](b, `[...document.querySelectorAll('.class h3')].map((h) => h.textContent)`) {
		drawn := 0
		for _, th := range thumbs {
			if th.Class == i+1 {
				drawn++
			}
		}
		if want := fmt.Sprintf("Class %d: %d board", i+1, drawn); !strings.HasPrefix(h, want) {
			b.t.Fatalf("heading %q, want %q…", h, want)
		}
	}
	b.screenshot("gallery")
	b.do("click a board", chromedp.Click(chromedp.CSS(`#gallery-classes .class:nth-child(2) .thumb-fig:nth-child(3) button`)))
	b.waitJS("the large board", `document.getElementById('gallery-dialog').open`, 10*time.Second)
	checkSquare(b, "gallery-board", 8)
	if got := b.text("gallery-dialog-list"); got != thumbs[eval[int](b, `document.querySelector('.class').querySelectorAll('.thumb-fig').length`)+2].Queens {
		b.t.Fatalf("the large view lists %q", got)
	}
	b.do("close with Escape", chromedp.KeyEvent(kb.Escape))
	b.waitJS("the dialog to close", `!document.getElementById('gallery-dialog').open`, 5*time.Second)
}

// serverCountJobs lists the states of the server's count jobs for n.
func serverCountJobs(b *browser, n int) []string {
	b.srv.counts.mu.Lock()
	defer b.srv.counts.mu.Unlock()
	var states []string
	for _, j := range b.srv.counts.jobs {
		if j.n == n {
			states = append(states, j.status().State)
		}
	}
	return states
}

// countPublished counts n in the Count panel and checks the numbers shown
// against the published ones.
func countPublished(b *browser, n int) {
	b.t.Helper()
	row, ok, err := reference.Get(n)
	if err != nil || !ok {
		b.t.Fatalf("no published count for %d: %v", n, err)
	}
	b.do(fmt.Sprintf("count %d", n), chromedp.SetValue(chromedp.ID("count-n"), strconv.Itoa(n)), chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("the count", fmt.Sprintf(`document.getElementById('count').dataset.state === 'done' && document.getElementById('count-status').textContent.startsWith('Counted N = %d ')`, n), 60*time.Second)
	if total, unique := b.number("count-total"), b.number("count-unique"); total != row.Total.Uint64() || unique != row.Unique.Uint64() {
		b.t.Fatalf("count %d shows %d solutions, %d classes; published: %s, %s", n, total, unique, row.Total, row.Unique)
	}
	if ref := b.text("count-reference"); !strings.HasPrefix(ref, "matches") {
		b.t.Fatalf("reference check %q", ref)
	}
}

// checkCountEngine checks that the Count panel says which engine counted n
// (count.Engine) and names its work as that engine's unit, with a link to
// the lesson's chapter on counting, and never calls the join a bitmask
// search.
func checkCountEngine(b *browser, n int) {
	b.t.Helper()
	engine := count.Engine(n)
	how, work := b.text("count-how"), eval[string](b, `document.getElementById('count-nodes').previousElementSibling.textContent`)
	want := map[string][2]string{
		count.EngineJoin: {"join of half boards", "pairs of half boards compared"},
		count.EngineTree: {"tree search", "nodes of the search tree"},
	}[engine]
	if !strings.Contains(how, fmt.Sprintf("N = %d is counted by the %s", n, want[0])) || work != want[1] ||
		(engine == count.EngineJoin && strings.Contains(how, "bitmask")) || !eval[bool](b, `document.getElementById('count-how').checkVisibility()`) {
		b.t.Fatalf("N = %d (counted by the %s engine): the panel says %q and calls its work %q", n, engine, how, work)
	}
	if href := eval[string](b, `document.querySelector('#count-how a').getAttribute('href')`); href != "?panel=lesson&chapter=8" {
		b.t.Fatalf("the Count panel links to %q, not to the lesson's chapter on counting", href)
	}
}

// testCountPanel counts 11 and 16 queens and checks the results against the
// published counts, and that the panel names the engine of each and its
// work; then double-clicks Count for a long count, which starts one job,
// shows an estimate of the time left, and cancels it from the page.
func testCountPanel(b *browser) {
	b.open("count")
	countPublished(b, 11)
	checkCountEngine(b, 11)
	countPublished(b, 16)
	checkCountEngine(b, 16)

	holdCount(b.t, 18)
	b.do("double-click Count for 18", chromedp.SetValue(chromedp.ID("count-n"), "18"), chromedp.DoubleClick(chromedp.ID("count-start")))
	b.waitJS("an estimate of the time left", `document.getElementById('count').dataset.state === 'running' && /about .* left/.test(document.getElementById('count-eta').textContent)`, 30*time.Second)
	if states := serverCountJobs(b, 18); len(states) != 1 {
		b.t.Fatalf("a double click started %d count jobs", len(states))
	}
	if !eval[bool](b, `document.getElementById('count-start').disabled`) || eval[bool](b, `document.getElementById('count-result').checkVisibility()`) {
		b.t.Fatal("while counting, Count is enabled or the previous result is shown")
	}
	b.screenshot("count-running")
	b.do("cancel", chromedp.Click(chromedp.ID("count-cancel")))
	b.waitJS("the cancellation", `document.getElementById('count').dataset.state === 'cancelled' && document.getElementById('count-status').textContent.includes('Cancelled')`, 20*time.Second)
	if states := serverCountJobs(b, 18); len(states) != 1 || states[0] != stateCancelled {
		b.t.Fatalf("server-side count jobs for 18: %v, want one cancelled", states)
	}
}

// testHugePanel solves a random board of 10^6 queens, shows its density
// picture, and checks that the download link gives that same, valid board.
func testHugePanel(b *browser) {
	solveHuge(b, 1_000_000, 7)
	res, err := http.Get(eval[string](b, `document.getElementById('huge-dl-list').href`))
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	checkRandomBoard(b, body, 1_000_000, 7)
	b.screenshot("huge")
}

// solveHuge solves a random board of n queens in the Huge N panel and
// checks the picture drawn.
func solveHuge(b *browser, n, seed int) {
	b.t.Helper()
	b.open("huge")
	b.do(fmt.Sprintf("solve %d at random", n), chromedp.SetValue(chromedp.ID("huge-n"), strconv.Itoa(n)),
		chromedp.SetValue(chromedp.ID("huge-method"), "random"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('huge-method').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(chromedp.ID("huge-seed"), strconv.Itoa(seed)),
		chromedp.Click(chromedp.ID("huge-go")))
	b.waitJS("the picture", `document.getElementById('huge').dataset.state === 'done'`, 60*time.Second)
	if w := eval[int](b, `document.getElementById('huge-img').naturalWidth`); w < 500 || w > 1024 {
		b.t.Fatalf("picture is %d px wide", w)
	}
}

// checkRandomBoard checks that the list downloaded is the valid board of n
// queens that the seed gives.
func checkRandomBoard(b *browser, list []byte, n int, seed uint64) {
	b.t.Helper()
	p, err := board.Parse(string(list), board.List)
	if err != nil || len(p) != n || board.Verify(p) != nil {
		b.t.Fatalf("downloaded board: %v, %d rows", err, len(p))
	}
	want, _ := solve.Random(context.Background(), n, solve.RandomOptions{Seed: seed})
	if !p.Equal(want) {
		b.t.Fatal("the download is not the seed's board")
	}
}

// square is the selector of a square of the completion board, 1-based.
func square(r, c int) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`#complete-board [data-row="%d"][data-col="%d"]`, r, c))
}

// setBoard sets the board size and clicks the queens and the blocked
// squares of Try it.
func setBoard(b *browser, n int, queens, blocked [][2]int) {
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
	b.do("queen mode", chromedp.Click(chromedp.CSS(`input[name=complete-mode][value=queen]`)))
	if got := eval[int](b, `document.querySelectorAll('#complete-board .cell.blocked').length`); got != len(blocked) {
		b.t.Fatalf("%d squares shown blocked, want %d", got, len(blocked))
	}
}

// partialOf is the board of queens and blocked squares (1-based) for the
// library.
func partialOf(n int, queens, blocked [][2]int) board.Partial {
	p := board.Partial{Queens: board.New(n)}
	for _, q := range queens {
		p.Queens[q[0]-1] = int32(q[1] - 1)
	}
	for _, x := range blocked {
		p.Blocked = append(p.Blocked, board.Square{Row: x[0] - 1, Col: x[1] - 1})
	}
	return p
}

// fromBoard is the library's search by algo started from p: its events.
func fromBoard(b *browser, algo string, p board.Partial) []classic.Event {
	b.t.Helper()
	a, _ := classic.Lookup(algo)
	var events []classic.Event
	for e, err := range a.(classic.Completer).TraceFrom(context.Background(), p) {
		if err != nil {
			b.t.Fatal(err)
		}
		events = append(events, e)
	}
	return events
}

// completeAs sets the board and the strategy, presses Complete from here
// and follows the search in the player: it starts where the learner's
// queens above stand, plays (at full speed) to its first solution or its
// end, which is the library's, and Back to your board returns the panel's
// state.
func completeAs(b *browser, algo string, n int, queens, blocked [][2]int) string {
	b.t.Helper()
	setBoard(b, n, queens, blocked)
	b.do("choose "+algo, chromedp.SetValue(chromedp.ID("complete-algo"), algo))
	b.do("full speed", chromedp.SetValue(chromedp.ID("watch-speed"), "100"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('watch-speed').dispatchEvent(new Event('input'))`))
	b.do("complete", chromedp.Click(chromedp.ID("complete-go")))
	b.waitJS("the player", `!document.getElementById('watch').hidden && !document.getElementById('watch-from').hidden`, 20*time.Second)
	b.waitJS("the first solution or the end", `['paused', 'end'].includes(document.getElementById('watch').dataset.state) && !document.getElementById('watch-status').textContent.startsWith('Loading')`, 30*time.Second)
	events := fromBoard(b, algo, partialOf(n, queens, blocked))
	first := slices.IndexFunc(events, func(e classic.Event) bool { return e.Kind == classic.Solution })
	want := len(events)
	if first >= 0 {
		want = first + 1
	}
	if got := shownStep(b); got != want {
		b.t.Fatalf("%s from %v blocked %v: the player stops at step %d, the library's first solution or end is step %d", algo, queens, blocked, got, want)
	}
	checkSentence(b, fmt.Sprintf("%s from %v blocked %v", algo, queens, blocked), events[want-1])
	for _, q := range queens {
		if first >= 0 && q[0] > 1 && eval[int](b, fmt.Sprintf(`document.querySelectorAll('#watch-board [data-row="%d"][data-col="%d"].queen').length`, q[0], q[1])) != 1 {
			b.t.Fatalf("the solution shown has no queen on the learner's square %v", q)
		}
	}
	if k := eval[int](b, `document.querySelectorAll('#watch-board .cell.blocked').length`); k != len(blocked) {
		b.t.Fatalf("the player shows %d blocked squares, want %d", k, len(blocked))
	}
	b.screenshot(fmt.Sprintf("complete-player-%s-%d", algo, n))
	b.do("back to the board", chromedp.Click(chromedp.ID("watch-from-back")))
	b.waitJS("the answer", `!document.getElementById('complete').hidden && ['solved', 'none', 'editing'].includes(document.getElementById('complete').dataset.state)`, 20*time.Second)
	if first >= 0 && b.text("complete-list") != events[first].Queens.String() {
		b.t.Fatalf("Try it shows %q, the search's first solution is %v", b.text("complete-list"), events[first].Queens)
	}
	return eval[string](b, `document.getElementById('complete').dataset.state`)
}

// checkHint asks for a hint and checks it against the library: the first
// try of algo's search from the board in a row without a learner's queen,
// its square marked (a rejected one with its attack line) and its
// sentence shown.
func checkHint(b *browser, algo string, n int, queens [][2]int) {
	b.t.Helper()
	b.do("choose "+algo, chromedp.SetValue(chromedp.ID("complete-algo"), algo))
	b.do("hint", chromedp.Click(chromedp.ID("complete-hint")))
	b.waitJS("the hint", `document.getElementById('complete').dataset.state === 'editing' && document.getElementById('complete-status').textContent.startsWith('Hint')`, 20*time.Second)
	p := partialOf(n, queens, nil)
	var want classic.Event
	for _, e := range fromBoard(b, algo, p) {
		if (e.Kind == classic.Place || e.Kind == classic.Reject) && p.Queens[e.Row] == board.Empty {
			want = e
			break
		}
	}
	hint := eval[[]string](b, `[...document.querySelectorAll('#complete-board .cell.hint')].map((c) => c.dataset.row + ',' + c.dataset.col)`)
	if len(hint) != 1 || hint[0] != fmt.Sprintf("%d,%d", want.Row+1, want.Col+1) || !strings.HasSuffix(b.text("complete-status"), want.Text) {
		b.t.Fatalf("%s: hint %q: %q, the library's next try is %v: %q", algo, hint, b.text("complete-status"), want, want.Text)
	}
	if lines := eval[int](b, `document.querySelectorAll('#complete-board svg line.attack').length`); (want.Kind == classic.Reject) != (lines == 1) {
		b.t.Fatalf("%s: the hint %v draws %d attack lines", algo, want, lines)
	}
}

// testCompletePanel places queens by click and by keyboard; two that attack
// each other are joined by a line and marked; the strategy list is the
// library's backtracking strategies; the hint is the chosen strategy's
// next try (a rejected one for stack, none for bitmask); the completions
// are counted as the library counts them; Complete from here plays the
// chosen strategy's search in the player to the library's first solution,
// keeping the queens and avoiding the blocks, and brings it back; boards
// without a completion say so.
func testCompletePanel(b *browser) {
	b.open("complete")
	var completers []string
	for _, a := range classic.All() {
		if _, ok := a.(classic.Completer); ok {
			completers = append(completers, a.Name())
		}
	}
	if got := eval[[]string](b, `[...document.querySelectorAll('#complete-algo option')].map((o) => o.value)`); !slices.Equal(got, completers) {
		b.t.Fatalf("the strategies offered are %q, the library's backtracking ones %q", got, completers)
	}
	b.do("8×8", chromedp.SetValue(chromedp.ID("complete-n"), "8"), chromedp.Click(chromedp.ID("complete-clear")))
	checkSquare(b, "complete-board", 8)
	b.do("place (1, 1) by click", chromedp.Click(square(1, 1)))
	b.do("place (2, 2) with the keyboard", chromedp.Focus(square(1, 1)), chromedp.KeyEvent(kb.ArrowDown+kb.ArrowRight+kb.Enter))
	lines := eval[int](b, `document.querySelectorAll('#complete-board svg line.conflict').length`)
	marked := eval[[]string](b, `[...document.querySelectorAll('#complete-board .cell.attacker')].map((c) => c.getAttribute('aria-label'))`)
	if lines != 1 || len(marked) != 2 || !strings.Contains(marked[1], "attacked by the queen in row 1") {
		b.t.Fatalf("two queens on a diagonal: %d lines, marked %q", lines, marked)
	}
	checkSquare(b, "complete-board", 8)
	b.do("take (2, 2) away, place (2, 5)", chromedp.Click(square(2, 2)), chromedp.Click(square(2, 5)))
	if eval[int](b, `document.querySelectorAll('#complete-board svg line').length`) != 0 {
		b.t.Fatal("a line is drawn between queens that do not attack each other")
	}
	for _, algo := range []string{"stack", "bitmask", "backtrack-2d"} {
		checkHint(b, algo, 8, [][2]int{{1, 1}, {2, 5}})
	}
	b.do("place (4, 2)", chromedp.Click(square(4, 2)))
	checkHint(b, "backtrack-flags", 8, [][2]int{{1, 1}, {2, 5}, {4, 2}})
	b.do("take (4, 2) away", chromedp.Click(square(4, 2)))
	pb := board.Partial{Queens: board.FromOneBased(1, 5, 0, 0, 0, 0, 0, 0)}
	wantCount, err := complete.Count(context.Background(), pb, complete.Options{})
	if err != nil {
		b.t.Fatal(err)
	}
	b.do("count completions", chromedp.Click(chromedp.ID("complete-count")))
	b.waitJS("the count", `document.getElementById('complete').dataset.state === 'counted'`, 20*time.Second)
	if s := b.text("complete-status"); wantCount == 0 || !strings.HasPrefix(s, fmt.Sprintf("%d way", wantCount)) {
		b.t.Fatalf("completions of 1 5: %q, the library counts %d", s, wantCount)
	}
	b.waitJS("the board in the address", `location.search.includes('queens=1%2C5')`, 5*time.Second)

	blocked := [][2]int{{2, 3}, {3, 5}}
	for _, algo := range []string{"stack", "bitmask"} {
		if st := completeAs(b, algo, 8, [][2]int{{1, 1}, {5, 3}}, blocked); st != "solved" {
			b.t.Fatalf("%s: state %s: %s", algo, st, b.text("complete-status"))
		}
		p, err := board.Parse(b.text("complete-list"), board.List)
		if err != nil || board.Verify(p) != nil || p[0] != 0 || p[4] != 2 {
			b.t.Fatalf("completion %q: %v", b.text("complete-list"), err)
		}
		for _, x := range blocked {
			if int(p[x[0]-1]) == x[1]-1 {
				b.t.Fatalf("completion %v has a queen on the blocked square %v", p, x)
			}
		}
		if n := eval[int](b, `document.querySelectorAll('#complete-board .cell.added').length`); n != 6 {
			b.t.Fatalf("%d queens shown as added by the strategy, want 6", n)
		}
	}
	b.screenshot("complete")
	for _, tc := range []struct{ queens, blocked [][2]int }{
		{[][2]int{{1, 1}}, nil},
		{nil, [][2]int{{1, 2}, {1, 3}}},
	} {
		if st := completeAs(b, "backtrack-array", 4, tc.queens, tc.blocked); st != "none" || !strings.Contains(b.text("complete-status"), "No completion exists") {
			b.t.Fatalf("queens %v, blocked %v: state %s: %s", tc.queens, tc.blocked, st, b.text("complete-status"))
		}
	}
}

// mark is a square with a mark, its colours as Chromium computes them.
type mark struct {
	Where, Color, Background string
}

// testContrast measures the rendered colours of every marked square — a
// queen, a rejected try, an attacking queen, a solver's queen, a block, a
// hint, on light, dark and shaded squares — and checks WCAG's 4.5:1.
func testContrast(b *browser) {
	collect := func(id string) []mark {
		return eval[[]mark](b, fmt.Sprintf(`[...document.querySelectorAll('#%s [role=gridcell]')].filter((c) => getComputedStyle(c, '::before').content !== 'none').map((c) => ({
			Where: c.getAttribute('aria-label') + ' [' + c.className + ']',
			Color: getComputedStyle(c, '::before').color, Background: getComputedStyle(c).backgroundColor}))`, id))
	}
	b.visit("/?n=8&algo=stack&step=133")
	b.waitJS("step 133", `Number(document.getElementById('watch-timeline').value) === 133`, 20*time.Second)
	marks := collect("watch-board")
	b.open("complete")
	b.do("a board with every mark", chromedp.SetValue(chromedp.ID("complete-n"), "6"), chromedp.Click(chromedp.ID("complete-clear")),
		chromedp.Click(square(1, 2)), chromedp.Click(square(2, 4)), chromedp.Click(chromedp.CSS(`input[name=complete-mode][value=block]`)),
		chromedp.Click(square(3, 1)), chromedp.Click(square(4, 4)), chromedp.Click(chromedp.CSS(`input[name=complete-mode][value=queen]`)),
		chromedp.Click(chromedp.ID("complete-hint")))
	b.waitJS("the hint", `document.querySelector('#complete-board .cell.hint')`, 20*time.Second)
	marks = append(marks, collect("complete-board")...)
	b.do("complete", chromedp.Click(chromedp.ID("complete-go")))
	b.waitJS("the player", `!document.getElementById('watch').hidden && !document.getElementById('watch-from').hidden && document.getElementById('watch-timeline').value >= 2`, 20*time.Second)
	b.waitTrace()
	b.do("the empty board", chromedp.Click(chromedp.ID("watch-start")))
	marks = append(marks, collect("watch-board")...) // the learner's board, before the search places it
	b.do("the first solution", chromedp.Click(chromedp.ID("watch-next-solution")), chromedp.Click(chromedp.ID("watch-from-back")))
	b.waitJS("the answer", `document.getElementById('complete').dataset.state === 'solved'`, 20*time.Second)
	marks = append(marks, collect("complete-board")...)
	b.do("a conflict", chromedp.Click(square(5, 5)))
	marks = append(marks, collect("complete-board")...)
	kinds := map[string]bool{}
	for _, m := range marks {
		for _, k := range []string{"rejected", "attacker", "added", "blocked", "hint", "queen", "given"} {
			if strings.Contains(m.Where, " "+k) || strings.Contains(m.Where, "["+k) {
				kinds[k] = true
			}
		}
		fg, err1 := parseRGB(m.Color)
		bg, err2 := parseRGB(m.Background)
		if err := errors.Join(err1, err2); err != nil {
			b.t.Fatalf("%s: %v", m.Where, err)
		}
		if c := contrast(fg, bg); c < 4.5 {
			b.t.Errorf("%s: %s on %s has contrast %.2f:1, want 4.5:1", m.Where, m.Color, m.Background, c)
		}
	}
	if len(kinds) != 7 {
		b.t.Fatalf("measured marks of kinds %v, want all seven", kinds)
	}
}

// parseRGB reads a computed colour "rgb(r, g, b)" or an opaque "rgba(…, 1)".
func parseRGB(s string) ([3]float64, error) {
	var c [3]float64
	inner, ok := strings.CutPrefix(s, "rgb(")
	if !ok {
		return c, fmt.Errorf("colour %q is not opaque rgb", s)
	}
	parts := strings.Split(strings.TrimSuffix(inner, ")"), ",")
	if len(parts) != 3 {
		return c, fmt.Errorf("colour %q", s)
	}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return c, err
		}
		c[i] = v
	}
	return c, nil
}

// contrast is WCAG 2's contrast ratio of two sRGB colours.
func contrast(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// testPhone checks that every panel fits a 390 px phone screen without
// sideways scrolling, and that the board stays square there.
func testPhone(b *browser) {
	b.viewport(390, 844)
	for _, panel := range []string{"watch", "complete", "gallery", "count", "huge"} {
		b.open(panel)
		time.Sleep(200 * time.Millisecond) // the panel's first requests render after "ready"; no event marks their end
		noSideways(b, panel+" panel at 390 px")
	}
	b.visit("/?n=8&algo=stack&step=133")
	b.waitJS("step 133", `Number(document.getElementById('watch-timeline').value) === 133`, 20*time.Second)
	checkSquare(b, "watch-board", 8)
	b.screenshot("phone-board")
}
