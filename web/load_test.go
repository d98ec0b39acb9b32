package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testkit"
)

// serveLoopback runs s.Serve on a free loopback port; stop shuts it down and
// returns Serve's error.
func serveLoopback(t *testing.T, s *Server) (base string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, 5*time.Second) }()
	return "http://" + ln.Addr().String(), func() error {
		cancel()
		return <-done
	}
}

// TestLoad sends 240 requests from 48 concurrent clients, a mix of cheap and
// heavy endpoints, some of which walk away mid-stream. Every answer must be
// a success or a 429 with a JSON error; the cheap endpoint must keep
// answering quickly; and after shutdown no goroutine may be left behind.
func TestLoad(t *testing.T) {
	before := runtime.NumGoroutine()
	// Every count client follows its job: a short CountIdle would cancel
	// jobs whose client is slow to connect on a loaded machine.
	cfg := Config{MaxJobs: 3, CountIdle: 10 * time.Second, Logger: slog.New(slog.DiscardHandler)}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	base, stop := serveLoopback(t, s)
	// Each client has its own loopback address, as real clients do: the
	// server keeps the finished count jobs of one address (the latest 8), and
	// 48 clients on one address evicted each other's jobs before they read
	// their events.
	clientFor := func(i int) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i))}}
		return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: testkit.WaitLimit}
	}

	type call struct {
		method, path, body string
		abandon            bool // read a little, then hang up
	}
	calls := []call{
		{"GET", "/api/limits", "", false},
		{"POST", "/api/verify", `{"queens":[2,4,6,8,3,1,7,5]}`, false},
		{"GET", "/api/trace?n=6&limit=300", "", false},
		{"GET", "/api/trace?n=20", "", true},
		{"GET", "/api/solutions?n=9", "", false},
		{"POST", "/api/count", `{"n":11}`, false},
		{"GET", "/", "", false},
		{"GET", "/api/nope", "", false},
	}
	const clients, perClient = 48, 5
	var (
		ok, busy, other atomic.Int64
		slowest         atomic.Int64 // of the cheap requests, in ns
		wg              sync.WaitGroup
		failures        = make(chan string, clients*perClient)
	)
	deadline := time.Now().Add(20 * time.Second)
	var idle []*http.Client
	for i := range clients {
		client := clientFor(i)
		idle = append(idle, client)
		wg.Go(func() {
			for j := range perClient {
				if time.Now().After(deadline) {
					return
				}
				c := calls[(i+j)%len(calls)]
				start := time.Now()
				req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
				if c.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				res, err := client.Do(req)
				if err != nil {
					failures <- fmt.Sprintf("%s %s: %v", c.method, c.path, err)
					continue
				}
				if c.abandon && res.StatusCode == 200 {
					io.ReadFull(res.Body, make([]byte, 2048))
					res.Body.Close()
					ok.Add(1)
					continue
				}
				body, err := io.ReadAll(res.Body)
				res.Body.Close()
				if c.path == "/api/limits" {
					d := int64(time.Since(start))
					for old := slowest.Load(); d > old && !slowest.CompareAndSwap(old, d); old = slowest.Load() {
					}
				}
				switch {
				case err != nil:
					failures <- fmt.Sprintf("%s %s: reading: %v", c.method, c.path, err)
				case res.StatusCode == http.StatusTooManyRequests:
					var e struct{ Error string }
					if json.Unmarshal(body, &e) != nil || !strings.HasPrefix(e.Error, "server busy") || res.Header.Get("Retry-After") == "" {
						failures <- fmt.Sprintf("%s %s: 429 without a clear JSON error: %s", c.method, c.path, body)
					}
					busy.Add(1)
				case res.StatusCode == 200 || res.StatusCode == 202 || (c.path == "/api/nope" && res.StatusCode == 404):
					ok.Add(1)
					if c.path == "/api/count" {
						// Follow the job to its end, as the page does.
						var st countStatusJSON
						if err := json.Unmarshal(body, &st); err != nil {
							failures <- "count start: " + err.Error()
							continue
						}
						er, err := client.Get(base + st.Events)
						if err != nil {
							failures <- "count events: " + err.Error()
							continue
						}
						all, _ := io.ReadAll(er.Body)
						er.Body.Close()
						if !strings.Contains(string(all), "event: result") {
							failures <- "count events without a result: " + string(all)
						}
					}
				default:
					other.Add(1)
					failures <- fmt.Sprintf("%s %s: status %d: %s", c.method, c.path, res.StatusCode, body)
				}
			}
		})
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	t.Logf("%d ok, %d busy (429), %d other; slowest /api/limits %v", ok.Load(), busy.Load(), other.Load(), time.Duration(slowest.Load()))
	if ok.Load() == 0 {
		t.Fatal("no request succeeded")
	}
	// Generous for -race on 2 shared cores; a server that queued cheap
	// requests behind heavy ones would take many seconds. A timing
	// measurement: left to the full suite.
	if d := time.Duration(slowest.Load()); d > 5*time.Second && !testing.Short() {
		t.Errorf("GET /api/limits took %v under load", d)
	}

	if err := stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for _, c := range idle {
		c.CloseIdleConnections()
	}
	var after int
	for deadline := time.Now().Add(testkit.WaitLimit); ; {
		after = runtime.NumGoroutine()
		if after <= before || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond) // polling for the goroutines to end
	}
	if after > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before, %d after shutdown:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
	if n := len(s.jobs); n != 0 {
		t.Fatalf("%d job slots still taken", n)
	}
}

// TestServeShutdown checks that cancelling Serve's context ends a stream in
// flight and that Serve returns without error.
func TestServeShutdown(t *testing.T) {
	s, err := New(Config{MaxCountN: 20, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	base, stop := serveLoopback(t, s)
	res, err := http.Post(base+"/api/count", "application/json", strings.NewReader(`{"n":20}`))
	if err != nil {
		t.Fatal(err)
	}
	var st countStatusJSON
	json.NewDecoder(res.Body).Decode(&st)
	res.Body.Close()
	ev, err := http.Get(base + st.Events)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Body.Close()
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(ev.Body)
		done <- string(b)
	}()
	if err := stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if body := testkit.Receive(t, "the event stream to end on shutdown", done); !strings.Contains(body, "event: stopped") || !strings.Contains(body, "shutting down") {
		t.Fatalf("stream ended with %q", body[max(0, len(body)-200):])
	}
}
