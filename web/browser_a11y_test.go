package web

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/nqueens/nqueens/classic"
)

// Issue 24: the page for every learner. These steps of TestBrowser look at
// the page as a person meets it, in pixels where colour is the question:
// every signal keeps its contrast in colour, in grey and to a deuteranope,
// in the light and the dark theme; the tree, the skip link and the speed by
// keyboard and screen reader; forced colours and reduced motion; and the
// phone.

// probe is a region of the screen whose mark must stand out from what is
// under it: Background (a CSS colour), or the region's commonest colour.
type probe struct {
	What       string
	X, Y, W, H float64
	Background string
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func luminance(c [3]float64) float64 {
	var l [3]float64
	for i, v := range c {
		v /= 255
		if v <= 0.04045 {
			l[i] = v / 12.92
		} else {
			l[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// markContrast is the contrast of p's mark against its background in img:
// that of the sixth pixel of the region that stands out most, so that a
// stray pixel of anti-aliasing does not count as a mark.
func markContrast(img image.Image, p probe) (float64, error) {
	var px [][3]float64
	counts := map[[3]float64]int{}
	for y := int(p.Y); y < int(math.Ceil(p.Y+p.H)); y++ {
		for x := int(p.X); x < int(math.Ceil(p.X+p.W)); x++ {
			if !(image.Point{x, y}).In(img.Bounds()) {
				continue
			}
			r, g, b, _ := img.At(x, y).RGBA()
			c := [3]float64{float64(r >> 8), float64(g >> 8), float64(b >> 8)}
			px = append(px, c)
			counts[c]++
		}
	}
	if len(px) < 6 {
		return 0, fmt.Errorf("%s: the region %.0f×%.0f at (%.0f, %.0f) is off the screen", p.What, p.W, p.H, p.X, p.Y)
	}
	var bg [3]float64
	if p.Background != "" {
		var err error
		if bg, err = parseRGB(p.Background); err != nil {
			return 0, err
		}
	} else {
		best := 0
		for c, k := range counts {
			if k > best {
				bg, best = c, k
			}
		}
	}
	lb := luminance(bg)
	cs := make([]float64, len(px))
	for i, c := range px {
		l := luminance(c)
		cs[i] = (max(l, lb) + 0.05) / (min(l, lb) + 0.05)
	}
	slices.Sort(cs)
	return cs[len(cs)-6], nil
}

// screen is the visible page as an image, one pixel a CSS pixel.
func screen(b *browser) image.Image {
	b.t.Helper()
	shot, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		b.t.Fatal(err)
	}
	return img
}

// screenAt is the part of the visible page that holds probes, as an image
// in the window's coordinates: decoding a whole screenshot takes a second
// under the race detector (testSignals decoded 72 of them, 73 s in all).
func screenAt(b *browser, probes []probe) image.Image {
	b.t.Helper()
	win := eval[[]float64](b, `[innerWidth, innerHeight, visualViewport.pageLeft, visualViewport.pageTop]`)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range probes {
		x0, y0, x1, y1 = min(x0, p.X), min(y0, p.Y), max(x1, p.X+p.W), max(y1, p.Y+p.H)
	}
	x0, y0 = max(0, math.Floor(x0)), max(0, math.Floor(y0))
	x1, y1 = min(win[0], math.Ceil(x1)), min(win[1], math.Ceil(y1))
	if x1-x0 < 1 || y1-y0 < 1 {
		return screen(b) // nothing on the screen: markContrast says where
	}
	// The clip is in the document's coordinates.
	shot, err := chromedp.Call(b.ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Clip: &page.Viewport{X: x0 + win[2], Y: y0 + win[3], Width: x1 - x0, Height: y1 - y0, Scale: 1}})
	if err != nil {
		b.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot.Data))
	if err != nil {
		b.t.Fatal(err)
	}
	return shifted{img, image.Pt(int(x0), int(y0))}
}

// shifted is an image moved to at.
type shifted struct {
	image.Image
	at image.Point
}

func (s shifted) Bounds() image.Rectangle { return s.Image.Bounds().Add(s.at) }
func (s shifted) At(x, y int) color.Color { return s.Image.At(x-s.at.X, y-s.at.Y) }

// vision emulates a colour vision deficiency ("none" for none).
func vision(b *browser, kind emulation.SetEmulatedVisionDeficiencyType) {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedVisionDeficiency, emulation.SetEmulatedVisionDeficiencyParams{Type: kind}); err != nil {
		b.t.Fatal(err)
	}
}

// media emulates CSS media features (none to end the emulation).
func media(b *browser, features ...*emulation.MediaFeature) {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features}); err != nil {
		b.t.Fatal(err)
	}
}

