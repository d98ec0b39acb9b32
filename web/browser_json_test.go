package web

import (
	"slices"

	"github.com/chromedp/chromedp"
)

// testBigCounts: the page reads a count past 2^53 exactly from the JSON
// number the API writes (docs/json.md), and the rest as plain numbers.
func testBigCounts(b *browser) {
	b.visit("/?n=4")
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`import('./js/api.js').then((api) => {
		const v = api.parseJSON('{"n":27,"total":234907967154122528,"unique":29363495934315694,"nodes":18446744073709551621,"units":14200,"seconds":1.5e+20,"s":"12345678901234567890"}');
		return [v.total, v.unique, v.nodes, v.units, v.seconds, v.s].map((x) => typeof x + ' ' + String(x));
	})`, chromedp.EvalAwaitPromise))
	want := []string{"bigint 234907967154122528", "bigint 29363495934315694", "bigint 18446744073709551621", "number 14200", "number 150000000000000000000", "string 12345678901234567890"}
	if err != nil || !slices.Equal(got, want) {
		b.t.Fatalf("parseJSON: %q (%v), want %q", got, err, want)
	}
}
