package web

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/nqueens/nqueens/classic"
)

// latinAllowed are the only runs of Latin letters the page may show in
// Chinese outside code (code, kbd) and the language switch's own
// "English": the program's name; the size of the board; the binomial
// coefficient, the remainder and the number of solutions as textbooks write
// them (C(64, 8), n mod 6, Q(N)); the names of the encyclopedia (and its
// sequences, A000170…), the technology and the file formats the page
// names; the keys the buttons' titles name, as they are printed; the
// strategies' names as the command line and the address spell them
// (stack, bitmask…, added by englishWords from classic.Names); and the
// pseudocode's identifiers, which the sentences about the code name as it
// does (free = all & ~(cols | ld | rd)).
var latinAllowed = []string{
	"nqueens", "N", "n", "C", "mod", "Q", "OEIS", "WebAssembly", "JSON", "PNG", "MB",
	"Home", "End", "Shift", "P", "B", "S",
	"row", "col", "cols", "c", "r", "ld", "rd", "diag", "anti", "grid", "queens", "stack",
	"push", "pop", "free", "all", "bit", "solve", "height",
}

// pseudocodeWords may stand in a line of the pseudocode besides
// latinAllowed: its keywords, as i18n's codeWords lets the catalogs keep
// them.
var pseudocodeWords = []string{"if", "else", "for", "in", "while", "loop", "continue", "return", "stop", "or", "and", "scan"}

// englishWordsJS lists what the page shows that holds a Latin word outside
// the allow-list: its visible text nodes (rendered, not hidden; the open
// details included), the accessible names and titles of its visible
// elements, and the document's title, each with where it is.
const englishWordsJS = `((allowed, code) => {
	const word = /[A-Za-z][A-Za-z0-9-]*/g;
	const out = [];
	const bad = (text, inCode) => (text.match(word) || []).filter((w) => !allowed.has(w) && !/^A\d{6}$/.test(w) && !(inCode && code.has(w)));
	const where = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '');
	const skip = 'code, kbd, script, style, [lang="en"], [aria-hidden="true"] title';
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let node; (node = walker.nextNode());) {
		const el = node.parentElement;
		if (!el || el.closest(skip)) continue;
		const shown = el.closest('option') ? el.closest('select').checkVisibility() : el.checkVisibility({ visibilityProperty: true });
		if (!shown) continue;
		const range = document.createRange();
		range.selectNodeContents(node);
		if (!range.getClientRects().length && !el.closest('option')) continue;
		const words = bad(node.data, !!el.closest('#watch-code'));
		if (words.length) out.push(where(el) + ': ' + words.join(' ') + ' in «' + node.data.trim().slice(0, 120) + '»');
	}
	for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-valuetext]')) {
		if (el.closest(skip) || !el.checkVisibility({ visibilityProperty: true })) continue;
		for (const attr of ['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext']) {
			const v = el.getAttribute(attr);
			const words = v ? bad(v, false) : [];
			if (words.length) out.push(where(el) + '[' + attr + ']: ' + words.join(' ') + ' in «' + v.slice(0, 120) + '»');
		}
	}
	const words = bad(document.title, false);
	if (words.length) out.push('title: ' + words.join(' '));
	return out;
})`

// englishWords returns what the page shows in English, at most 20 lines.
func englishWords(b *browser) []string {
	b.t.Helper()
	allowed := slices.Clone(latinAllowed)
	allowed = append(allowed, classic.Names()...)
	js := fmt.Sprintf(`%s(new Set(%s), new Set(%s))`, englishWordsJS, jsStrings(allowed), jsStrings(pseudocodeWords))
	out := eval[[]string](b, js)
	if len(out) > 20 {
		out = append(out[:20], fmt.Sprintf("… and %d more", len(out)-20))
	}
	return out
}