func feature(name, value string) *emulation.MediaFeature {
	return &emulation.MediaFeature{Name: name, Value: value}
}

// checkProbes measures each probe on the screen as it is and wants need:1.
func checkProbes(b *browser, where string, need float64, probes []probe) {
	b.t.Helper()
	img := screenAt(b, probes)
	for _, p := range probes {
		c, err := markContrast(img, p)
		if err != nil {
			b.t.Error(err)
			continue
		}
		if c < need {
			b.t.Errorf("%s: %s stands out %.2f:1 from what is under it, want %.0f:1", where, p.What, c, need)
		}
	}
}

// boardProbes finds on board #id the marks that are signals: the dot of an
// attacked square (light and dark), a rejected try's cross, and queens by
// their owner (yours, the solver's, one attacked); and, with the tree's
// edges hidden, a node of each outcome the tree shows.
func boardProbes(b *browser, id string) []probe {
	b.t.Helper()
	return eval[[]probe](b, fmt.Sprintf(`(() => {
		const out = [];
		// A square's own pixels, not its neighbours' nor the board's edge.
		const rect = (what, e) => { const r = e.getBoundingClientRect(); out.push({What: what, X: r.x + 2, Y: r.y + 2, W: r.width - 4, H: r.height - 4, Background: ''}); };
		const first = (sel) => document.querySelector('#%[1]s ' + sel);
		const kinds = {
			'attack dot on a light square': '.cell.attacked:not(.dark):not(.queen):not(.rejected):not(.blocked):not(.hint)',
			'attack dot on a dark square': '.cell.attacked.dark:not(.queen):not(.rejected):not(.blocked):not(.hint)',
			'rejected try': '.cell.rejected',
			'your queen': '.cell.queen:not(.added):not(.attacker)',
			"the solver's queen": '.cell.queen.added',
			'an attacked queen': '.cell.queen.attacker',
		};
		for (const [what, sel] of Object.entries(kinds)) { const e = first(sel); if (e) rect(what, e); }
		return out;
	})()`, id))
}

// treeProbes finds a node of each outcome the search tree shows.
func treeProbes(b *browser) []probe {
	b.t.Helper()
	return eval[[]probe](b, `(() => {
		const out = [];
		const bg = getComputedStyle(document.getElementById('watch-tree')).backgroundColor;
		for (const k of ['placed', 'good', 'solution', 'dead', 'rejected']) {
			const g = document.querySelector('#watch-tree .node.' + k + ':not(.current)') || document.querySelector('#watch-tree .node.' + k);
			if (!g) continue;
			const r = g.querySelector('.ring, .mark').getBoundingClientRect();
			out.push({What: 'tree node "' + k + '"', X: r.x - 1, Y: r.y - 1, W: r.width + 2, H: r.height + 2, Background: bg});
		}
		return out;
	})()`)
}

