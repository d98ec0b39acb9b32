package web

import (
	"context"
	"encoding/json"
	"reflect"
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
	var rows []classic.Comparison
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
		want := classic.ComparisonCounters{Nodes: c.Nodes, Tries: c.Tries, Reads: &c.Reads, Placed: c.Placed,
			Rejected: c.Rejected, Backtracks: c.Backtracks, Solutions: c.Solutions}
		if r.Status != "ok" || r.Counters == nil || !reflect.DeepEqual(*r.Counters, want) || r.Seconds <= 0 || r.N != 6 {
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
	if r := rows[0]; r.Status != "skipped" || r.Candidates == nil || r.Candidates.String() != "103619293824707388" || r.Formula != "C(n², n)" || r.Estimate <= 1 || r.Rate <= 0 {
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

// TestVerifyVariant checks boards by a variant's rules through the API:
// a solution of the 5 × 5 torus, a diagonal that wraps round the edge, a
// superqueen's knight's move, and the same boards by the plain rules.
func TestVerifyVariant(t *testing.T) {
	s := newServer(t, Config{})
	for _, tc := range []struct {
		body string
		ok   bool
		kind string
	}{
		{`{"queens":[1,3,5,2,4],"torus":true}`, true, ""},
		{`{"queens":[5,1,0,0,0],"torus":true,"partial":true}`, false, "same diagonal"},
		{`{"queens":[5,1,0,0,0],"partial":true}`, true, ""},
		{`{"queens":[1,3,0,0,0,0,0,0],"super":true,"partial":true}`, false, "knight's move"},
		{`{"queens":[1,3,0,0,0,0,0,0],"partial":true}`, true, ""},
		{`{"queens":[1,0,0,0,0,0,0,3],"torus":true,"super":true,"partial":true}`, false, "knight's move"},
	} {
		var v verifyResponse
		rec := do(s, "POST", "/api/verify", tc.body)
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || rec.Code != 200 {
			t.Fatalf("%s: status %d: %v", tc.body, rec.Code, err)
		}
		if v.OK != tc.ok || !tc.ok && (v.Problem == nil || v.Problem.Kind != tc.kind) {
			t.Errorf("%s: %+v, want ok %v, problem %q", tc.body, v, tc.ok, tc.kind)
		}
	}
}
