package web

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
)

// TestMoreErrors covers the error answers that TestErrors and
// TestBoardEndpointErrors leave out: parameters of every endpoint, board
// text, the board formats' size limit and the exact search's.
func TestMoreErrors(t *testing.T) {
	s := newServer(t, Config{MaxVerifyN: 10, MaxCompleteN: 100})
	zeros := func(n int) string { return strings.TrimSuffix(strings.Repeat("0,", n), ",") }
	for _, tc := range []struct {
		method, target, body string
		status               int
		want                 string
	}{
		{"GET", "/api/trace?n=4&limit=abc", "", 400, `limit must be a whole number written in digits, got "abc"`},
		{"GET", "/api/trace?n=4&limit=99999999999999999999", "", 400, "limit = 99999999999999999999 is out of range 1..200000"},
		{"GET", "/api/solutions?n=8&x=1", "", 400, `unknown query parameter "x"`},
		{"GET", "/api/solutions?n=0", "", 400, "n = 0 is out of range for solutions (1..12, the server's limit)"},
		{"GET", "/api/count/0123?x=1", "", 400, `unknown query parameter "x"`},
		{"GET", "/api/count/0123/events?x=1", "", 400, `unknown query parameter "x"`},
		{"DELETE", "/api/count/0123?x=1", "", 400, `unknown query parameter "x"`},
		{"POST", "/api/count", `{"n":8,"workers":2}`, 400, `unknown field "workers"`},
		{"POST", "/api/count", `{"n":8}]`, 400, "unexpected data after the JSON object"},

		{"POST", "/api/verify", `{"queens":[1,2,3,4,5,6,7,8,9,10,11]}`, 400, "n = 11 is out of range for verify (1..10, the server's limit)"},
		{"POST", "/api/verify", `{"board":"2 4 1 3","format":"bmp"}`, 400, `"format": `},
		{"POST", "/api/verify", `{"board":"2 4 1 3","format":"svg"}`, 400, `format "svg" cannot be read`},
		{"POST", "/api/verify", `{"board":5}`, 400, `field "board" must be a string`},
		{"POST", "/api/verify", `{"board":"2 4 z 3"}`, 400, `"board": `},
		{"POST", "/api/verify", `{"board":""}`, 400, `"board": `},
		{"POST", "/api/verify", `{"board":"1 2 3 4 5 6 7 8 9 10 11"}`, 400, "1..10, the server's limit"},
		{"POST", "/api/verify", `{"queens":[1],"partial":"yes"}`, 400, `field "partial" must be true or false`},
		{"POST", "/api/verify", `{"queens":[[1]]}`, 400, `field "queens[0]" must be a number, got an array`},

		{"GET", "/api/solve?n=8&method=random&seed=-1", "", 400, "seed must be a whole number from 0 to 18446744073709551615"},
		{"GET", "/api/solve?n=8&download=yes", "", 400, `download = "yes" is not one of 0, 1`},
		{"GET", "/api/solve?n=2", "", 422, "no solution for n = 2"},
		{"GET", "/api/solve?n=1001&format=grid", "", 400, "a board of 1001 rows is too large for the grid format (limit 1000)"},
		{"GET", "/api/render?queens=2,4,1,3&format=bmp", "", 400, `format = "bmp" is not one of`},
		{"GET", "/api/render?queens=2,4,1,3&format=auto", "", 400, `format = "auto" is not one of`},
		{"GET", "/api/render?queens=2,4,1,3&x=1", "", 400, `unknown query parameter "x"`},
		{"POST", "/api/render", `{"queens":[` + zeros(1001) + `],"output":"dots"}`, 400, "too large for the dots format"},
		{"POST", "/api/render", `{"queens":[1],"input":"list"}`, 400, `unknown field "input"`},
		{"PUT", "/api/render", `{}`, 405, "want GET, POST"},

		{"POST", "/api/complete", `{"queens":[` + zeros(65) + `],"count":true}`, 422, "n = 65 is out of range for the exact search (1..64)"},
		{"POST", "/api/complete", `{"queens":[` + zeros(101) + `]}`, 400, "n = 101 is out of range for complete (1..100, the server's limit)"},
		{"POST", "/api/complete", `{"queens":[0,0,0,0],"seed":-1}`, 400, `field "seed" = -1 is out of range 0..18446744073709551615`},
		{"POST", "/api/complete", `{"queens":[9,0,0,0]}`, 422, "out of range"},
	} {
		t.Run(tc.method+" "+tc.target+" "+tc.body[:min(len(tc.body), 60)], func(t *testing.T) {
			wantRequestError(t, s, tc.method, tc.target, tc.body, tc.status, tc.want)
		})
	}
}