// signalStates opens each state of issue 24's contrast checks — the stack
// and the bitmask search mid-way, Try it with the learner's, the solver's
// and an attacked queen — and calls check with the probes of each.
func signalStates(b *browser, check func(where string, need float64, probes []probe)) {
	b.t.Helper()
	// The lines that join squares and the tree's edges cross the marks'
	// squares and nodes: hidden while the marks are measured.
	hideEdges := `document.head.insertAdjacentHTML('beforeend', '<style id="no-edges">.tree .edge, .board .lines { visibility: hidden }</style>')`
	for _, tc := range []struct {
		algo string
		n    int
	}{{"stack", 6}, {"bitmask", 6}} {
		step := signalStep(b, tc.algo, tc.n)
		where := fmt.Sprintf("%s on %d×%d at step %d", tc.algo, tc.n, tc.n, step)
		b.visit(fmt.Sprintf("/?n=%d&algo=%s&step=%d", tc.n, tc.algo, step))
		b.waitJS(where, fmt.Sprintf(`Number(document.getElementById('watch-timeline').value) === %d`, step), 20*time.Second)
		b.waitTrace()
		b.do("scroll to the tree", chromedp.Evaluate[chromedp.Void](hideEdges+`; document.getElementById('watch-tree').scrollIntoView({block: 'center'})`))
		tree := treeProbes(b)
		if len(tree) < 4 {
			b.t.Fatalf("%s: the tree shows nodes of %d outcomes: %q", where, len(tree), eval[[]string](b, `[...document.querySelectorAll('#watch-tree .node')].map((g) => g.getAttribute('class'))`))
		}
		// Each outcome has a shape of its own, not a colour alone.
		shapes := eval[map[string]string](b, `(() => {
			const bg = getComputedStyle(document.getElementById('watch-tree')).backgroundColor;
			return Object.fromEntries(['placed', 'good', 'solution', 'dead', 'rejected'].map((k) => {
				const g = document.querySelector('#watch-tree .node.' + k + ':not(.current)') || document.querySelector('#watch-tree .node.' + k);
				const hollow = (m) => ['none', bg].includes(getComputedStyle(m).fill) ? ' hollow' : '';
				return [k, g ? [...g.querySelectorAll('.ring, .mark')].map((m) => m.tagName + hollow(m)).join('+') : ''];
			}).filter(([, v]) => v));
		})()`)
		b.t.Logf("%s: the tree's shapes %v", where, shapes)
		seen := map[string]string{}
		for k, shape := range shapes {
			if other, ok := seen[shape]; ok {
				b.t.Errorf("%s: the tree draws %q and %q nodes alike (%s)", where, k, other, shape)
			}
			seen[shape] = k
		}
		check(where+", its tree", 3, tree)
		b.do("scroll to the board", chromedp.Evaluate[chromedp.Void](`document.getElementById('watch-board').scrollIntoView({block: 'start'})`))
		marks := boardProbes(b, "watch-board")
		names := map[string]bool{}
		for _, p := range marks {
			names[p.What] = true
		}
		if !names["attack dot on a light square"] || !names["attack dot on a dark square"] || tc.algo == "stack" && !names["rejected try"] {
			b.t.Fatalf("%s: the board shows %v", where, names)
		}
		check(where+", its board", 3, marks)
		// The focus ring, on a light and a dark square of the empty board
		// and on a button of the page.
		b.do("the empty board", chromedp.Click(chromedp.ID("watch-start")))
		b.do("focus a square", chromedp.Evaluate[chromedp.Void](`document.querySelector('#watch-board [tabindex="0"]').focus()`), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowUp))
		ring := func(what string) probe {
			return eval[probe](b, fmt.Sprintf(`(() => { const e = document.activeElement, r = e.getBoundingClientRect();
				if (!e.matches('#watch-board [role=gridcell]')) return {What: %[1]q + ' (no square has the focus)', X: -100, Y: -100, W: 1, H: 1};
				return {What: %[1]q, X: r.x + 1, Y: r.y + 1, W: r.width - 2, H: r.height - 2, Background: ''}; })()`, what))
		}
		check(where+", the board's focus", 3, []probe{ring("the focus ring on a light square")})
		b.do("to a dark square", chromedp.KeyEvent(kb.ArrowRight))
		check(where+", the board's focus", 3, []probe{ring("the focus ring on a dark square")})
		b.do("focus a button", chromedp.Evaluate[chromedp.Void](`document.getElementById('watch-step').focus()`), chromedp.KeyEvent(kb.Shift))
		page := eval[probe](b, `(() => { const r = document.activeElement.getBoundingClientRect();
			return {What: 'the focus ring on the page', X: r.x - 6, Y: r.y - 6, W: r.width + 12, H: 6, Background: getComputedStyle(document.documentElement).backgroundColor}; })()`)
		check(where+", the page's focus", 3, []probe{page})
		b.do("the edges back", chromedp.Evaluate[chromedp.Void](`document.getElementById('no-edges').remove()`))
	}

	// Try it: your queens, the solver's (after Complete from here and Back
	// to your board), and an attacked one.
	b.visit("/?panel=complete&n=6&queens=2,4,0,0,0,0")
	b.do("hide the lines", chromedp.Evaluate[chromedp.Void](hideEdges))
	b.do("complete", chromedp.Click(chromedp.ID("complete-go")))
	b.waitJS("the player", `!document.getElementById('watch').hidden && !document.getElementById('watch-from').hidden`, 20*time.Second)
	b.waitTrace()
	b.do("the first solution", chromedp.Click(chromedp.ID("watch-next-solution")), chromedp.Click(chromedp.ID("watch-from-back")))
	b.waitJS("the answer", `document.getElementById('complete').dataset.state === 'solved'`, 20*time.Second)
	b.do("scroll to the board", chromedp.Evaluate[chromedp.Void](`document.getElementById('complete-board').scrollIntoView({block: 'start'})`))
	owners := boardProbes(b, "complete-board")
	names := map[string]bool{}
	for _, p := range owners {
		names[p.What] = true
	}
	if !names["your queen"] || !names["the solver's queen"] {
		b.t.Fatalf("Try it after Back to your board shows %v", names)
	}
	check("Try it, completed", 3, owners)
	b.do("a conflict", chromedp.Click(square(3, 4)))
	var attacked []probe
	for _, p := range boardProbes(b, "complete-board") {
		if p.What == "an attacked queen" {
			attacked = append(attacked, p)
		}
	}
	if len(attacked) == 0 {
		b.t.Fatal("Try it shows no attacked queen after a conflicting click")
	}
	check("Try it, a conflict", 3, attacked)
}

