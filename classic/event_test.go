package classic

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
)

func candidateTracers() []CandidateTracer {
	var ts []CandidateTracer
	for _, s := range All() {
		if t, ok := s.(CandidateTracer); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// TestCandidateTraces checks every brute-force trace against the strategy's
// own Solve: one event per candidate, numbered in order, the solutions in
// Solve's order, each rejection naming a pair that really attacks and no
// earlier pair that does, and the final counters equal to Solve's.
func TestCandidateTraces(t *testing.T) {
	if len(candidateTracers()) != 3 {
		t.Fatalf("%d brute-force strategies can be traced, want 3", len(candidateTracers()))
	}
	for _, tr := range candidateTracers() {
		maxN := 6 // C(36, 6) = 1,947,792 sets for brute-combinations
		if testing.Short() || tr.Name() == "brute-combinations" {
			maxN = 5
		}
		for n := 1; n <= maxN; n++ {
			var want []board.Placement
			solved, err := tr.Solve(context.Background(), n, func(p board.Placement) bool {
				want = append(want, p.Clone())
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			solved.Elapsed = 0
			var got []board.Placement
			var last Event
			k := uint64(0)
			for e, err := range tr.TraceCandidates(context.Background(), n) {
				if err != nil {
					t.Fatal(err)
				}
				if e.Kind == Done {
					if e.Step != k+1 || e.Counters != last.Counters || !strings.Contains(e.Text, plural(solved.Solutions, "solution")) {
						t.Fatalf("%s n=%d: done %v %q after %d candidates", tr.Name(), n, e, e.Text, k)
					}
					continue
				}
				if want := last.Counters.Reads + candidateReads(e); e.Counters.Reads != want {
					t.Fatalf("%s n=%d: candidate %d reads %d, want %d", tr.Name(), n, k+1, e.Counters.Reads-last.Counters.Reads, want-last.Counters.Reads)
				}
				checkNumbers(t, tr.Name(), e.Text, n)
				k++
				where := func() string { return tr.Name() + " " + e.String() }
				if e.Step != k || e.Candidate != k || e.Counters.Nodes != k || e.Counters.Tries != k {
					t.Fatalf("%s: candidate %d numbered %d (counters %v)", where(), k, e.Candidate, e.Counters)
				}
				switch e.Kind {
				case Solution:
					if board.Verify(e.Queens) != nil {
						t.Fatalf("%s: not a solution", where())
					}
					got = append(got, e.Queens)
				case Reject:
					checkFirstAttack(t, where(), e)
				default:
					t.Fatalf("%s: kind %s", where(), e.Kind)
				}
				last = e
			}
			if k != tr.Candidates(n).Uint64() || last.Counters != solved || !reflect.DeepEqual(got, want) {
				t.Errorf("%s n=%d: %d events ending with %v and solutions %v; Solve: %d candidates, %v, %v",
					tr.Name(), n, k, last.Counters, got, tr.Candidates(n), solved, want)
			}
		}
	}
}

// candidateReads is what the brute-force check of the candidate of e reads,
// by its definition: a square of a set is one read to see whether its row
// is taken; then the pairs i < j in order, p[i] once for each i that has a
// pair and p[j] once for each pair, up to the first that attack each other.
func candidateReads(e Event) uint64 {
	n := len(e.Queens)
	var reads uint64
	if e.Squares != nil {
		if e.Attack == board.SameRow {
			for k, sq := range e.Squares {
				if sq == (board.Square{Row: e.Row, Col: e.Col}) {
					return uint64(k + 1)
				}
			}
		}
		reads = uint64(n)
	}
	for i := 0; i < n-1; i++ {
		reads++
		for j := i + 1; j < n; j++ {
			reads++
			if e.Kind == Reject && e.By.Row == i && e.Row == j {
				return reads
			}
		}
	}
	return reads
}

// checkFirstAttack checks a rejected candidate: (Row, Col) and By are two of
// its queens on one line, and no pair found earlier by the strategies' check
// attacks.
func checkFirstAttack(t *testing.T, where string, e Event) {
	t.Helper()
	at, by := board.Square{Row: e.Row, Col: e.Col}, e.By
	queens := e.Squares
	if queens == nil {
		for r, c := range e.Queens {
			queens = append(queens, board.Square{Row: r, Col: int(c)})
		}
	}
	has := func(s board.Square) bool {
		for _, q := range queens {
			if q == s {
				return true
			}
		}
		return false
	}
	switch {
	case !has(at) || !has(by) || at == by:
		t.Fatalf("%s: the pair is not two queens of the candidate %v", where, queens)
	case e.Attack == board.SameRow && at.Row != by.Row:
		t.Fatalf("%s: not in one row", where)
	case e.Attack != board.SameRow && !board.Attacks(at, by):
		t.Fatalf("%s: the pair does not attack", where)
	case e.Attack != board.SameRow && e.Squares != nil:
		// brute-combinations checks rows first: no two squares share one.
		seen := map[int]bool{}
		for _, q := range e.Squares {
			if seen[q.Row] {
				t.Fatalf("%s: two squares share row %d, found before the attack", where, q.Row+1)
			}
			seen[q.Row] = true
		}
	}
	if e.Attack != board.SameRow {
		for i := 0; i < by.Row; i++ {
			for j := i + 1; j < len(e.Queens); j++ {
				if board.Attacks(board.Square{Row: i, Col: int(e.Queens[i])}, board.Square{Row: j, Col: int(e.Queens[j])}) {
					t.Fatalf("%s: rows %d and %d attack each other, an earlier pair", where, i+1, j+1)
				}
			}
		}
	}
}

// TestCandidateEventJSON round-trips a rejected candidate of
// brute-combinations, whose two queens share a row.
func TestCandidateEventJSON(t *testing.T) {
	tr, _ := Lookup("brute-combinations")
	for e, err := range tr.(CandidateTracer).TraceCandidates(context.Background(), 4) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		const want = `{"step":1,"kind":"reject","row":1,"col":2,"by":{"row":1,"col":1},"attack":"same row","queens":[1,0,0,0],"counters":{"nodes":1,"tries":1,"reads":2,"placed":0,"rejected":1,"backtracks":0,"solutions":0},"text":"Candidate 1: the queens in row 1, column 1 and row 1, column 2 share a row: rejected; on to the next set of squares.","line":2,"candidate":1,"squares":[{"row":1,"col":1},{"row":1,"col":2},{"row":1,"col":3},{"row":1,"col":4}]}`
		if string(b) != want {
			t.Fatalf("JSON\n%s\nwant\n%s", b, want)
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, e) {
			t.Fatalf("round trip: %v, %+v, want %+v", err, back, e)
		}
		break
	}
}

// TestCandidateTraceStops checks that a trace stops when the loop does and
// when the context is cancelled.
func TestCandidateTraceStops(t *testing.T) {
	for _, tr := range candidateTracers() {
		checkStops(t, tr.Name(), tr.TraceCandidates)
	}
}
