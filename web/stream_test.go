package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/faults"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/variant"
)

// startHTTP serves s on a loopback port for the tests that stream.
func startHTTP(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func get(t *testing.T, url string) *http.Response {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// TestTraceMatchesLibrary checks the stream against the library: the same
// events, in the JSON form of `nqueens trace --format json`, and final
// counters equal to those of a plain Solve (what `nqueens count --algo
// --stats` prints).
func TestTraceMatchesLibrary(t *testing.T) {
	s := newServer(t, Config{})
	ts := startHTTP(t, s)
	for _, tc := range []struct {
		algo string
		n    int
	}{{"stack", 6}, {"backtrack-2d", 5}, {"bitmask", 4}, {"backtrack-flags-iterative", 1}} {
		res := get(t, ts.URL+"/api/trace?n="+itoa(tc.n)+"&algo="+tc.algo)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("%s: status %d, Content-Type %q", tc.algo, res.StatusCode, res.Header.Get("Content-Type"))
		}
		events := readEvents(t, res.Body)
		a, _ := classic.Lookup(tc.algo)
		i := 0
		for e, err := range a.(classic.Tracer).Trace(context.Background(), tc.n) {
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(e)
			if i >= len(events) || events[i].Name != "message" || events[i].Data != string(want) {
				t.Fatalf("%s n=%d event %d: got %+v, want %s", tc.algo, tc.n, i, events[min(i, len(events)-1)], want)
			}
			i++
		}
		if len(events) != i+1 || events[i].Name != "end" {
			t.Fatalf("%s: %d events, want %d and an end event", tc.algo, len(events), i+1)
		}
		var end traceEnd
		if err := json.Unmarshal([]byte(events[i].Data), &end); err != nil {
			t.Fatal(err)
		}
		c, err := a.Solve(context.Background(), tc.n, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Elapsed = 0
		if !end.Complete || end.Truncated || end.Events != i || end.Counters != c || end.Algorithm != tc.algo {
			t.Fatalf("%s: end %+v, want counters %+v after %d events", tc.algo, end, c, i)
		}
	}
}

// TestTraceFromBoard checks the trace that starts from a board, given as
// queens or as board text with blocked squares: the library's TraceFrom,
// event for event.
func TestTraceFromBoard(t *testing.T) {
	ts := startHTTP(t, newServer(t, Config{}))
	for _, tc := range []struct {
		algo, query string
		start       board.Partial
	}{
		{"bitmask", "n=6&queens=2,0,0,0,0,0", board.Partial{Queens: board.Placement{1, -1, -1, -1, -1, -1}}},
		{"backtrack-2d", "n=5&queens=0,0,3,0,0", board.Partial{Queens: board.Placement{-1, -1, 2, -1, -1}}},
		{"stack", "n=4&input=dots&board=" + url.QueryEscape(".x..\n....\n....\n..Q.\n"),
			board.Partial{Queens: board.Placement{-1, -1, -1, 2}, Blocked: []board.Square{{Row: 0, Col: 1}}}},
		{"backtrack-flags-iterative", "n=3&input=dots&board=" + url.QueryEscape("...\nxxx\n...\n"),
			board.Partial{Queens: board.New(3), Blocked: []board.Square{{Row: 1, Col: 0}, {Row: 1, Col: 1}, {Row: 1, Col: 2}}}},
	} {
		res := get(t, ts.URL+"/api/trace?algo="+tc.algo+"&"+tc.query)
		events := readEvents(t, res.Body)
		a, _ := classic.Lookup(tc.algo)
		i := 0
		for e, err := range a.(classic.Completer).TraceFrom(context.Background(), tc.start) {
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(e)
			if i >= len(events) || events[i].Data != string(want) {
				t.Fatalf("%s %s event %d: got %+v, want %s", tc.algo, tc.query, i, events[min(i, len(events)-1)], want)
			}
			i++
		}
		if len(events) != i+1 || events[i].Name != "end" {
			t.Fatalf("%s %s: %d events, want %d and an end event", tc.algo, tc.query, len(events), i+1)
		}
	}
}

func TestTraceLimit(t *testing.T) {
	s := newServer(t, Config{MaxTraceEvents: 50})
	ts := startHTTP(t, s)
	for _, tc := range []struct {
		query     string
		events    int
		truncated bool
	}{
		{"n=8", 50, true},          // the server's limit
		{"n=8&limit=7", 7, true},   // the client's
		{"n=4&limit=50", 0, true},  // the n=4 search has more than 50 steps
		{"n=1&limit=50", 4, false}, // place, solution, remove, done
	} {
		events := readEvents(t, get(t, ts.URL+"/api/trace?"+tc.query).Body)
		var end traceEnd
		if err := json.Unmarshal([]byte(events[len(events)-1].Data), &end); err != nil {
			t.Fatal(err)
		}
		if tc.events == 0 {
			tc.events = 50
		}
		if len(events) != tc.events+1 || end.Events != tc.events || end.Truncated != tc.truncated || end.Complete == tc.truncated {
			t.Fatalf("%s: %d events, end %+v", tc.query, len(events), end)
		}
	}
}

// TestTraceClientGone checks that a client that leaves mid-stream stops the
// search and frees its job slot.
func TestTraceClientGone(t *testing.T) {
	s := newServer(t, Config{MaxJobs: 1, MaxTraceEvents: 1 << 30})
	ts := startHTTP(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/trace?n=20&limit=1000000000", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	if _, err := res.Body.Read(buf); err != nil {
		t.Fatal(err)
	}
	if len(s.jobs) != 1 {
		t.Fatalf("%d job slots taken while streaming, want 1", len(s.jobs))
	}
	cancel()
	res.Body.Close()
	testkit.WaitFor(t, "the trace to stop", func() bool { return len(s.jobs) == 0 })
}

// countEvents starts a count of n and returns the job and its event stream.
func startCount(t *testing.T, ts *httptest.Server, n int) countStatusJSON {
	t.Helper()
	res, err := http.Post(ts.URL+"/api/count", "application/json", strings.NewReader(`{"n":`+itoa(n)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st countStatusJSON
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	// A small count may be done before the answer is written.
	if res.StatusCode != http.StatusAccepted || st.ID == "" || (st.State != stateRunning && st.State != stateDone) || st.Events != "/api/count/"+st.ID+"/events" {
		t.Fatalf("POST /api/count: status %d, %+v", res.StatusCode, st)
	}
	return st
}

// TestCountVariant counts the torus and superqueens through the API: the
// result is the variant's JSON form, its numbers the library's, with the
// OEIS sequences they are terms of and, where published, their terms
// checked.
func TestCountVariant(t *testing.T) {
	s := newServer(t, Config{})
	ts := startHTTP(t, s)
	for _, tc := range []struct {
		body string
		spec variant.Spec
		oeis string
	}{
		{`{"n":7,"torus":true}`, variant.Spec{Rows: 7, Torus: true}, "A051906"},
		{`{"n":10,"super":true}`, variant.Spec{Rows: 10, Piece: variant.Superqueen}, "A051223"},
		{`{"n":6,"torus":true,"super":true}`, variant.Spec{Rows: 6, Torus: true, Piece: variant.Superqueen}, ""},
	} {
		res, err := http.Post(ts.URL+"/api/count", "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		var st countStatusJSON
		err = json.NewDecoder(res.Body).Decode(&st)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusAccepted {
			t.Fatalf("%s: status %d: %v", tc.body, res.StatusCode, err)
		}
		events := readEvents(t, get(t, ts.URL+st.Events).Body)
		last := events[len(events)-1]
		var res2 variantResultJSON
		if err := json.Unmarshal([]byte(last.Data), &res2); last.Name != "result" || err != nil || res2.Engine != engineVariant {
			t.Fatalf("%s: last event %+v: %v", tc.body, last, err)
		}
		got := res2.ResultJSON
		want, err := variant.Count(context.Background(), tc.spec, variant.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w := want.JSON()
		got.Seconds, got.Workers, w.Seconds, w.Workers = 0, 0, 0, 0
		if !reflect.DeepEqual(got, w) || got.OEIS != tc.oeis || (got.Matches == nil) != (tc.oeis == "") {
			t.Fatalf("%s: result %+v, the library counts %+v (OEIS %q)", tc.body, got, w, tc.oeis)
		}
	}
}

func TestCountResult(t *testing.T) {
	s := newServer(t, Config{})
	ts := startHTTP(t, s)
	// The events name the engine that counts n (count.Engine): the tree
	// search, or the join of half boards (N = 14 today).
	for _, n := range []int{1, 2, 8, 12, 14} {
		st := startCount(t, ts, n)
		events := readEvents(t, get(t, ts.URL+st.Events).Body)
		last := events[len(events)-1]
		if last.Name != "result" {
			t.Fatalf("n=%d: last event %+v", n, last)
		}
		for _, e := range events[:len(events)-1] {
			var p countProgressJSON
			if e.Name != "progress" || json.Unmarshal([]byte(e.Data), &p) != nil || p.N != n || p.UnitsDone > p.Units || p.Engine != count.Engine(n) {
				t.Fatalf("n=%d: event %+v, want the engine %q", n, e, count.Engine(n))
			}
		}
		var r countResultJSON
		if err := json.Unmarshal([]byte(last.Data), &r); err != nil {
			t.Fatal(err)
		}
		if r.Engine != count.Engine(n) {
			t.Fatalf("n=%d: the result names the engine %q, count.Engine %q", n, r.Engine, count.Engine(n))
		}
		row, ok, err := reference.Get(n)
		if err != nil || !ok {
			t.Fatalf("reference for %d: %v %v", n, ok, err)
		}
		if r.N != n || r.Total.String() != row.Total.String() || r.Unique.String() != row.Unique.String() || r.Matches == nil || !*r.Matches {
			t.Fatalf("n=%d: result %+v, want total %s unique %s", n, r, row.Total, row.Unique)
		}
		// A late reader gets the result at once, and so does the status.
		events = readEvents(t, get(t, ts.URL+st.Events).Body)
		if events[len(events)-1].Data != last.Data {
			t.Fatalf("n=%d: second reader got %+v", n, events)
		}
		var again struct {
			State  string           `json:"state"`
			Result *countResultJSON `json:"result"`
		}
		decode(t, do(s, "GET", "/api/count/"+st.ID, ""), &again)
		if again.State != stateDone || again.Result == nil || !reflect.DeepEqual(*again.Result, r) {
			t.Fatalf("n=%d: status %+v", n, again)
		}
	}
}

// TestCountCancel starts a count that would take long, cancels it with
// DELETE, and checks that its stream ends with "stopped" and its job slot
// is free again.
func TestCountCancel(t *testing.T) {
	s := newServer(t, Config{MaxCountN: 20, MaxJobs: 1})
	ts := startHTTP(t, s)
	st := startCount(t, ts, 20)
	res := get(t, ts.URL+st.Events)
	// The only job slot is taken: a second heavy request is refused.
	rec := do(s, "POST", "/api/count", `{"n":4}`)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("second count: status %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	wantError(t, rec, "server busy: the limit of 1 heavy job(s) at once is reached")

	rec = do(s, "DELETE", "/api/count/"+st.ID, "")
	var cancelled countStatusJSON
	decode(t, rec, &cancelled)
	if rec.Code != http.StatusOK || cancelled.State != stateCancelled || cancelled.Reason != "cancelled by the client" {
		t.Fatalf("DELETE: status %d, %+v", rec.Code, cancelled)
	}
	events := readEvents(t, res.Body)
	last := events[len(events)-1]
	if last.Name != "stopped" || !strings.Contains(last.Data, `"state":"cancelled"`) {
		t.Fatalf("last event %+v", last)
	}
	testkit.WaitFor(t, "the job slot to be freed", func() bool { return len(s.jobs) == 0 })
}

// TestCountIdle checks the policy for a page that goes away: with nobody
// reading its events for CountIdle, a job is cancelled, not before; a
// listener keeps it alive, and CountIdle after it leaves, the job is
// cancelled. It runs on synctest's fake clock, the counts held at their
// first unit (internal/faults), so that neither the machine's load nor the
// engine's speed decides what happens first.
func TestCountIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n, idle = 12, time.Minute
		hold := faults.HoldUnit(n, 0)
		defer hold.Release()
		s := newServer(t, Config{CountIdle: idle, CountWorkers: 1})
		start := func() *countJob {
			t.Helper()
			var st countStatusJSON
			decode(t, do(s, "POST", "/api/count", `{"n":12}`), &st)
			j, err := s.counts.get(st.ID)
			if err != nil {
				t.Fatal(err)
			}
			return j
		}
		// after lets the fake clock run for d and everything it wakes
		// settle, and returns the job's state.
		after := func(j *countJob, d time.Duration) countStatusJSON {
			time.Sleep(d) // on the fake clock
			synctest.Wait()
			return j.status()
		}

		// Nobody ever connects.
		j := start()
		if st := after(j, idle-time.Millisecond); st.State != stateRunning {
			t.Fatalf("unwatched job before CountIdle: %+v", st)
		}
		if st := after(j, time.Millisecond); st.State != stateCancelled || st.Reason != "nobody was listening to its events" {
			t.Fatalf("unwatched job after CountIdle: %+v", st)
		}

		// A listener keeps the job alive; leaving cancels it.
		j = start()
		ctx, cancel := context.WithCancel(context.Background())
		listened := make(chan struct{})
		go func() {
			defer close(listened)
			s.ServeHTTP(httptest.NewRecorder(), newRequest("GET", "/api/count/"+j.id+"/events", nil).WithContext(ctx))
		}()
		if st := after(j, 3*idle); st.State != stateRunning {
			t.Fatalf("watched job after three idle periods: %+v", st)
		}
		cancel()
		<-listened
		if st := after(j, idle-time.Millisecond); st.State != stateRunning {
			t.Fatalf("abandoned job before CountIdle: %+v", st)
		}
		if st := after(j, time.Millisecond); st.State != stateCancelled {
			t.Fatalf("abandoned job after CountIdle: %+v", st)
		}
		if len(s.jobs) != 0 {
			t.Fatalf("%d job slots still taken", len(s.jobs))
		}
	})
}

// TestCloseStopsJobs checks that closing the server ends running jobs.
func TestCloseStopsJobs(t *testing.T) {
	s := newServer(t, Config{MaxCountN: 20})
	ts := startHTTP(t, s)
	st := startCount(t, ts, 20)
	s.Close()
	j, _ := s.counts.get(st.ID)
	if got := j.status(); got.State != stateCancelled || got.Reason != "the server is shutting down" {
		t.Fatalf("after Close: %+v", got)
	}
}

// TestNoJobAfterClose checks that a closed server refuses new count jobs.
func TestNoJobAfterClose(t *testing.T) {
	s := newServer(t, Config{})
	s.Close()
	rec := do(s, "POST", "/api/count", `{"n":8}`)
	if rec.Code != http.StatusServiceUnavailable || len(s.jobs) != 0 {
		t.Fatalf("status %d, %d slots taken: %s", rec.Code, len(s.jobs), rec.Body)
	}
}