// signalStep is a step of algo on n×n whose board shows every mark: a
// rejected try (but for bitmask, which rejects none) with at least two
// queens on the board and after the second solution, so that the tree
// shows every outcome.
func signalStep(b *browser, algo string, n int) int {
	b.t.Helper()
	for e := range traceOf(b, algo, n) {
		solved := e.Counters.Solutions >= 2
		queens := 0
		for _, c := range e.Queens {
			if c >= 0 {
				queens++
			}
		}
		want := classic.Reject
		if algo == "bitmask" {
			want = classic.Place
		}
		if solved && e.Kind == want && queens >= 2 && queens < n {
			return int(e.Step)
		}
	}
	b.t.Fatalf("%s on %d has no step with every mark", algo, n)
	return 0
}

// everyMode calls check in each of the six ways the page is checked: the
// light and the dark theme, each in colour, under emulated achromatopsia
// (grey) and under emulated deuteranopia; it leaves the page in colour and
// in its own theme.
func everyMode(b *browser, check func(mode string)) {
	b.t.Helper()
	defer vision(b, emulation.SetEmulatedVisionDeficiencyTypeNone)
	defer media(b)
	for _, theme := range []string{"light", "dark"} {
		media(b, feature("prefers-color-scheme", theme))
		for _, v := range []emulation.SetEmulatedVisionDeficiencyType{
			emulation.SetEmulatedVisionDeficiencyTypeNone,
			emulation.SetEmulatedVisionDeficiencyTypeAchromatopsia,
			emulation.SetEmulatedVisionDeficiencyTypeDeuteranopia,
		} {
			vision(b, v)
			check(fmt.Sprintf("%s theme, vision %s", theme, v))
		}
	}
}

