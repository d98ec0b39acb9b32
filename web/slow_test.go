package web

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testkit"
)

// stallBody opens a connection to addr and sends the headers of a POST
// whose body never comes in full: it waits for the server's "100
// Continue", which net/http sends when the handler first reads the body,
// then sends the first byte and stalls.
func stallBody(t *testing.T, addr, target string) net.Conn {
	t.Helper()
	return stallBodyOf(t, addr, target, 100)
}

// TestSlowBodiesHoldNoSlot: connections that send their headers and then
// stall their bodies must not hold the heavy-job slots, on any endpoint
// that reads a body. The slow-client time limit is long here: what frees
// the slots is that a body is read before a slot is taken.
func TestSlowBodiesHoldNoSlot(t *testing.T) {
	// The count of the completions of an empty 20×20 board is accepted
	// under a long request limit, and runs until the shutdown.
	s := newServer(t, Config{SlowClientTimeout: time.Minute, RequestTimeout: 10000 * time.Hour})
	base, stop := serveLoopback(t, s)
	defer stop()
	addr := strings.TrimPrefix(base, "http://")
	for _, target := range []string{"/api/render", "/api/complete", "/api/count", "/api/render", "/api/complete"} {
		stallBody(t, addr, target)
	}
	if n := len(s.jobs); n != 0 {
		t.Fatalf("%d heavy-job slots held by stalled bodies", n)
	}
	for _, target := range []string{"/api/solve?n=8", "/api/solutions?n=6", "/api/trace?n=4&limit=5", "/api/render?queens=2,4,1,3"} {
		res := get(t, base+target)
		if res.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(res.Body)
			t.Fatalf("GET %s while five bodies stall: status %d: %s", target, res.StatusCode, b)
		}
		io.Copy(io.Discard, res.Body)
	}
	res, err := http.Post(base+"/api/complete", "application/json", strings.NewReader(`{"queens":[0,0,0,0]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/complete while five bodies stall: status %d", res.StatusCode)
	}
}

// TestSlowBodyTimeout: a body that does not arrive within the slow-client
// time limit is answered 408 with a JSON error, and the connection closed.
func TestSlowBodyTimeout(t *testing.T) {
	s := newServer(t, Config{SlowClientTimeout: 200 * time.Millisecond}) // the limit under test
	base, stop := serveLoopback(t, s)
	defer stop()
	addr := strings.TrimPrefix(base, "http://")
	for _, target := range []string{"/api/verify", "/api/complete", "/api/count"} {
		conn := stallBody(t, addr, target)
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: no answer to a stalled body: %v", target, err)
		}
		body, _ := io.ReadAll(res.Body)
		var e struct{ Error string }
		if res.StatusCode != http.StatusRequestTimeout || json.Unmarshal(body, &e) != nil ||
			e.Error != "the request body did not arrive within the time limit of 200ms" || !res.Close {
			t.Fatalf("%s: status %d, close %v: %s", target, res.StatusCode, res.Close, body)
		}
	}
}

// TestStalledStreamFreesSlot: a trace stream whose client stops reading
// frees its job slot after the slow-client time limit, not after the
// stream's own (long) limit.
func TestStalledStreamFreesSlot(t *testing.T) {
	s := newServer(t, Config{SlowClientTimeout: 200 * time.Millisecond, StreamTimeout: 5 * time.Minute, MaxTraceEvents: 1 << 30}) // the limit under test
	base, stop := serveLoopback(t, s)
	defer stop()
	addr := strings.TrimPrefix(base, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /api/trace?n=20&limit=1000000000 HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	// The client reads nothing: the socket buffers fill, then the
	// server's writes block.
	testkit.WaitFor(t, "the trace to start", func() bool { return len(s.jobs) == 1 })
	testkit.WaitFor(t, "the stalled stream to free its slot", func() bool { return len(s.jobs) == 0 })
}

// TestShutdownIs503: a request cut off because the server stops is
// answered 503 with a JSON error, not a made-up status: one whose work is
// cancelled (a count of the completions of an empty 20×20 board, 39
// billion), and one still waiting for its body.
func TestShutdownIs503(t *testing.T) {
	// The count of the completions of an empty 20×20 board is accepted
	// under a long request limit, and runs until the shutdown.
	s := newServer(t, Config{SlowClientTimeout: time.Minute, RequestTimeout: 10000 * time.Hour})
	base, stop := serveLoopback(t, s)
	addr := strings.TrimPrefix(base, "http://")
	type answer struct {
		res  *http.Response
		body []byte
		err  error
	}
	done := make(chan answer, 2)
	read := func(res *http.Response, err error) {
		if err != nil {
			done <- answer{err: err}
			return
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		done <- answer{res, body, err}
	}
	go func() {
		read(http.Post(base+"/api/complete", "application/json", strings.NewReader(`{"queens":[`+strings.Repeat("0,", 19)+`0],"count":true}`)))
	}()
	testkit.WaitFor(t, "the count to start", func() bool { return len(s.jobs) == 1 })
	conn := stallBody(t, addr, "/api/verify")
	go func() { read(http.ReadResponse(bufio.NewReader(conn), nil)) }()
	if err := stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for range 2 {
		a := <-done
		if a.err != nil {
			t.Fatal(a.err)
		}
		var e struct{ Error string }
		if a.res.StatusCode != http.StatusServiceUnavailable || json.Unmarshal(a.body, &e) != nil || e.Error != "the server is shutting down; try again in a moment" {
			t.Fatalf("status %d: %.300s", a.res.StatusCode, a.body)
		}
	}
}
