package count

import (
	"sync"

	"github.com/nqueens/nqueens/internal/reference"
)

// published holds the published counts (OEIS A000170 and A002562) by N,
// from the table embedded in internal/reference.
var published = sync.OnceValue(func() map[int][2]Uint128 {
	rows, err := reference.Load()
	if err != nil {
		// The table is embedded and checked by its own tests; a damaged
		// copy must not pass for "no published count".
		panic("count: the embedded table of published counts is unreadable: " + err.Error())
	}
	out := make(map[int][2]Uint128, len(rows))
	for n, r := range rows {
		t, err1 := parseUint128(r.Total.String())
		u, err2 := parseUint128(r.Unique.String())
		if err1 != nil || err2 != nil {
			panic("count: a published count does not fit 128 bits")
		}
		out[n] = [2]Uint128{t, u}
	}
	return out
})

// Known returns the published total and unique counts for N (Q(26) by
// Queens@TUD in 2009, Q(27) by the Q27 project in 2016), and false where
// none is published (N < 1 or N > 27). Cost O(1) after the first call.
func Known(n int) (total, unique Uint128, ok bool) {
	c, ok := published()[n]
	return c[0], c[1], ok
}
