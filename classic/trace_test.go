package classic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ and the table in docs/algorithms.md")

func tracers() []Tracer {
	var ts []Tracer
	for _, s := range All() {
		if t, ok := s.(Tracer); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

func collect(t *testing.T, tr Tracer, n int) []Event {
	t.Helper()
	var events []Event
	for e, err := range tr.Trace(context.Background(), n) {
		if err != nil {
			t.Fatalf("%s n=%d: %v", tr.Name(), n, err)
		}
		events = append(events, e)
	}
	return events
}

// checkReplay checks that each event is what its predecessor's board allows:
// a place puts a queen on a free square of the next row, a reject names a
// queen that really attacks the square, a remove takes off the last queen,
// a solution is a full valid board; and the counters move by one each time.
func checkReplay(t *testing.T, name string, n int, events []Event) {
	t.Helper()
	prev := Event{Queens: board.New(n), Counters: Counters{Nodes: 1}}
	for i, e := range events {
		where := fmt.Sprintf("%s n=%d event %d (%v)", name, n, i+1, e)
		if e.Step != uint64(i+1) {
			t.Fatalf("%s: step %d", where, e.Step)
		}
		q := prev.Queens.Clone()
		c := prev.Counters
		row := q.Queens() // the row being filled
		switch e.Kind {
		case Place:
			q[row] = int32(e.Col)
			if e.Row != row || board.Check(q) != nil {
				t.Fatalf("%s: placed on an attacked square or out of turn", where)
			}
			c.Placed++
			c.Tries++
			c.Nodes++
		case Reject:
			if e.Row != row || q[e.By.Row] != int32(e.By.Col) ||
				!board.Attacks(board.Square{Row: e.Row, Col: e.Col}, e.By) {
				t.Fatalf("%s: the reason does not hold", where)
			}
			if by, _ := attacker(q, e.Row, e.Col); by != e.By {
				t.Fatalf("%s: attacker is not the topmost one, %v", where, by)
			}
			c.Rejected++
			c.Tries++
		case Remove:
			if row == 0 || e.Row != row-1 || q[e.Row] != int32(e.Col) {
				t.Fatalf("%s: removes a queen that is not on top", where)
			}
			q[e.Row] = board.Empty
			c.Backtracks++
		case Solution:
			if board.Verify(q) != nil {
				t.Fatalf("%s: not a solution", where)
			}
			c.Solutions++
		}
		if !q.Equal(e.Queens) || c != e.Counters {
			t.Fatalf("%s: board %v counters %v, want %v and %v", where, e.Queens, e.Counters, q, c)
		}
		prev = e
	}
}

// TestTracesAgree checks that every traceable strategy, whatever its data
// structure, emits the same events, and that the events replay.
func TestTracesAgree(t *testing.T) {
	st, _ := Lookup("stack")
	for n := 1; n <= 6; n++ {
		want := collect(t, st.(Tracer), n)
		checkReplay(t, "stack", n, want)
		solved, _ := st.Solve(context.Background(), n, nil)
		solved.Elapsed = 0
		if got := want[len(want)-1].Counters; got != solved {
			t.Errorf("n=%d: the trace ends with %v, Solve counts %v", n, got, solved)
		}
		for _, tr := range tracers() {
			if got := collect(t, tr, n); !reflect.DeepEqual(got, want) {
				checkReplay(t, tr.Name(), n, got)
				t.Errorf("%s n=%d: %d events differ from stack's %d", tr.Name(), n, len(got), len(want))
			}
		}
	}
}

func TestTraceStops(t *testing.T) {
	for _, tr := range tracers() {
		k := 0
		for range tr.Trace(context.Background(), 8) { // yielding after a false would panic here
			k++
			if k == 7 {
				break
			}
		}
		checkStops(t, tr.Name(), func(ctx context.Context, n int) iter.Seq2[Event, error] { return tr.Trace(ctx, n) })
	}
}

// checkStops checks the error convention of a trace: cancelled after its
// 7th event, it ends with one pair holding ctx.Err(); a size out of range
// is its only pair, holding a *SizeError; a context cancelled before the
// loop gives only its error.
func checkStops(t *testing.T, name string, trace func(context.Context, int) iter.Seq2[Event, error]) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k := 0
	var errs []error
	for _, err := range trace(ctx, 8) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if k++; k == 7 {
			cancel()
		}
	}
	if k != 7 || len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Errorf("%s: %d events and errors %v after cancelling at the 7th", name, k, errs)
	}
	var pairs []error
	for e, err := range trace(context.Background(), 0) {
		pairs = append(pairs, err)
		if e.Kind != 0 {
			t.Errorf("%s: n = 0 gave an event %v", name, e)
		}
	}
	var se *SizeError
	if len(pairs) != 1 || !errors.As(pairs[0], &se) || se.N != 0 {
		t.Errorf("%s: n = 0 gave %v, want one *SizeError", name, pairs)
	}
	pairs = nil
	for _, err := range trace(ctx, 4) {
		pairs = append(pairs, err)
	}
	if len(pairs) != 1 || !errors.Is(pairs[0], context.Canceled) {
		t.Errorf("%s: a cancelled context gave %v, want context.Canceled alone", name, pairs)
	}
}