// TestBusy checks that each heavy endpoint answers 429 with a clear message
// and Retry-After while every job slot is taken, that the cheap ones still
// answer, and that the heavy ones work again once a slot is free.
func TestBusy(t *testing.T) {
	s := newServer(t, Config{MaxJobs: 1})
	release, err := s.acquire() // a job in flight elsewhere
	if err != nil {
		t.Fatal(err)
	}
	heavy := []struct{ method, target, body string }{
		{"GET", "/api/solve?n=8", ""},
		{"GET", "/api/render?queens=2,4,1,3", ""},
		{"POST", "/api/render", `{"queens":[2,4,1,3]}`},
		{"POST", "/api/complete", `{"queens":[0,0,0,0]}`},
		{"GET", "/api/solutions?n=6", ""},
		{"GET", "/api/trace?n=4", ""},
		{"POST", "/api/count", `{"n":4}`},
	}
	for _, h := range heavy {
		rec := do(s, h.method, h.target, h.body)
		var e struct{ Error string }
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" {
			t.Fatalf("%s %s with every slot taken: status %d, Retry-After %q", h.method, h.target, rec.Code, rec.Header().Get("Retry-After"))
		}
		decode(t, rec, &e)
		if e.Error != "server busy: the limit of 1 heavy job(s) at once is reached; try again in a moment" {
			t.Fatalf("%s %s: error %q", h.method, h.target, e.Error)
		}
	}
	for _, target := range []string{"/api/limits", "/api/algorithms", "/"} {
		if rec := do(s, "GET", target, ""); rec.Code != http.StatusOK {
			t.Fatalf("GET %s while busy: status %d", target, rec.Code)
		}
	}
	if rec := do(s, "POST", "/api/verify", `{"queens":[2,4,1,3]}`); rec.Code != http.StatusOK {
		t.Fatalf("verify while busy: status %d", rec.Code)
	}
	release()
	for _, h := range heavy {
		rec := do(s, h.method, h.target, h.body)
		if rec.Code != http.StatusOK && rec.Code != http.StatusAccepted {
			t.Fatalf("%s %s with a free slot: status %d: %s", h.method, h.target, rec.Code, rec.Body)
		}
		// A count job keeps its slot until it ends.
		testkit.WaitFor(t, "the job slot to be freed", func() bool { return len(s.jobs) == 0 })
	}
}

// TestTimeout checks that a request that runs past the request time limit
// is stopped and answered with 503.
func TestTimeout(t *testing.T) {
	// The limit under test. A random 10^7-queen board takes about a
	// second, fifty times the limit: the one margin on speed left here.
	s := newServer(t, Config{RequestTimeout: 20 * time.Millisecond})
	start := time.Now()
	rec := do(s, "GET", "/api/solve?n=10000000&method=random", "")
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %.200s", rec.Code, rec.Body)
	}
	wantError(t, rec, "ran out of time")
	t.Logf("answered after %v", time.Since(start))
	if len(s.jobs) != 0 {
		t.Fatal("the job slot is still taken")
	}
}

// logBuffer collects a server's JSON log lines.
type logBuffer struct{ syncbuf.Buffer }

// newLoggedServer is newServer with its JSON log lines collected.
func newLoggedServer(t *testing.T) (*Server, *logBuffer) {
	t.Helper()
	logs := new(logBuffer)
	return newServer(t, Config{Logger: slog.New(slog.NewJSONHandler(logs, nil))}), logs
}

// records returns the log lines with the given msg.
func (l *logBuffer) records(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.String()), "\n") {
		if line == "" {
			continue // nothing logged yet: callers poll
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] == msg {
			out = append(out, rec)
		}
	}
	return out
}

// TestRecordsBeforeAnyLog: polling the log before its first line finds
// nothing, rather than failing on an empty line (CI saw it once).
func TestRecordsBeforeAnyLog(t *testing.T) {
	if got := new(logBuffer).records(t, "request"); len(got) != 0 {
		t.Fatalf("records of an empty log: %v", got)
	}
}

// TestClientGoneCancelsSolve checks that a client that hangs up stops the
// work of its request: the handler ends with the cancellation (logged with
// status 499) instead of finishing the board, and frees its job slot.
func TestClientGoneCancelsSolve(t *testing.T) {
	s, logs := newLoggedServer(t)
	ts := startHTTP(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/solve?n=10000000&method=random&format=png", nil)
	done := make(chan error, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	testkit.WaitFor(t, "the solve to start", func() bool { return len(s.jobs) == 1 })
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the request finished before it was cancelled")
	}
	testkit.WaitFor(t, "the job slot to be freed", func() bool { return len(s.jobs) == 0 })
	var got []map[string]any
	testkit.WaitFor(t, "the request's log line", func() bool {
		got = logs.records(t, "request")
		return len(got) == 1
	})
	if got[0]["status"] != float64(499) || got[0]["path"] != "/api/solve" {
		t.Fatalf("log of the cancelled request: %v", got[0])
	}
}

// TestPanicIsJSON500 checks the last line of defence: a handler that
// panics answers 500 with a JSON error and logs the panic, and the server
// goes on serving.
func TestPanicIsJSON500(t *testing.T) {
	s, logs := newLoggedServer(t)
	h := s.wrap(light, func(_ http.ResponseWriter, r *http.Request) error {
		var rows []int
		rows[len(r.URL.Path)]++ // a bug: an index out of range
		return nil
	})
	rec := do(h, "GET", "/api/any", "")
	var e struct{ Error string }
	decode(t, rec, &e)
	if rec.Code != http.StatusInternalServerError || e.Error != "internal error" {
		t.Fatalf("status %d, error %q", rec.Code, e.Error)
	}
	if p := logs.records(t, "panic"); len(p) != 1 || !strings.Contains(p[0]["panic"].(string), "index out of range") {
		t.Fatalf("panic log %v", p)
	}
	if rec := do(s, "GET", "/api/limits", ""); rec.Code != http.StatusOK {
		t.Fatalf("after a panic: status %d", rec.Code)
	}
}
