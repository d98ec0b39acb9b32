package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testkit"
)

// TestBufferedBudget holds most of the buffered-bytes budget with a body
// that stalls, then sends more bodies: each gets 503 with Retry-After as
// soon as its headers arrive, before its body is read (no 100 Continue),
// on a light endpoint and a heavy one alike, while a request without a
// body still gets in. Once the stalled body gives up, the budget is back.
func TestBufferedBudget(t *testing.T) {
	const body = 100_000
	s := newServer(t, Config{MaxBodyBytes: body, MaxBufferedBytes: parseFactor*body + maxHeaderBytes, SlowClientTimeout: time.Minute})
	base, stop := serveLoopback(t, s)
	defer stop()
	addr := strings.TrimPrefix(base, "http://")
	stalled := stallBodyOf(t, addr, "/api/verify", body)
	for _, target := range []string{"/api/verify", "/api/complete", "/api/count"} {
		conn := dialPost(t, addr, target, body)
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "1" ||
			!strings.Contains(string(b), "server busy: the requests in progress hold its limit of") {
			t.Fatalf("POST %s of %d bytes with the budget held: status %d, Retry-After %q: %s", target, body, res.StatusCode, res.Header.Get("Retry-After"), b)
		}
		// The server closes the connection rather than wait for the body.
		if n, err := conn.Read(make([]byte, 1)); err != io.EOF {
			t.Fatalf("POST %s: after the 503 the connection gave %d bytes, %v; want it closed", target, n, err)
		}
	}
	// A client that sends its body unasked gets the 503 too, its body read
	// into no buffer, rather than a connection reset.
	res, err := http.Post(base+"/api/verify", "application/json", strings.NewReader(strings.Repeat(" ", body)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "1" {
		t.Fatalf("POST of %d bytes sent at once, with the budget held: status %d", body, res.StatusCode)
	}
	if res := get(t, base+"/api/limits"); res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/limits with the budget held: status %d", res.StatusCode)
	}
	stalled.Close()
	testkit.WaitFor(t, "the stalled body to give its budget back", func() bool {
		res, err := http.Post(base+"/api/verify", "application/json", strings.NewReader(`{"queens":[2,4,1,3]}`+strings.Repeat(" ", body-30)))
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
}

// dialPost sends the headers of a POST of size bytes that waits for 100
// Continue before its body.
func dialPost(t *testing.T, addr, target string, size int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(testkit.WaitLimit))
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", target, addr, size)
	return conn
}

// stallBodyOf is stallBody with a body of the given declared size.
func stallBodyOf(t *testing.T, addr, target string, size int) net.Conn {
	t.Helper()
	conn := dialPost(t, addr, target, size)
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 100 ") {
		t.Fatalf("%s: waiting for 100 Continue: %q, %v", target, line, err)
	}
	io.WriteString(conn, "{")
	return conn
}

// TestCrossSite: heavy and state-changing requests that a browser marks as
// coming from another site are refused with 403; the same requests from
// the page itself, typed by hand, or from a tool pass, and so do light
// GETs from anywhere.
func TestCrossSite(t *testing.T) {
	s := newServer(t, Config{})
	guarded := []struct{ method, target, body string }{
		{"GET", "/api/solve?n=8", ""},
		{"GET", "/api/render?queens=2,4,1,3", ""},
		{"POST", "/api/render", `{"queens":[2,4,1,3]}`},
		{"POST", "/api/complete", `{"queens":[0,0,0,0]}`},
		{"GET", "/api/solutions?n=6", ""},
		{"GET", "/api/trace?n=4", ""},
		{"POST", "/api/verify", `{"queens":[2,4,1,3]}`},
		{"POST", "/api/count", `{"n":4}`},
		{"DELETE", "/api/count/0123456789abcdef", ""},
	}
	foreign := []map[string]string{
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
		{"Origin": "http://evil.example"},
		{"Origin": "null"},
		{"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost:9999"},
	}
	own := []map[string]string{
		{},
		{"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
		{"Sec-Fetch-Site": "none"},
	}
	send := func(method, target, body string, h map[string]string) int {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req := newRequest(method, target, rd)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code == http.StatusForbidden && !strings.Contains(rec.Body.String(), "may not start work here") {
			t.Errorf("%s %s %v: 403 with %s", method, target, h, rec.Body)
		}
		return rec.Code
	}
	for _, g := range guarded {
		for _, h := range foreign {
			if code := send(g.method, g.target, g.body, h); code != http.StatusForbidden {
				t.Errorf("%s %s with %v: status %d, want 403", g.method, g.target, h, code)
			}
		}
		for _, h := range own {
			if code := send(g.method, g.target, g.body, h); code == http.StatusForbidden {
				t.Errorf("%s %s with %v: 403, want it served", g.method, g.target, h)
			}
		}
		testkit.WaitFor(t, "the job slots to be free", func() bool { return len(s.jobs) == 0 })
	}
	for _, target := range []string{"/api/limits", "/api/algorithms", "/"} {
		if code := send("GET", target, "", foreign[0]); code != http.StatusOK {
			t.Errorf("GET %s from another site: status %d, want 200", target, code)
		}
	}
}

// TestLongJobsPerClient: trace streams and count jobs, which last as long
// as their client wants, take at most half the job slots per client and
// leave one slot free in all, so that slow readers cannot hold every slot;
// the short heavy jobs still run.
func TestLongJobsPerClient(t *testing.T) {
	s := newServer(t, Config{MaxJobs: 4, MaxTraceEvents: 1 << 30, StreamTimeout: time.Minute})
	base, stop := serveLoopback(t, s)
	defer stop()
	from := func(ip string) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	a, b := from("127.0.0.1"), from("127.0.0.2")
	// A stream nobody reads holds its slot (until the slow-client limit).
	stream := func(c *http.Client) int {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/trace?n=20&limit=1000000000", nil)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK {
			defer res.Body.Close()
		}
		return res.StatusCode
	}
	for i, tc := range []struct {
		client *http.Client
		want   int
	}{{a, 200}, {a, 200}, {a, 429}, {b, 200}, {b, 429}} {
		if got := stream(tc.client); got != tc.want {
			t.Fatalf("stream %d: status %d, want %d", i, got, tc.want)
		}
	}
	res, err := a.Get(base + "/api/solve?n=8")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("a short heavy job beside three streams: status %d", res.StatusCode)
	}
}

