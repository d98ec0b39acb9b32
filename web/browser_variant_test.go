package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nqueens/nqueens/variant"
)

// setChecked ticks or unticks a checkbox as a person would, by clicking it
// when it is not as wanted.
func setChecked(b *browser, id string, on bool) {
	b.t.Helper()
	if eval[bool](b, fmt.Sprintf(`document.getElementById(%q).checked`, id)) != on {
		b.do("click "+id, chromedp.Click(chromedp.ID(id)))
	}
}

// countVariant counts a variant in the Count panel and checks the numbers
// against the library's, with the OEIS sequence named and its term checked.
func countVariant(b *browser, s variant.Spec, oeis string) {
	b.t.Helper()
	setChecked(b, "count-torus", s.Torus)
	setChecked(b, "count-super", s.Piece == variant.Superqueen)
	b.do(fmt.Sprintf("count %v", s), chromedp.SetValue(chromedp.ID("count-n"), strconv.Itoa(s.Rows)), chromedp.Click(chromedp.ID("count-start")))
	b.waitJS("the count", fmt.Sprintf(`document.getElementById('count').dataset.state === 'done' && document.getElementById('count-status').textContent.includes('N = %d ')`, s.Rows), 60*time.Second)
	want, err := variant.Count(context.Background(), s, variant.Options{})
	if err != nil {
		b.t.Fatal(err)
	}
	total := b.text("count-total")
	unique, _, _ := strings.Cut(b.text("count-unique"), " (")
	if total != groupDigits(want.Total.String()) || unique != groupDigits(want.Unique.String()) || !strings.Contains(b.text("count-unique"), "symmetries of the square") {
		b.t.Fatalf("%v: the panel shows %q solutions, %q classes; the library counts %v, %v", s, total, b.text("count-unique"), want.Total, want.Unique)
	}
	if ref := b.text("count-reference"); !strings.HasPrefix(ref, "matches "+oeis) {
		b.t.Fatalf("%v: OEIS %q, want the published term of %s checked", s, ref, oeis)
	}
}

// groupDigits writes a decimal number with thousands separators, as the
// page does.
func groupDigits(s string) string {
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// testVariants checks the torus and superqueens on the page: the Count
// panel counts them as the library does and names their OEIS sequences;
// in Try it, a conflict round the edge of the torus is drawn as two
// pieces, one leaving an edge and one coming back at the other, a
// superqueen's knight's move is dashed and named in the squares' labels,
// the strategies wait for the plain board, and a full board is checked by
// the server by the variant's rules; both panels pass axe-core as shown.
func testVariants(b *browser) {
	b.open("count")
	countVariant(b, variant.Spec{Rows: 7, Torus: true}, "A051906")
	countVariant(b, variant.Spec{Rows: 10, Piece: variant.Superqueen}, "A051223")
	checkAxe(b, "the count panel with a variant's count")
	setChecked(b, "count-torus", false)
	setChecked(b, "count-super", false)

	b.open("complete")
	setBoard(b, 5, nil, nil)
	setChecked(b, "complete-torus", true)
	if !eval[bool](b, `['complete-hint', 'complete-go', 'complete-count'].every((id) => document.getElementById(id).disabled)`) {
		b.t.Fatal("on a torus the strategies' buttons are not disabled")
	}
	b.do("(1, 5) and (2, 1)", chromedp.Click(square(1, 5)), chromedp.Click(square(2, 1)))
	lines := eval[[][4]float64](b, `[...document.querySelectorAll('#complete-board svg line.conflict')].map((l) => ['x1','y1','x2','y2'].map((a) => Number(l.getAttribute(a))))`)
	// The ↘ diagonal from (1, 5) leaves the right edge half a row down and
	// comes back at the left edge to (2, 1), in the SVG's square units.
	if want := [][4]float64{{4.5, 0.5, 5, 1}, {0, 1, 0.5, 1.5}}; fmt.Sprint(lines) != fmt.Sprint(want) {
		b.t.Fatalf("the wrapped conflict is drawn as %v, want %v", lines, want)
	}
	if l := eval[string](b, `document.querySelector('#complete-board [data-row="3"][data-col="2"]').getAttribute('aria-label')`); !strings.Contains(l, "round the edge") {
		b.t.Fatalf("(3, 2), attacked round the edge by (2, 1)… or (1, 5): %q", l)
	}
	checkAxe(b, "Try it on a torus")
	b.screenshot("complete-torus")

	setBoard(b, 8, nil, nil)
	setChecked(b, "complete-torus", false)
	setChecked(b, "complete-super", true)
	b.do("(1, 1) and (2, 3)", chromedp.Click(square(1, 1)), chromedp.Click(square(2, 3)))
	if k := eval[int](b, `document.querySelectorAll('#complete-board svg line.conflict.knight').length`); k != 1 {
		b.t.Fatalf("%d knight's-move lines between (1, 1) and (2, 3), want 1", k)
	}
	if l := eval[string](b, `document.querySelector('#complete-board [data-row="3"][data-col="2"]').getAttribute('aria-label')`); !strings.Contains(l, "knight's move of the queen in row 1") {
		b.t.Fatalf("(3, 2), a knight's move from (1, 1): %q", l)
	}
	b.screenshot("complete-super")

	// A solution of the 5 × 5 torus, checked by the server.
	setBoard(b, 5, nil, nil)
	setChecked(b, "complete-super", false)
	setChecked(b, "complete-torus", true)
	for r, c := range []int{1, 3, 5, 2, 4} {
		b.do(fmt.Sprintf("(%d, %d)", r+1, c), chromedp.Click(square(r+1, c)))
	}
	b.waitJS("the server's verdict", `document.getElementById('complete').dataset.state === 'solved'`, 20*time.Second)
	if s := b.text("complete-status"); !strings.Contains(s, "A solution with a torus") || !strings.Contains(s, "checked by the server") {
		b.t.Fatalf("the torus solution 1 3 5 2 4: %q", s)
	}
	setChecked(b, "complete-torus", false)
	if eval[bool](b, `document.getElementById('complete-hint').disabled`) {
		b.t.Fatal("back on the plain board, Hint stays disabled")
	}
}
