package web

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/nqueens/nqueens/classic"
)

// TestCompare checks /api/compare against the library: the strategies
// asked for, in the library's order, each run's counters those of Solve
// and a time; a brute-force method out of reach with its exact candidates
// and their formula; unknown and non-classic names refused.
func TestCompare(t *testing.T) {
	s := newServer(t, Config{})
	rec := do(s, "GET", "/api/compare?n=6&algos=bitmask,permutations,backtrack-2d", "")
	var rows []compareJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &rows); err != nil || rec.Code != 200 {
		t.Fatalf("status %d: %v: %s", rec.Code, err, rec.Body)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Algorithm)
		a, _ := classic.Lookup(r.Algorithm)
		c, err := a.Solve(context.Background(), 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Elapsed = 0
		if r.Status != "ok" || r.Counters == nil || *r.Counters != c || r.Seconds <= 0 {
			t.Errorf("%s: %+v, the library counts %v", r.Algorithm, r, c)
		}
	}
	if want := []string{"permutations", "backtrack-2d", "bitmask"}; !slices.Equal(names, want) {
		t.Errorf("rows %q, want %q", names, want)
	}

	rec = do(s, "GET", "/api/compare?n=12&algos=brute-combinations", "")
	rows = nil
	if err := json.Unmarshal(rec.Body.Bytes(), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("status %d: %v: %s", rec.Code, err, rec.Body)
	}
	if r := rows[0]; r.Status != "skipped" || r.Candidates == nil || r.Candidates.String() != "103619293824707388" || r.Formula != "C(n², n)" || r.Estimate <= 1 {
		t.Errorf("brute-combinations at 12: %+v", r)
	}
	for _, tc := range []struct{ query, want string }{
		{"n=6&algos=fast", "algos: fast is no classic strategy"},
		{"n=6&algos=bitmask,quick", `algos: unknown algorithm "quick"`},
		{"n=13", "out of range for compare"},
	} {
		wantRequestError(t, s, "GET", "/api/compare?"+tc.query, "", 400, tc.want)
	}
}
