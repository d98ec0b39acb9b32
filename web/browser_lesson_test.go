package web

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/solve"
)

// TestLessonPage uses, in Chromium, the views of the lesson issue as a
// learner would, measuring what they show against the engine's own
// outputs: the construction drawn from the address.
func TestLessonPage(t *testing.T) {
	b := newBrowser(t, Config{MaxJobs: 8, MaxTraceEvents: 20000})
	runSteps(t, b, []browserStep{
		{"huge-construct", testHugeConstruct},
	})
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
