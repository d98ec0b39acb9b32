package classic

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/nqueens/nqueens/board"
)

// startBoards are partial boards of n rows to start searches from: the
// empty board, then boards of up to two queens that do not attack each
// other and up to three blocked squares, drawn from a fixed seed.
func startBoards(n, k int) []board.Partial {
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	out := []board.Partial{{Queens: board.New(n)}}
	for len(out) < k {
		p := board.Partial{Queens: board.New(n)}
		for range rng.IntN(3) {
			r, c := rng.IntN(n), rng.IntN(n)
			p.Queens[r] = int32(c)
			if board.Check(p.Queens) != nil {
				p.Queens[r] = board.Empty
			}
		}
		for range rng.IntN(4) {
			r, c := rng.IntN(n), rng.IntN(n)
			if p.Queens[r] != int32(c) && !slices.Contains(p.Blocked, board.Square{Row: r, Col: c}) {
				p.Blocked = append(p.Blocked, board.Square{Row: r, Col: c})
			}
		}
		out = append(out, p)
	}
	return out
}

// completions are the solutions of the n×n board that hold p's queens and
// leave its blocked squares free, in the order of the column lists: every
// solution, filtered.
func completions(t *testing.T, p board.Partial) []board.Placement {
	t.Helper()
	var out []board.Placement
	a, _ := Lookup("backtrack-array")
	if _, err := a.Solve(context.Background(), len(p.Queens), func(s board.Placement) bool {
		if (board.Partial{Queens: s, Blocked: p.Blocked}).Verify() != nil {
			return true
		}
		for r, c := range p.Queens {
			if c != board.Empty && s[r] != c {
				return true
			}
		}
		out = append(out, slices.Clone(s))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTraceFrom checks every backtracking strategy started from partial
// boards: each is a Completer; its events replay on the columns the board
// offers (replayOn: the rows tried in order on their open columns, the
// sentences, the counters); its solutions are exactly the board's
// completions, in order; from the empty board it is Trace.
func TestTraceFrom(t *testing.T) {
	maxN := 8
	if testing.Short() || raceOn {
		maxN = 6
	}
	for _, tr := range tracers() {
		if _, brute := tr.(CandidateTracer); brute {
			continue
		}
		c, ok := tr.(Completer)
		if !ok {
			t.Errorf("%s is a backtracking strategy but no Completer", tr.Name())
			continue
		}
		t.Run(tr.Name(), func(t *testing.T) {
			t.Parallel()
			for n := 1; n <= maxN; n++ {
				for i, p := range startBoards(n, 12) {
					var events []Event
					for e, err := range c.TraceFrom(context.Background(), p) {
						if err != nil {
							t.Fatalf("n=%d board %v: %v", n, p, err)
						}
						events = append(events, e)
					}
					open := make([]uint64, n)
					for r := range open {
						for col := range n {
							if (p.Queens[r] == board.Empty || p.Queens[r] == int32(col)) && !slices.Contains(p.Blocked, board.Square{Row: r, Col: col}) {
								open[r] |= 1 << col
							}
						}
					}
					replayOn(t, tr.Name(), field{n: n, open: open}, events)
					var found []board.Placement
					for _, e := range events {
						if e.Kind == Solution {
							found = append(found, e.Queens)
						}
					}
					if want := completions(t, p); !reflect.DeepEqual(found, want) && len(found)+len(want) > 0 {
						t.Fatalf("n=%d from %v blocked %v: solutions %v, the completions are %v", n, p.Queens, p.Blocked, found, want)
					}
					if i == 0 && !reflect.DeepEqual(events, collect(t, tr, n)) {
						t.Fatalf("n=%d: from the empty board the events are not Trace's", n)
					}
				}
			}
		})
	}
}

// TestTraceFromErrors checks the refusals: a board whose queens attack
// each other, a queen on a blocked square or a blocked square off the
// board is a *StartError naming it; a size out of range a *SizeError.
func TestTraceFromErrors(t *testing.T) {
	s, _ := Lookup("stack")
	c := s.(Completer)
	for _, tc := range []struct {
		p    board.Partial
		want any
	}{
		{board.Partial{Queens: board.Placement{0, 1, board.Empty, board.Empty}}, new(*StartError)},
		{board.Partial{Queens: board.Placement{1, board.Empty, board.Empty, board.Empty}, Blocked: []board.Square{{Row: 0, Col: 1}}}, new(*StartError)},
		{board.Partial{Queens: board.New(4), Blocked: []board.Square{{Row: 4, Col: 0}}}, new(*StartError)},
		{board.Partial{}, new(*SizeError)},
		{board.Partial{Queens: board.New(MaxN + 1)}, new(*SizeError)},
	} {
		k := 0
		for _, err := range c.TraceFrom(context.Background(), tc.p) {
			k++
			if !errors.As(err, tc.want) {
				t.Errorf("from %v blocked %v: %v, want a %T", tc.p.Queens, tc.p.Blocked, err, tc.want)
			}
		}
		if k != 1 {
			t.Errorf("from %v: %d pairs, want the error alone", tc.p.Queens, k)
		}
	}
}
