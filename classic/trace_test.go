package classic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/internal/testkit"
)

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

// TestTracesAgree checks that every traceable strategy's events replay
// (see replay), that its final counters are those of Solve, and that the
// trace ends with a Done event.
func TestTracesAgree(t *testing.T) {
	maxN := 10
	switch {
	case testing.Short():
		maxN = 6
	case raceOn:
		maxN = 8
	}
	for _, tr := range tracers() {
		t.Run(tr.Name(), func(t *testing.T) {
			t.Parallel()
			for n := 1; n <= maxN; n++ {
				events := collect(t, tr, n)
				replay(t, tr.Name(), n, events)
				solved, _ := tr.Solve(context.Background(), n, nil)
				solved.Elapsed = 0
				if got := events[len(events)-1].Counters; got != solved {
					t.Errorf("%s n=%d: the trace ends with %v, Solve counts %v", tr.Name(), n, got, solved)
				}
			}
		})
	}
}

// TestTracesDiffer checks that the strategies show their own work: at
// n = 8 the streams of the 2-D, array, flags and bitmask searches differ
// pairwise, the bitmask has no rejected try, and the stack keeps the
// articles' figures.
func TestTracesDiffer(t *testing.T) {
	streams := map[string][]byte{}
	kinds := map[string]map[EventKind]int{}
	for _, name := range []string{"backtrack-2d", "backtrack-array", "backtrack-flags", "bitmask", "stack"} {
		s, _ := Lookup(name)
		var buf bytes.Buffer
		kinds[name] = map[EventKind]int{}
		for _, e := range collect(t, s.(Tracer), 8) {
			b, _ := json.Marshal(e)
			buf.Write(b)
			kinds[name][e.Kind]++
		}
		for other, b := range streams {
			if bytes.Equal(b, buf.Bytes()) {
				t.Errorf("%s and %s emit the same events", name, other)
			}
		}
		streams[name] = buf.Bytes()
	}
	if k := kinds["bitmask"]; k[Reject] != 0 || k[Place] != 2056 || k[Solution] != 92 || k[Done] != 1 {
		t.Errorf("bitmask at n = 8: %v, want 0 rejects, 2,056 places, 92 solutions, 1 done", k)
	}
	if k := kinds["stack"]; k[Reject] != 13664 || k[Place] != 2056 {
		t.Errorf("stack at n = 8: %v, want 13,664 rejects and 2,056 places", k)
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
	testkit.Golden(t, "testdata/trace-4-stack.jsonl", buf.Bytes())
}

func TestEventJSONRoundTrip(t *testing.T) {
	var events []Event
	for _, tr := range tracers() {
		events = append(events, collect(t, tr, 5)...)
	}
	for _, e := range events {
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

// TestLessons checks each strategy's pseudocode: every kind of event the
// strategy emits marks one line, and a marked line is code, not a comment
// or a blank.
func TestLessons(t *testing.T) {
	for _, s := range All() {
		l, ok := LessonOf(s)
		if _, traced := TraceOf(s); traced != ok {
			t.Errorf("%s: traceable %v but lesson %v", s.Name(), traced, ok)
		}
		if !ok {
			continue
		}
		if l.Title == "" || len(l.Summary) < 80 || len(l.Code) < 3 {
			t.Errorf("%s: lesson %+v", s.Name(), l)
		}
		kinds := map[EventKind]bool{}
		trace, _ := TraceOf(s)
		for e, err := range trace(context.Background(), 5) {
			if err != nil {
				t.Fatal(err)
			}
			kinds[e.Kind] = true
			text := strings.TrimSpace(l.Code[e.Line-1])
			if text == "" || strings.Contains(text, "#") || strings.HasPrefix(text, "//") {
				t.Errorf("%s: a %s step marks line %d, %q, not code", s.Name(), e.Kind, e.Line, text)
			}
		}
		for _, k := range []EventKind{Solution, Done} {
			if !kinds[k] {
				t.Errorf("%s n=5: no %s event", s.Name(), k)
			}
		}
	}
}