func TestTraceGolden(t *testing.T) {
	st, _ := Lookup("stack")
	var buf bytes.Buffer
	for _, e := range collect(t, st.(Tracer), 4) {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	golden(t, filepath.Join("testdata", "trace-4-stack.jsonl"), buf.Bytes())
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, got)
	}
}

func TestEventJSONRoundTrip(t *testing.T) {
	st, _ := Lookup("stack")
	for _, e := range collect(t, st.(Tracer), 5) {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back Event
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !reflect.DeepEqual(back, e) {
			t.Fatalf("round trip of %s gives %+v, want %+v", data, back, e)
		}
	}
}

func TestEventJSONErrors(t *testing.T) {
	for _, in := range []string{
		`{"kind":"jump","queens":[1]}`,
		`{"kind":"place","row":1,"col":1,"queens":[]}`,
		`{"kind":"place","row":5,"col":1,"queens":[1,0,0,0]}`,
		`{"kind":"place","row":1,"col":1,"queens":[9,0,0,0]}`,
		`{"kind":"reject","row":2,"col":1,"queens":[1,0,0,0]}`,
		`{"kind":"reject","row":2,"col":1,"by":{"row":1,"col":1},"attack":"knight","queens":[1,0,0,0]}`,
		`[1,2]`,
	} {
		var e Event
		if err := json.Unmarshal([]byte(in), &e); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

// FuzzEventJSON checks that any event the parser accepts survives a round
// trip, seeded with the golden trace.
func FuzzEventJSON(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "trace-4-stack.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f.Add(sc.Text())
	}
	f.Fuzz(func(t *testing.T, in string) {
		var e Event
		if json.Unmarshal([]byte(in), &e) != nil {
			return
		}
		out, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%q parsed but does not print: %v", in, err)
		}
		var back Event
		if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back, e) {
			t.Fatalf("%q → %s → %+v (%v), want %+v", in, out, back, err, e)
		}
	})
}

func TestEventString(t *testing.T) {
	tests := []struct {
		e    Event
		want string
	}{
		{Event{Kind: Place, Row: 1, Col: 3}, "place row 2, col 4"},
		{Event{Kind: Reject, Row: 2, Col: 0, By: board.Square{Row: 1, Col: 1}, Attack: board.Diagonal},
			"reject row 3, col 1: attacked by queen at row 2, col 2 (same diagonal)"},
		{Event{Kind: Remove, Row: 0, Col: 0}, "remove row 1, col 1"},
		{Event{Kind: Solution, Queens: board.FromOneBased(2, 4, 1, 3), Counters: Counters{Solutions: 1}}, "solution 1: 2 4 1 3"},
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	if !strings.Contains(EventKind(9).String(), "9") {
		t.Error("unknown kind prints no number")
	}
}