func jsStrings(s []string) string {
	q := make([]string, len(s))
	for i, w := range s {
		q[i] = fmt.Sprintf("%q", w)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// visibleText is the page's rendered text, as a person reads it (hidden
// panels and closed details left out), with digits as # so that counts
// and times measured again compare equal, and spaces collapsed.
func visibleText(b *browser) string {
	b.t.Helper()
	s := eval[string](b, `document.body.innerText + '\n' + document.title + '\n' + [...document.querySelectorAll('[aria-label], [title]')].filter((e) => e.checkVisibility()).map((e) => (e.getAttribute('aria-label') || '') + '|' + (e.getAttribute('title') || '')).join('\n')`)
	s = regexp.MustCompile(`\d+`).ReplaceAllString(s, "#")
	return strings.Join(strings.Fields(s), " ")
}

// switchLang clicks the language switch's link for tag and waits until the
// page is written in it: the panels have written their text again
// (body's data-lang; a trace asked for again comes after).
func switchLang(b *browser, tag string) {
	b.t.Helper()
	b.do("click "+tag, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#langs a[data-lang=%q]`, tag))))
	want := map[string]string{"en": "en", "zh": "zh-CN"}[tag]
	b.waitJS("the page in "+tag, fmt.Sprintf(`document.documentElement.lang === %q && document.body.dataset.lang === %q && new URLSearchParams(location.search).get('lang') === %q`, want, tag, tag), 20*time.Second)
}

// hanRE is a Chinese character.
var hanRE = regexp.MustCompile(`\p{Han}`)

// firstDiff shows where two texts part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-60)
	return fmt.Sprintf("…%s… against …%s…", a[from:min(len(a), i+80)], b[from:min(len(b), i+80)])
}

// langPanels are the panels the language tests open, each with the address
// that opens it doing its work and the condition that says the work is
// shown; the lesson's chapters are added by langStops.
var langPanels = []struct{ name, path, ready string }{
	{"watch", "/?n=8&algo=stack&step=133", `document.getElementById('watch').dataset.trace === 'loaded' && Number(document.getElementById('watch-timeline').value) === 133`},
	{"complete", "/?panel=complete&n=6&queens=2,0,0,0,0,0", `document.getElementById('complete').dataset.state === 'editing'`},
	{"gallery", "/?panel=gallery&n=6", `document.querySelectorAll('.thumb').length > 0`},
	{"race", "/?panel=race&n=5&algos=backtrack-2d,bitmask", `['ready', 'end'].includes(document.getElementById('race').dataset.state)`},
	{"cost", "/?panel=cost", `document.getElementById('cost').dataset.state === 'done'`},
	{"count", "/?panel=count&n=8", `document.getElementById('count').dataset.ready === 'true'`},
	{"huge", "/?panel=huge&n=1000&method=construct", `document.getElementById('huge').dataset.state === 'done'`},
}

// langStops are langPanels and the lesson's nine chapters.
func langStops() []struct{ name, path, ready string } {
	stops := slices.Clone(langPanels)
	for k := 1; k <= 9; k++ {
		stops = append(stops, struct{ name, path, ready string }{fmt.Sprintf("lesson-%d", k), fmt.Sprintf("/?panel=lesson&chapter=%d", k),
			fmt.Sprintf(`document.getElementById('lesson').dataset.state === 'ready' && document.getElementById('lesson').dataset.chapter === '%d'`, k)})
	}
	return stops
}

// TestPageLanguages opens the page in Chinese and in English as a reader
// would: by the address (?lang=zh), by the switch in the header, and by
// the choice saved from an earlier visit. Every panel and every chapter of
// the lesson is opened with ?lang=zh: no English word outside code, key
// caps and the allow-list, and axe-core finds nothing; switched to English,
// no Chinese and axe-core finds nothing; switched to Chinese and back to
// English, every string is as it was. The step sentence at
// /?lang=zh&n=8&algo=stack&step=end is Chinese and names the 92 solutions.
func TestPageLanguages(t *testing.T) {
	b := newBrowser(t, Config{MaxJobs: 8})
	runSteps(t, b, []browserStep{
		{"step-sentence", testChineseStep},
		{"panels", testLangPanels},
		{"states", testChineseStates},
		{"choice", testLangChoice},
	})
}

// testChineseStep opens /?lang=zh&n=8&algo=stack&step=end: the page is in
// Chinese from its first paint, and the step sentence of the last step is
// Chinese and names the 92 solutions.
func testChineseStep(b *browser) {
	// When the page becomes Chinese, against when it first paints text.
	script, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `new MutationObserver(() => { if (document.documentElement.lang === 'zh-CN' && !window.zhAt) window.zhAt = performance.now(); }).observe(document, {attributes: true, subtree: true});`})
	if err != nil {
		b.t.Fatal(err)
	}
	defer chromedp.Call(b.ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams(script))
	b.visit("/?lang=zh&n=8&algo=stack&step=end")
	// No English is painted first (js/langwait.js), unless the catalog
	// took longer than the 3 s the page waits for it.
	times := eval[[]float64](b, `[performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1, window.zhAt ?? -1]`)
	if fcp, zh := times[0], times[1]; zh < 0 || fcp >= 0 && fcp < zh && zh < 3000 {
		b.t.Errorf("the page painted at %.0f ms and became Chinese at %.0f ms: its English showed first", fcp, zh)
	}
	b.waitJS("the last step", `document.getElementById('watch').dataset.trace === 'loaded' && document.getElementById('watch').dataset.state === 'end'`, 30*time.Second)
	if l := eval[string](b, `document.documentElement.lang`); l != "zh-CN" {
		b.t.Errorf("<html lang=%q>, want zh-CN", l)
	}
	s := b.text("watch-sentence")
	if !hanRE.MatchString(s) || !strings.Contains(s, "92") || regexp.MustCompile(`[A-Za-z]{3,}`).MatchString(s) {
		b.t.Errorf("the last step's sentence is %q: want Chinese naming the 92 solutions", s)
	}
	if s := b.text("watch-event"); !strings.HasPrefix(s, "第 ") {
		b.t.Errorf("the step is named %q", s)
	}
}

