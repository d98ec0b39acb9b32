package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testkit"
)

// startCountFrom starts a count of n for the client at remote (an
// address:port) and waits for it to finish.
func startCountFrom(t *testing.T, s *Server, remote string, n int) string {
	t.Helper()
	req := newRequest("POST", "/api/count", strings.NewReader(fmt.Sprintf(`{"n":%d}`, n)))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = remote
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	var st countStatusJSON
	decode(t, rec, &st)
	if rec.Code != http.StatusAccepted {
		t.Fatalf("POST /api/count: status %d: %s", rec.Code, rec.Body)
	}
	j, err := s.counts.get(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Finished: done and filed among the finished jobs, which comes after,
	// so that jobs are filed in the order they were started.
	testkit.WaitFor(t, "the count to finish", func() bool {
		s.counts.mu.Lock()
		defer s.counts.mu.Unlock()
		return slices.Contains(s.counts.finished, j)
	})
	return st.ID
}

// kept says which of ids can still be read.
func kept(s *Server, ids []string) []bool {
	out := make([]bool, len(ids))
	for i, id := range ids {
		out[i] = do(s, "GET", "/api/count/"+id, "").Code == http.StatusOK
	}
	return out
}

// TestFinishedJobsPerClient: a client keeps at most maxFinishedPerClient
// finished jobs; starting more forgets its oldest, not other clients'.
func TestFinishedJobsPerClient(t *testing.T) {
	s := newServer(t, Config{})
	other := startCountFrom(t, s, "198.51.100.7:1000", 5)
	var ids []string
	for i := range maxFinishedPerClient + 3 {
		ids = append(ids, startCountFrom(t, s, fmt.Sprintf("192.0.2.1:%d", 2000+i), 4))
	}
	got := kept(s, ids)
	for i, ok := range got {
		if want := i >= 3; ok != want {
			t.Fatalf("job %d of %d kept: %v, want %v (all: %v)", i+1, len(ids), ok, want, got)
		}
	}
	if !kept(s, []string{other})[0] {
		t.Fatal("another client's job was forgotten")
	}
	wantRequestError(t, s, "GET", "/api/count/"+ids[0], "", 404,
		fmt.Sprintf("no count job %q (a finished job is kept for 2m0s, and only the latest %d of each client, %d in all)", ids[0], maxFinishedPerClient, maxFinishedJobs))
}

// TestFinishedJobsInTotal: the server keeps at most maxFinishedJobs
// finished jobs in all, forgetting the oldest first.
func TestFinishedJobsInTotal(t *testing.T) {
	s := newServer(t, Config{})
	var ids []string
	for i := range maxFinishedJobs + 5 {
		// A client of its own for each job, so that only the total bounds them.
		ids = append(ids, startCountFrom(t, s, fmt.Sprintf("10.0.%d.%d:80", i/250, i%250), 1))
	}
	got := kept(s, ids)
	for i, ok := range got {
		if want := i >= 5; ok != want {
			t.Fatalf("job %d of %d kept: %v, want %v", i+1, len(ids), ok, want)
		}
	}
	s.counts.mu.Lock()
	defer s.counts.mu.Unlock()
	if len(s.counts.jobs) != maxFinishedJobs || len(s.counts.finished) != maxFinishedJobs {
		t.Fatalf("%d jobs and %d finished ones held, want %d", len(s.counts.jobs), len(s.counts.finished), maxFinishedJobs)
	}
}

// TestCountTimeoutReason: a count that runs past the count time limit says
// so in the reader's language.
func TestCountTimeoutReason(t *testing.T) {
	s := newServer(t, Config{CountTimeout: time.Nanosecond})
	id := startCountFrom(t, s, "192.0.2.9:1000", 16)
	for lang, want := range map[string]string{"en": "it ran past the server's count time limit", "zh": "它超过了服务器的计数时限"} {
		rec := do(s, "GET", "/api/count/"+id+"?lang="+lang, "")
		var st countStatusJSON
		decode(t, rec, &st)
		if st.State != "cancelled" || st.Reason != want {
			t.Errorf("lang=%s: state %q, reason %q, want cancelled, %q", lang, st.State, st.Reason, want)
		}
	}
}