// TestTraceShutdown: a trace stream cut off by the server's shutdown ends
// with an "error" event that says so (it used to end with no last event).
func TestTraceShutdown(t *testing.T) {
	s := newServer(t, Config{MaxTraceEvents: 1 << 30})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, 10*time.Second) }()
	res := get(t, "http://"+ln.Addr().String()+"/api/trace?n=20&limit=1000000000")
	br := bufio.NewReader(res.Body)
	if _, err := br.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	cancel()
	events := readEvents(t, br)
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	last := events[len(events)-1]
	if last.Name != "error" || !strings.Contains(last.Data, "the server is shutting down") {
		t.Fatalf("last event of a trace cut by shutdown: %+v", last)
	}
}

// denseBody is a request body of about size bytes: open, then item
// repeated (each after a comma), then close.
func denseBody(size int, open, item, close string) string {
	var b strings.Builder
	b.WriteString(open + item)
	for b.Len()+len(close)+len(item)+1 <= size {
		b.WriteString("," + item)
	}
	b.WriteString(close)
	return b.String()
}

// TestBodyCost holds the costliest request bodies to parseFactor, the
// share of the buffered-bytes budget a body takes: reading, decoding and
// checking a body of 1 MB allocates at most parseFactor times its size in
// all, which bounds what it holds at once. The dense bodies are the ones
// the budget once missed: 1 MB of zeros decoded through encoding/json's
// tokens allocated 127 MB, and 300 of them at once took 351 MB.
func TestBodyCost(t *testing.T) {
	const size = 1 << 20
	s := newServer(t, Config{})
	for _, tc := range []struct{ name, target, body string }{
		{"dense queens", "/api/verify", denseBody(size, `{"partial":true,"queens":[`, "0", "]}")},
		{"columns 1..k", "/api/verify", columnsBody(size)},
		{"dense blocked squares", "/api/verify", denseBody(size, `{"partial":true,"queens":[0,0],"blocked":[`, "[1,1]", "]}")},
		{"dense board text", "/api/verify", denseBody(size, `{"partial":true,"board":"`, "0", `"}`)},
		{"board text of escapes", "/api/verify", denseBody(size, `{"partial":true,"board":"`, `\u0030`, `"}`)},
		{"dense queens to complete", "/api/complete", denseBody(size, `{"queens":[`, "0", "]}")},
		{"dense queens to render", "/api/render", denseBody(size, `{"output":"list","queens":[`, "0", "]}")},
	} {
		req := newRequest("POST", tc.target, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		// The answer goes to no buffer, as to a connection: what the
		// request costs, not what the recorder keeps of its answer.
		w := &discardWriter{header: http.Header{}}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s.ServeHTTP(w, req)
		runtime.ReadMemStats(&after)
		if w.status >= 500 {
			t.Fatalf("%s: status %d", tc.name, w.status)
		}
		cost := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(tc.body))
		t.Logf("%s (%d bytes, status %d): %.2f times its size allocated", tc.name, len(tc.body), w.status, cost)
		if cost > parseFactor {
			t.Errorf("%s: a body of %d bytes allocated %.2f times its size, more than the %d times the budget counts", tc.name, len(tc.body), cost, parseFactor)
		}
	}
}

// columnsBody is a verify body of about size bytes: the columns 1..k.
func columnsBody(size int) string {
	var b strings.Builder
	b.WriteString(`{"queens":[1`)
	for i := 2; b.Len() < size-16; i++ {
		b.WriteString("," + strconv.Itoa(i))
	}
	return b.String() + "]}"
}