// testLangPanels opens every stop with ?lang=zh, its help opened, and
// looks for English words in what it shows; then switches it to English
// (no Chinese shown), to Chinese (no English) and to English again (the
// same text as the first time), without a reload; axe-core checks it in
// both languages.
func testLangPanels(b *browser) {
	for _, p := range langStops() {
		sep := "?"
		if strings.Contains(p.path, "?") {
			sep = "&"
		}
		b.visit(p.path + sep + "lang=zh")
		b.waitJS(p.name+" in Chinese", p.ready, 180*time.Second)
		b.do("open the help", chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach((d) => { d.open = true; }); window.notReloaded = true`))
		if words := englishWords(b); len(words) > 0 {
			b.t.Errorf("%s in Chinese shows English:\n%s", p.path, strings.Join(words, "\n"))
		}
		checkAxe(b, p.name+" in Chinese")
		b.screenshot("zh-" + p.name)

		switchLang(b, "en")
		b.waitJS(p.name+" in English", p.ready, 60*time.Second)
		if han := chineseShown(b); len(han) > 0 {
			b.t.Errorf("%s switched to English shows Chinese:\n%s", p.path, strings.Join(han, "\n"))
		}
		checkAxe(b, p.name+" in English")
		before := visibleText(b)
		switchLang(b, "zh")
		b.waitJS(p.name+" in Chinese again", p.ready, 60*time.Second)
		if words := englishWords(b); len(words) > 0 {
			b.t.Errorf("%s switched back to Chinese shows English:\n%s", p.path, strings.Join(words, "\n"))
		}
		switchLang(b, "en")
		b.waitJS(p.name+" in English again", p.ready, 60*time.Second)
		if !eval[bool](b, `window.notReloaded === true`) {
			b.t.Fatalf("%s: the switch reloaded the page", p.name)
		}
		if after := visibleText(b); after != before {
			b.t.Errorf("%s: English, Chinese and English again differs from English: %s", p.name, firstDiff(before, after))
		}
	}
}

// chineseShown lists the visible text nodes that hold Chinese characters,
// the switch's 中文 apart.
func chineseShown(b *browser) []string {
	b.t.Helper()
	return eval[[]string](b, `(() => {
		const out = [];
		const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let node; (node = walker.nextNode());) {
			const el = node.parentElement;
			if (!el || el.closest('[lang="zh-CN"], script, style') || !/\p{Script=Han}/u.test(node.data)) continue;
			if (el.closest('option') ? el.closest('select').checkVisibility() : el.checkVisibility({ visibilityProperty: true })) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ': ' + node.data.trim().slice(0, 100));
		}
		return out.slice(0, 20);
	})()`)
}

// testLangChoice: the switch's choice is kept for the next visit, which
// the address overrides; the browser's languages choose when neither says.
func testLangChoice(b *browser) {
	b.visit("/?n=5")
	switchLang(b, "zh")
	b.visit("/?n=5")
	if l := eval[string](b, `document.documentElement.lang`); l != "zh-CN" {
		b.t.Errorf("a visit after choosing 中文 is in %q", l)
	}
	if u := eval[string](b, `location.search`); !strings.Contains(u, "lang=zh") {
		b.t.Errorf("the address %q does not name the language", u)
	}
	b.visit("/?n=5&lang=en")
	if l := eval[string](b, `document.documentElement.lang`); l != "en" || b.text("watch-title") != "Watch a search" {
		b.t.Errorf("?lang=en shows %q, %q", l, b.text("watch-title"))
	}
	switchLang(b, "en")
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`import('./js/i18n.js').then((i18n) => [
		i18n.chooseLang(['en', 'zh'], '', null, ['zh-TW', 'en']), i18n.chooseLang(['en', 'zh'], '', null, ['fr-FR', 'de']), i18n.chooseLang(['en', 'zh'], '?lang=zh', 'en', ['en'])])`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatal(err)
	}
	if !slices.Equal(got, []string{"zh", "en", "zh"}) {
		b.t.Errorf("chooseLang by the browser's languages, none known, and the address over the saved choice: %q", got)
	}
}

// testSiteLanguages opens the static build in Chinese, which its own
// catalogs (locales/) and its solver in the browser write, then switches
// it to English and back, with no server.
func testSiteLanguages(b *browser) {
	b.visit("/?lang=zh&n=6&algo=stack&step=end")
	b.waitJS("the last step", `document.getElementById('watch').dataset.trace === 'loaded' && document.getElementById('watch').dataset.state === 'end'`, 60*time.Second)
	if words := englishWords(b); len(words) > 0 {
		b.t.Errorf("the static build in Chinese shows English:\n%s", strings.Join(words, "\n"))
	}
	if s := b.text("site-note"); !hanRE.MatchString(s) || !strings.Contains(s, "WebAssembly") {
		b.t.Errorf("the footer in Chinese says %q", s)
	}
	switchLang(b, "en")
	b.waitJS("the last step in English", `document.getElementById('watch').dataset.trace === 'loaded' && document.getElementById('watch').dataset.state === 'end'`, 60*time.Second)
	if s := b.text("site-note"); !strings.Contains(s, "runs in your browser") || b.text("watch-title") != "Watch a search" {
		b.t.Errorf("the static build switched to English says %q, %q", b.text("watch-title"), s)
	}
	switchLang(b, "zh")
	b.waitJS("the last step in Chinese", `document.getElementById('watch').dataset.trace === 'loaded' && document.getElementById('watch').dataset.state === 'end'`, 60*time.Second)
	if s := b.text("watch-title"); !hanRE.MatchString(s) {
		b.t.Errorf("the static build switched back to Chinese says %q", s)
	}
	switchLang(b, "en") // the choice is kept: the steps after this one read English
}

// testChineseStates shows in Chinese what the panels show beyond their
// first view: each strategy's own data, the brute force's candidates, the
// end of a search, a search from a board of Try it, Try it's hint, count,
// solution and variants, and a board of the gallery opened large.
func testChineseStates(b *browser) {
	watch := `document.getElementById('watch').dataset.trace === 'loaded'`
	for _, path := range []string{
		"/?lang=zh&n=6&algo=brute-rows&step=5", "/?lang=zh&n=8&algo=bitmask&step=40", "/?lang=zh&n=8&algo=backtrack-flags&step=133",
		"/?lang=zh&n=8&algo=backtrack-array&step=50", "/?lang=zh&n=8&algo=backtrack-2d&step=50", "/?lang=zh&n=6&algo=stack&step=end",
		"/?lang=zh&n=6&algo=stack&queens=2,0,0,0,0,0&blocked=1-1,3-3&step=20", "/?lang=zh&n=3&algo=stack&step=end",
	} {
		b.visit(path)
		b.waitJS(path, watch, 30*time.Second)
		if words := englishWords(b); len(words) > 0 {
			b.t.Errorf("%s shows English:\n%s", path, strings.Join(words, "\n"))
		}
	}
	shows := func(what string) {
		b.t.Helper()
		if words := englishWords(b); len(words) > 0 {
			b.t.Errorf("%s shows English:\n%s", what, strings.Join(words, "\n"))
		}
	}
	b.visit("/?lang=zh&panel=complete&n=6&queens=2,4,0,0,0,0")
	b.do("hint", chromedp.Click(chromedp.ID("complete-hint")))
	b.waitJS("the hint", `document.querySelector('#complete-board .hint') !== null`, 20*time.Second)
	shows("Try it's hint")
	b.do("count", chromedp.Click(chromedp.ID("complete-count")))
	b.waitJS("the count", `document.getElementById('complete').dataset.state === 'counted'`, 20*time.Second)
	shows("Try it's count")
	b.do("complete", chromedp.Evaluate[chromedp.Void](`document.getElementById('complete-torus').click()`))
	b.waitJS("the torus", `!document.getElementById('complete-variant-legend').hidden`, 5*time.Second)
	shows("Try it on a torus")
	b.visit("/?lang=zh&panel=complete&n=4&queens=2,4,1,3")
	shows("Try it with a solution")

	b.visit("/?lang=zh&panel=gallery&n=6")
	b.waitJS("the gallery", `document.querySelectorAll('.thumb').length > 0`, 20*time.Second)
	b.do("open a board", chromedp.Click(chromedp.CSS(`#gallery-classes .thumb-fig:nth-child(2) button`)))
	b.waitJS("the large board", `document.getElementById('gallery-dialog').open`, 10*time.Second)
	shows("the gallery's board")
	checkAxe(b, "the gallery's board in Chinese")

	// A random solution of Huge N: its status, caption and picture's text
	// follow the switch, with no new solve.
	b.visit("/?lang=zh&panel=huge&n=2000&method=random&seed=3")
	b.do("solve", chromedp.Click(chromedp.ID("huge-go")))
	b.waitJS("the random solution", `document.getElementById('huge').dataset.state === 'done'`, 60*time.Second)
	shows("Huge N's random solution")
	hugeText := func() []string {
		return eval[[]string](b, `['huge-status', 'huge-caption'].map((id) => document.getElementById(id).textContent).concat(document.getElementById('huge-img').alt)`)
	}
	zh := hugeText()
	switchLang(b, "en")
	en := hugeText()
	for i, s := range en {
		if hanRE.MatchString(s) || !strings.Contains(s, "2,000") || !hanRE.MatchString(zh[i]) || !strings.Contains(zh[i], "2,000") {
			b.t.Errorf("Huge N's random solution of 2,000 says %q in Chinese, %q switched to English", zh[i], s)
		}
	}
	if !strings.Contains(en[1], "each pixel is a block of") {
		b.t.Errorf("the caption of the random solution of 2,000 in English: %q", en[1])
	}
	switchLang(b, "zh")
	if again := hugeText(); !slices.Equal(again, zh) {
		b.t.Errorf("Huge N's random solution switched back to Chinese says %q, first %q", again, zh)
	}

	// On a phone the Chinese page fits the width, as the English one does.
	b.viewport(390, 844)
	for _, p := range langPanels {
		b.visit(p.path + "&lang=zh")
		b.waitJS(p.name+" in Chinese", p.ready, 180*time.Second)
		noSideways(b, p.name+" in Chinese at 390 px")
	}
}