// testSignals checks every signal's contrast, in colour and under emulated
// achromatopsia (grey) and deuteranopia, in the light and the dark theme:
// 3:1 for the attack dots, the tree's outcomes, the queens by owner and the
// focus ring.
func testSignals(b *browser) {
	signalStates(b, func(where string, need float64, probes []probe) {
		everyMode(b, func(mode string) { checkProbes(b, mode+": "+where, need, probes) })
	})
	// The screen taken is the screen seen: grey under achromatopsia.
	vision(b, emulation.SetEmulatedVisionDeficiencyTypeAchromatopsia)
	img := screen(b)
	vision(b, emulation.SetEmulatedVisionDeficiencyTypeNone)
	r, g, bl, _ := img.At(20, 20).RGBA()
	if r>>8 != g>>8 || g>>8 != bl>>8 {
		b.t.Fatalf("under emulated achromatopsia the header's pixel is (%d, %d, %d), not grey", r>>8, g>>8, bl>>8)
	}
	media(b, feature("prefers-color-scheme", "dark"))
	b.screenshot("signals-dark")
	media(b)
}

// testKeyboard uses the page by keyboard as a screen reader user would: the
// skip link first, to the board; the speed slider says steps per second;
// the search tree is a tree of named nodes, one in the tab order, the arrow
// keys move through it and Enter goes to a node's step.
func testKeyboard(b *browser) {
	b.visit("/?n=5&algo=stack&step=60")
	b.waitTrace()
	b.do("start from the top", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); window.scrollTo(0, 0)`), chromedp.KeyEvent(kb.Tab))
	if got := eval[string](b, `document.activeElement.id + ' ' + document.activeElement.textContent + ' ' + (document.activeElement.getBoundingClientRect().top >= 0)`); got != "skip Skip to the board true" {
		b.t.Fatalf("the first Tab goes to %q, want the skip link, shown", got)
	}
	b.do("follow it", chromedp.KeyEvent(kb.Enter))
	if got := eval[string](b, `document.activeElement.closest('#watch-board') ? document.activeElement.getAttribute('aria-label') : document.activeElement.outerHTML.slice(0, 80)`); !strings.HasPrefix(got, "row 1, column 1: ") {
		b.t.Fatalf("the skip link leads to %q, want the board's first square", got)
	}

	if v := eval[string](b, `document.getElementById('watch-speed').getAttribute('aria-valuetext')`); !regexp.MustCompile(`^[\d,]+ steps per second$`).MatchString(v) {
		b.t.Errorf("the speed slider says %q", v)
	}

	type node struct {
		Label, Tab, Step string
		Level            int
	}
	nodes := eval[[]node](b, `[...document.querySelectorAll('#watch-tree [role=treeitem]')].map((g) => ({
		Label: g.getAttribute('aria-label'), Tab: g.getAttribute('tabindex'), Level: Number(g.getAttribute('aria-level')), Step: g.dataset.step}))`)
	if len(nodes) < 10 || eval[string](b, `document.querySelector('#watch-tree svg').getAttribute('role')`) != "tree" {
		b.t.Fatalf("the tree has %d treeitems", len(nodes))
	}
	named := regexp.MustCompile(`^(the empty board, step 0|row \d+, column \d+: (placed|placed, leads to a solution|placed, dead end|solution|rejected try), step [\d,]+)(; [\d,]+ nodes below, folded)?(; the current call)?$`)
	tabs := 0
	for _, n := range nodes {
		if !named.MatchString(n.Label) {
			b.t.Errorf("a tree node is named %q", n.Label)
		}
		switch n.Tab {
		case "0":
			tabs++
		case "-1":
		default:
			b.t.Errorf("tree node %q has tabindex %q", n.Label, n.Tab)
		}
	}
	if tabs != 1 {
		b.t.Fatalf("%d tree nodes are in the tab order, want 1", tabs)
	}
	focused := func() node {
		return eval[node](b, `(() => { const g = document.activeElement; return {Label: g.getAttribute('aria-label') || '', Tab: g.getAttribute('tabindex') || '', Level: Number(g.getAttribute('aria-level')), Step: (g.dataset && g.dataset.step) || ''}; })()`)
	}
	b.do("tab to the tree", chromedp.Evaluate[chromedp.Void](`document.querySelector('#watch-tree [tabindex="0"]').focus()`))
	at := focused()
	if !strings.Contains(at.Label, "the current call") {
		b.t.Fatalf("the tree's tab stop is %q, want the current call", at.Label)
	}
	b.do("up", chromedp.KeyEvent(kb.ArrowLeft))
	parent := focused()
	if parent.Level != at.Level-1 || parent.Tab != "0" {
		b.t.Fatalf("← from %q goes to %q, want its parent, in the tab order", at.Label, parent.Label)
	}
	b.do("down", chromedp.KeyEvent(kb.ArrowDown))
	next := focused()
	if next.Label == parent.Label || next.Level == 0 {
		b.t.Fatalf("↓ from %q goes to %q", parent.Label, next.Label)
	}
	b.do("first", chromedp.KeyEvent(kb.Home))
	if first := focused(); !strings.HasPrefix(first.Label, "the empty board") {
		b.t.Fatalf("Home goes to %q", first.Label)
	}
	b.do("a child", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown))
	target := focused()
	b.do("go to its step", chromedp.KeyEvent(kb.Enter))
	if got := fmt.Sprint(shownStep(b)); got != strings.ReplaceAll(target.Step, ",", "") {
		b.t.Fatalf("Enter on %q shows step %s", target.Label, got)
	}
	if still := focused(); still.Label == "" || still.Step != target.Step {
		b.t.Fatalf("after Enter the focus is on %q, want still %q", still.Label, target.Label)
	}
}

// testMedia opens the page under the media features people set: forced
// colours (exactly one line of pseudocode marked current, every square of
// the board outlined and the attack marks shown, in system colours), a
// dark theme (the page as rendered is mostly dark) and reduced motion
// (nothing moves, nothing plays by itself).
func testMedia(b *browser) {
	defer media(b)
	step := signalStep(b, "stack", 8)
	b.visit(fmt.Sprintf("/?n=8&algo=stack&step=%d", step))
	b.waitTrace()
	b.do("scroll to the board", chromedp.Evaluate[chromedp.Void](`document.getElementById('watch-board').scrollIntoView({block: 'start'})`))

	media(b, feature("forced-colors", "active"))
	img := screen(b)
	b.screenshot("forced-colors")
	// The lines of pseudocode: exactly one stands out from the others.
	lines := eval[[]probe](b, `[...document.querySelectorAll('#watch-code li')].map((li) => { const r = li.getBoundingClientRect(); return {What: li.textContent, X: r.x, Y: r.y + 2, W: 4, H: r.height - 4}; })`)
	canvas := eval[string](b, `(() => { const d = document.createElement('div'); d.style.cssText = 'forced-color-adjust: none; background: Canvas';
		document.body.append(d); const c = getComputedStyle(d).backgroundColor; d.remove(); return c; })()`)
	marked := 0
	for _, l := range lines {
		l.Background = canvas
		c, err := markContrast(img, l)
		if err != nil {
			b.t.Fatal(err)
		}
		if c >= 3 {
			marked++
		}
	}
	if marked != 1 {
		b.t.Errorf("under forced colours %d of the %d lines of pseudocode are marked, want 1", marked, len(lines))
	}
	// Every square is outlined, and the attack dots show.
	squares := eval[[]probe](b, `[...document.querySelectorAll('#watch-board [role=gridcell]')].map((c) => { const r = c.getBoundingClientRect(); return {What: c.getAttribute('aria-label'), X: r.x - 2, Y: r.y + r.height / 2 - 3, W: 4, H: 6}; })`)
	if len(squares) != 64 {
		b.t.Fatalf("%d squares", len(squares))
	}
	for _, sq := range squares {
		sq.Background = canvas
		if c, err := markContrast(img, sq); err != nil || c < 3 {
			b.t.Errorf("under forced colours the edge of %s stands out %.2f:1 (%v), want 3:1", sq.What, c, err)
		}
	}
	dots := boardProbes(b, "watch-board")
	for i := range dots {
		dots[i].Background = canvas
	}
	checkProbes(b, "forced colours", 3, dots)

	media(b, feature("prefers-color-scheme", "dark"))
	img = screen(b)
	b.screenshot("dark")
	checkAxe(b, "the watch panel in the dark theme")
	dark, all := 0, 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 2 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if luminance([3]float64{float64(r >> 8), float64(g >> 8), float64(bl >> 8)}) < 0.1 {
				dark++
			}
			all++
		}
	}
	if dark*10 < all*7 {
		b.t.Errorf("in the dark theme %d%% of the screen is dark, want most of it (70%%)", 100*dark/all)
	}

	for _, panel := range []string{"complete", "count", "cost"} {
		b.open(panel)
		checkAxe(b, fmt.Sprintf("the %s panel in the dark theme", panel))
	}

	media(b, feature("prefers-reduced-motion", "reduce"))
	b.visit("/?n=6&algo=stack")
	b.waitTrace()
	moving := eval[[]string](b, `[...document.querySelectorAll('*')].flatMap((e) => [getComputedStyle(e), getComputedStyle(e, '::before'), getComputedStyle(e, '::after')].map((s) => [e, s]))
		.filter(([, s]) => [...s.transitionDuration.split(','), ...s.animationDuration.split(',')].some((d) => parseFloat(d) > 0.01))
		.map(([e, s]) => e.tagName + '#' + e.id + ': ' + s.transitionDuration + ' / ' + s.animationDuration).slice(0, 5)`)
	if len(moving) > 0 {
		b.t.Errorf("under reduced motion these still move: %q", moving)
	}
	first := b.screenshot("reduced-motion")
	time.Sleep(time.Second) // a negative check: a second in which nothing may move
	if second := b.screenshot("reduced-motion"); !bytes.Equal(first, second) {
		b.t.Error("under reduced motion the page changed in the second after it loaded")
	}
	if st := eval[string](b, `document.getElementById('watch').dataset.state`); st != "paused" {
		b.t.Errorf("under reduced motion the search is %s after the page loaded, want paused", st)
	}
}

// testPhonePlay plays a search on a phone's screen (390×844) as a person
// would: the board and the line of pseudocode being run are on screen
// together while it plays; no line of pseudocode wraps (the box scrolls
// sideways instead); every strategy's data fits its box's width; and every
// control on every panel is a target of 24 px, or spaced as WCAG 2.5.8
// allows.
func testPhonePlay(b *browser) {
	b.viewport(390, 844)
	b.visit("/?n=8&algo=stack")
	b.waitTrace()
	setSpeed(b, 30) // about 8 steps a second
	b.do("play", chromedp.Click(chromedp.ID("watch-play")))
	b.waitJS("a few steps", `Number(document.getElementById('watch-timeline').value) > 10`, 20*time.Second)
	for range 3 {
		type view struct {
			Board, Line, Box [4]float64 // top, bottom, left, right
			Height           float64
			Playing          bool
		}
		v := eval[view](b, `(() => {
			const r = (e) => { const b = e.getBoundingClientRect(); return [b.top, b.bottom, b.left, b.right]; };
			return {Board: r(document.getElementById('watch-board')), Line: r(document.querySelector('#watch-code li[aria-current=step]')),
				Box: r(document.getElementById('watch-code-box')), Height: window.innerHeight,
				Playing: document.getElementById('watch').dataset.state === 'playing'};
		})()`)
		if !v.Playing {
			b.t.Fatal("the search stopped playing")
		}
		if v.Board[0] < 0 || v.Board[1] > v.Height || v.Line[0] < v.Box[0]-1 || v.Line[1] > v.Box[1]+1 || v.Line[0] < 0 || v.Line[1] > v.Height || v.Line[2] < 0 {
			b.t.Errorf("while playing at 390×844 the board spans %.0f to %.0f px and the current line %.0f to %.0f px (the code box %.0f to %.0f) of %.0f: not both on screen",
				v.Board[0], v.Board[1], v.Line[0], v.Line[1], v.Box[0], v.Box[1], v.Height)
		}
		time.Sleep(200 * time.Millisecond) // a few steps later: a sampling pace, not a wait for work
	}
	b.screenshot("phone-playing")
	b.do("pause", chromedp.Click(chromedp.ID("watch-play")))

	for _, algo := range []string{"backtrack-2d", "backtrack-array", "backtrack-flags", "stack", "bitmask"} {
		for _, n := range []int{12, 20} {
			b.visit(fmt.Sprintf("/?n=%d&algo=%s&step=%d", n, algo, 3*n))
			b.waitJS("the step", fmt.Sprintf(`Number(document.getElementById('watch-timeline').value) === %d`, 3*n), 30*time.Second)
			// A long line wraps under itself (issue 33): none is cut.
			clipped := eval[[]string](b, `[...document.querySelectorAll('#watch-code li')].filter((li) => li.scrollWidth > li.clientWidth + 1 || li.getBoundingClientRect().right > document.getElementById('watch-code-box').getBoundingClientRect().right + 1).map((li) => li.textContent)`)
			if len(clipped) > 0 {
				b.t.Errorf("%s: lines of pseudocode cut at 390 px: %q", algo, clipped)
			}
			over := eval[[]string](b, `[document.getElementById('watch-data'), ...document.querySelectorAll('#watch-data *')]
				.filter((e) => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 || e.getBoundingClientRect().right > document.getElementById('watch-data').getBoundingClientRect().right + 1)
				.map((e) => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth)`)
			if len(over) > 0 {
				b.t.Errorf("%s on %d×%d at 390 px: the strategy's data is wider than its box: %q", algo, n, n, over)
			}
			noSideways(b, fmt.Sprintf("%s on %d×%d at 390 px", algo, n, n))
		}
	}
	b.screenshot("phone-bitmask-20")

	for _, panel := range []string{"watch", "complete", "gallery", "race", "cost", "count", "huge"} {
		b.open(panel)
		if panel == "complete" {
			b.do("a board of 20", chromedp.SetValue(chromedp.ID("complete-n"), "20"), chromedp.Click(chromedp.ID("complete-clear")))
		}
		checkTargets(b, panel)
	}
	b.viewport(1280, 900)
	b.open("complete")
	b.do("a board of 20", chromedp.SetValue(chromedp.ID("complete-n"), "20"), chromedp.Click(chromedp.ID("complete-clear")))
	checkTargets(b, "complete (1280 px)")
}

// checkTargets checks that every control of the panel shown is a target of
// at least 24×24 px, or, if smaller, that a 24 px circle on it meets no
// other target's (WCAG 2.5.8); links in running text are exempt, as the
// rule allows, and so are the squares of a board that takes no clicks
// (they take the focus only, to show what is there).
func checkTargets(b *browser, panel string) {
	b.t.Helper()
	type target struct {
		What       string
		X, Y, W, H float64
	}
	ts := eval[[]target](b, `[...document.querySelectorAll('a[href], button, input, select, summary, [tabindex]:not([tabindex="-1"]), [role=treeitem], .board.clickable [role=gridcell]')]
		.filter((e) => e.checkVisibility() && !e.closest('[hidden]') && !(e.matches('a') && e.closest('p, li, dd, figcaption') && !e.closest('nav')))
		.filter((e) => !e.matches('[role=gridcell]:not(.board.clickable *)') && e.id !== 'skip' && e.id !== 'main')
		.map((e) => { const r = e.getBoundingClientRect(); return {What: e.tagName + '#' + e.id + '.' + (e.getAttribute('class') || '') + ' ' + (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30), X: r.x, Y: r.y, W: r.width, H: r.height}; })`)
	if len(ts) < 3 {
		b.t.Fatalf("%s panel: %d targets found", panel, len(ts))
	}
	for i, t := range ts {
		if t.W >= 24 && t.H >= 24 {
			continue
		}
		cx, cy := t.X+t.W/2, t.Y+t.H/2
		for j, u := range ts {
			if i == j {
				continue
			}
			// The nearest point of u to t's centre.
			nx, ny := max(u.X, min(cx, u.X+u.W)), max(u.Y, min(cy, u.Y+u.H))
			if math.Hypot(nx-cx, ny-cy) < 12 {
				b.t.Errorf("%s panel: %s is %.1f×%.1f px and %s is within 12 px of its centre", panel, t.What, t.W, t.H, u.What)
				break
			}
		}
	}
}
