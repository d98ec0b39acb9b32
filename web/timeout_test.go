package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testkit"
)

// TestTraceStreamTimeout checks that a trace stream cut off by the stream
// time limit ends with an "error" event saying so, not silently, and frees
// its job slot.
func TestTraceStreamTimeout(t *testing.T) {
	// The limit under test: the trace of n = 20 never ends by itself.
	s := newServer(t, Config{StreamTimeout: 100 * time.Millisecond, MaxTraceEvents: 1 << 30})
	ts := startHTTP(t, s)
	start := time.Now()
	events := readEvents(t, get(t, ts.URL+"/api/trace?n=20&limit=1000000000").Body)
	if d := time.Since(start); d > 10*time.Second { // a bound for a loaded machine
		t.Fatalf("the stream ran %v past a limit of 100ms", d)
	}
	last := events[len(events)-1]
	var e struct{ Error string }
	if last.Name != "error" || json.Unmarshal([]byte(last.Data), &e) != nil ||
		!strings.HasPrefix(e.Error, "the trace ran past the stream time limit (100ms) after ") {
		t.Fatalf("last of %d events: %+v", len(events), last)
	}
	for _, ev := range events[:len(events)-1] {
		if ev.Name != "message" {
			t.Fatalf("event %+v before the error", ev)
		}
	}
	testkit.WaitFor(t, "the job slot to be freed", func() bool { return len(s.jobs) == 0 })
}

// TestCountStreamTimeout checks that a count's event stream cut off by the
// stream time limit ends with an "error" event while the job runs on, and
// that connecting again follows the job.
func TestCountStreamTimeout(t *testing.T) {
	// The limit under test: the count of N = 20 takes minutes.
	s := newServer(t, Config{MaxCountN: 20, StreamTimeout: 100 * time.Millisecond, CountIdle: time.Minute})
	ts := startHTTP(t, s)
	st := startCount(t, ts, 20)
	events := readEvents(t, get(t, ts.URL+st.Events).Body)
	last := events[len(events)-1]
	if last.Name != "error" || !strings.Contains(last.Data, "the count goes on: connect again to follow it") {
		t.Fatalf("last of %d events: %+v", len(events), last)
	}
	j, _ := s.counts.get(st.ID)
	if state := j.status().State; state != stateRunning {
		t.Fatalf("after the stream's end the job is %s", state)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+st.Events, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	buf := make([]byte, 16)
	if n, _ := res.Body.Read(buf); !strings.HasPrefix(string(buf[:n]), "event: progress") {
		t.Fatalf("the second stream starts with %q", buf[:n])
	}
	if rec := do(s, "DELETE", "/api/count/"+st.ID, ""); rec.Code != http.StatusOK {
		t.Fatalf("DELETE: status %d: %s", rec.Code, rec.Body)
	}
}
