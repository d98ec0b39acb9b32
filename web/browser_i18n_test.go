package web

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nqueens/nqueens/i18n"
)

// TestI18nRendersAsGo renders every message of every catalog in the page's
// JavaScript (js/i18n.js, from the catalogs the server answers) and in Go
// (package i18n), with the same arguments, and wants the same text: the
// page and the command line say the same thing. Plural messages are
// rendered for counts that take every form, lists of 1 to 4 items too.
func TestI18nRendersAsGo(t *testing.T) {
	b := newBrowser(t, Config{})
	b.visit("/?n=4")
	type call struct {
		Key   string         `json:"key"`
		Count any            `json:"count,omitempty"`
		Args  map[string]any `json:"args"`
		List  []string       `json:"list,omitempty"`
	}
	counts := []any{0, 1, 2, 5, 21, 1000, "2691008701644"}
	for _, l := range i18n.All {
		msgs, err := i18n.Messages(l)
		if err != nil {
			t.Fatal(err)
		}
		p := i18n.For(l)
		var calls []call
		var want []string
		for _, m := range msgs {
			if !m.Page {
				continue // the command line's help, which the page does not load
			}
			args := map[string]any{}
			for i, name := range m.Placeholders {
				if i%2 == 0 {
					args[name] = 1234567 + i // an integer, grouped by both
				} else {
					args[name] = fmt.Sprintf("«%s»", name)
				}
			}
			if !m.Plural {
				calls = append(calls, call{Key: m.Key, Args: args})
				want = append(want, p.T(m.Key, args))
				continue
			}
			delete(args, "Count")
			for _, c := range counts {
				calls = append(calls, call{Key: m.Key, Count: c, Args: args})
				want = append(want, p.N(m.Key, c, args))
			}
		}
		for k := 1; k <= 4; k++ {
			items := []string{"甲", "b", "3", "four"}[:k]
			calls = append(calls, call{List: items})
			want = append(want, p.List(items))
		}
		js, err := json.Marshal(calls)
		if err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`(async () => {
			const i18n = await import('./js/i18n.js');
			await i18n.load(%q);
			return %s.map((c) => c.list ? i18n.list(c.list) : c.count !== undefined ? i18n.tn(c.key, c.count, c.args) : i18n.t(c.key, c.args));
		})()`, l, js), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d renderings in JavaScript, %d in Go", l, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: %+v: JavaScript %q, Go %q", l, calls[i], got[i], want[i])
			}
		}
	}
	if errs := b.pageErrors(); len(errs) > 0 {
		t.Errorf("page errors: %v", errs)
	}
}
